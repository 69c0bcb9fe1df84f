import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { Public } from '../auth/public.decorator.js';
import { ApiProblemResponses } from '../common/problem/api-problem-responses.js';
import { ProblemException } from '../common/problem/problem.js';
import { DATABASE_RETRY_AFTER_SECONDS } from '../common/problem/problem-details.filter.js';

const READY_TIMEOUT_MS = 2000;

@Public()
@ApiTags('Operations')
@Controller('health')
export class HealthController {
  constructor(private readonly dataSource: DataSource) {}

  @Get('live')
  @ApiOperation({ operationId: 'healthLive', summary: 'The process is up' })
  @ApiOkResponse({ schema: { type: 'object', properties: { status: { type: 'string', example: 'ok' } } } })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({ operationId: 'healthReady', summary: 'The service can reach its database' })
  @ApiOkResponse({ schema: { type: 'object', properties: { status: { type: 'string', example: 'ok' } } } })
  @ApiProblemResponses(503)
  async ready(): Promise<{ status: 'ok' }> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), READY_TIMEOUT_MS);
    });
    try {
      await Promise.race([this.dataSource.query('SELECT 1'), timeout]);
    } catch {
      throw new ProblemException(503, 'The database is not reachable.', {
        headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
      });
    } finally {
      clearTimeout(timer);
    }
    return { status: 'ok' };
  }
}
