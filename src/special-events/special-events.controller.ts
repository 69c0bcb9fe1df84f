import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { RequiresRole } from '../auth/roles.js';
import { CachePolicy, REVALIDATED_CACHE_CONTROL } from '../common/http/cache-policy.js';
import { hash } from 'node:crypto';
import { ifNoneMatchFound } from '../common/http/entity-tags.js';
import { answeredNotModified, isAnonymousRead, PublicRead, publicCacheControl } from '../common/http/public-read.js';
import type { AppConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/config.module.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { publicAvailability } from './date-seats.js';
import { CreateSpecialEventDto } from './dto/create-special-event.dto.js';
import type { DateAvailabilityResponse } from './dto/date-availability-response.dto.js';
import { EventIdParams } from './dto/event-id-params.dto.js';
import { ListSpecialEventsQuery } from './dto/list-special-events-query.dto.js';
import { SpecialEventResponse } from './dto/special-event-response.dto.js';
import { UpdateSpecialEventDto } from './dto/update-special-event.dto.js';
import { EventAttendance, type DateAttendance } from './event-attendance.js';
import { ApiGetSpecialEventAttendance } from './event-attendance.openapi.js';
import { EventIdUnchangedGuard } from './event-id-unchanged.guard.js';
import { PublicEntityTags } from './public-entity-tags.js';
import {
  ApiCreateSpecialEvent,
  ApiDeleteSpecialEvent,
  ApiGetSpecialEvent,
  ApiGetSpecialEventAvailability,
  ApiListSpecialEvents,
  ApiUpdateSpecialEvent,
} from './special-events.openapi.js';
import { etagOf, type ListPage, SpecialEventsService, toPublicResponse, toResponse } from './special-events.service.js';

@ApiTags('Special events')
@Controller('special-events')
export class SpecialEventsController {
  private readonly publicCache: string;

  constructor(
    private readonly events: SpecialEventsService,
    private readonly publicTags: PublicEntityTags,
    private readonly attendance: EventAttendance,
    @InjectConfig() config: AppConfig,
  ) {
    this.publicCache = publicCacheControl(config.publicRead);
  }

  @Get()
  @RequiresRole('viewer')
  @PublicRead()
  @ApiListSpecialEvents()
  async list(
    @Query() query: ListSpecialEventsQuery,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const page = await this.events.list(query);
    if (page.nextCursor !== undefined)
      response.setHeader('Link', `<${nextPageLink(page, page.nextCursor)}>; rel="next"`);
    // Read from the request rather than through @AnonymousRead(): a custom parameter goes through
    // the global validation pipe (a few promises on every request) for a boolean no pipe checks.
    if (!isAnonymousRead(request)) response.json(page.events.map(toResponse));
    else if (!answeredNotModified(request, response, this.publicCache, this.publicTags.ofPage(page)))
      response.json(page.events.map(toPublicResponse));
  }

  @Post()
  @RequiresRole('editor')
  @HttpCode(201)
  @Idempotent()
  @ApiCreateSpecialEvent()
  async create(
    @Body() body: CreateSpecialEventDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SpecialEventResponse> {
    const event = await this.events.create(body);
    response.location(`/special-events/${event.eventId}`);
    response.setHeader('ETag', etagOf(event));
    return toResponse(event);
  }

  @Get(':eventId')
  @RequiresRole('viewer')
  @PublicRead()
  @CachePolicy(REVALIDATED_CACHE_CONTROL)
  @ApiGetSpecialEvent()
  async get(
    @Param() { eventId }: EventIdParams,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const event = await this.events.get(eventId);
    // As in list: read from the request, not through a pipeable @AnonymousRead() parameter.
    if (isAnonymousRead(request)) {
      if (!answeredNotModified(request, response, this.publicCache, this.publicTags.ofEvent(event)))
        response.json(toPublicResponse(event));
      return;
    }
    const etag = etagOf(event);
    response.setHeader('ETag', etag);
    // Decided here rather than by Express (req.fresh), which ignores If-None-Match when the
    // request says Cache-Control: no-cache, as fetch() does whenever a conditional header is set.
    if (ifNoneMatch !== undefined && ifNoneMatchFound(ifNoneMatch, etag)) response.status(304).end();
    else response.json(toResponse(event));
  }

  @Get(':eventId/availability')
  @RequiresRole('viewer')
  @PublicRead()
  @ApiGetSpecialEventAvailability()
  async availability(
    @Param() { eventId }: EventIdParams,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const dates: DateAvailabilityResponse[] = await this.events.availability(eventId);
    if (!isAnonymousRead(request)) {
      response.json(dates);
      return;
    }
    const shown = publicAvailability(dates);
    // Tagged by what it shows (every sale changes it): a revalidation that finds it unchanged is a 304.
    const etag = `"a${hash('sha256', JSON.stringify(shown), 'base64url').slice(0, 22)}"`;
    if (!answeredNotModified(request, response, this.publicCache, etag)) response.json(shown);
  }

  /** Not a public read: what was sold and who came are for staff. */
  @Get(':eventId/attendance')
  @RequiresRole('viewer')
  @ApiGetSpecialEventAttendance()
  attendanceOf(@Param() { eventId }: EventIdParams): Promise<DateAttendance[]> {
    return this.attendance.of(eventId);
  }

  @Patch(':eventId')
  @RequiresRole('editor')
  @Idempotent()
  @ApiUpdateSpecialEvent()
  @UseGuards(EventIdUnchangedGuard)
  async update(
    @Param() { eventId }: EventIdParams,
    @Body() body: UpdateSpecialEventDto,
    @Headers('if-match') ifMatch: string | undefined,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SpecialEventResponse> {
    const event = await this.events.update(eventId, body, ifMatch, ifNoneMatch);
    response.setHeader('ETag', etagOf(event));
    return toResponse(event);
  }

  @Delete(':eventId')
  @RequiresRole('editor')
  @HttpCode(204)
  @ApiDeleteSpecialEvent()
  async delete(@Param() { eventId }: EventIdParams, @Headers('if-match') ifMatch: string | undefined): Promise<void> {
    await this.events.delete(eventId, ifMatch);
  }
}

/** The next page's link, relative to the service (RFC 8288 resolves it against the request). */
function nextPageLink(page: ListPage, cursor: string): string {
  const parameters = new URLSearchParams();
  if (page.range.start !== undefined) parameters.set('startDate', page.range.start);
  if (page.range.end !== undefined) parameters.set('endDate', page.range.end);
  parameters.set('limit', String(page.limit));
  parameters.set('cursor', cursor);
  return `/special-events?${parameters.toString()}`;
}
