import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags, type SchemaObject } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { sqliteConnectionOf } from '../database/driver-handles.js';
import { assertSqliteWritable } from '../database/sqlite-availability.js';
import { Public } from '../auth/public.decorator.js';
import { ApiProblemResponses } from '../common/problem/api-problem-responses.js';
import { ProblemException } from '../common/problem/problem.js';
import { DATABASE_RETRY_AFTER_SECONDS } from '../common/problem/problem-details.filter.js';

const READY_TIMEOUT_MS = 2000;

const STATUS_OK: SchemaObject = {
  type: 'object',
  properties: { status: { type: 'string', enum: ['ok'], example: 'ok' } },
  required: ['status'],
  additionalProperties: false,
};

@Public()
@ApiTags('Operations')
@Controller('health')
export class HealthController {
  constructor(private readonly dataSource: DataSource) {}

  @Get('live')
  @ApiOperation({
    operationId: 'healthLive',
    summary: 'The process is up',
    description: 'Answers 200 as long as the process serves HTTP; it does not touch the database.',
  })
  @ApiOkResponse({ description: 'The process is up.', schema: STATUS_OK })
  @ApiProblemResponses(431)
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({
    operationId: 'healthReady',
    summary: 'The service can reach its database',
    description:
      'Answers 200 when the database answers a query within 2 s (on SQLite: and its write lock is free), else 503.',
  })
  @ApiOkResponse({ description: 'The database answers.', schema: STATUS_OK })
  @ApiProblemResponses(431, 503)
  async ready(): Promise<{ status: 'ok' }> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), READY_TIMEOUT_MS);
    });
    try {
      await Promise.race([this.dataSource.query('SELECT 1'), timeout]);
      const sqlite = sqliteConnectionOf(this.dataSource);
      if (sqlite) assertSqliteWritable(sqlite);
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
