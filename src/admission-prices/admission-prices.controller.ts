import { Body, Controller, Get, Put, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { createHash } from 'node:crypto';
import { RequiresRole } from '../auth/roles.js';
import { answeredNotModified, isAnonymousRead, PublicRead, publicCacheControl } from '../common/http/public-read.js';
import { validationProblem } from '../common/problem/problem.js';
import type { AppConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/config.module.js';
import { type CategoryPrice, priceListProblem } from '../domain/price-categories.js';
import { ADMISSION_PRICE_RANGE } from './admission-price-range.js';
import { ApiGetAdmissionPrices, ApiSetAdmissionPrices } from './admission-prices.openapi.js';
import { AdmissionPricesService } from './admission-prices.service.js';

/**
 * General admission's price categories: read by viewers and up (and anonymously with public
 * read, as the museum's hours), put by editors and admins.
 */
@ApiTags('Museum hours')
@Controller('admission-prices')
export class AdmissionPricesController {
  private readonly publicCache: string;

  constructor(
    private readonly prices: AdmissionPricesService,
    @InjectConfig() config: AppConfig,
  ) {
    this.publicCache = publicCacheControl(config.publicRead);
  }

  @Get()
  @RequiresRole('viewer')
  @PublicRead()
  @ApiGetAdmissionPrices()
  async list(@Req() request: Request, @Res() response: Response): Promise<void> {
    const body = JSON.stringify(await this.prices.list());
    if (!isAnonymousRead(request)) {
      response.type('json').send(body);
      return;
    }
    // At most 20 short entries: their JSON is the cheapest exact validator.
    const etag = `"p${createHash('sha256').update(body).digest().subarray(0, 16).toString('base64url')}"`;
    if (!answeredNotModified(request, response, this.publicCache, etag)) response.type('json').send(body);
  }

  /** The body is the list itself (a JSON array, as GET answers), checked here: no DTO class describes an array. */
  @Put()
  @RequiresRole('editor')
  @ApiSetAdmissionPrices()
  async set(@Body() body: unknown): Promise<CategoryPrice[]> {
    const problem = priceListProblem(body, ADMISSION_PRICE_RANGE);
    if (problem !== null) throw validationProblem([{ field: 'body', message: `body ${problem}` }]);
    return this.prices.replace(body as CategoryPrice[]);
  }
}
