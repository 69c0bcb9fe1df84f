import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags, type SchemaObject } from '@nestjs/swagger';
import type { AppConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/config.module.js';
import { Sql } from '../database/sql.js';
import { WRITE_FAILURE_UNREADY_MS } from '../database/write-health.js';
import { Public } from '../common/http/public.decorator.js';
import { ApiProblemResponses } from '../common/problem/api-problem-responses.js';
import { ProblemException } from '../common/problem/problem.js';
import { DATABASE_RETRY_AFTER_SECONDS } from '../database/database-problems.js';

const STATUS_OK: SchemaObject = {
  type: 'object',
  properties: { status: { type: 'string', enum: ['ok'], example: 'ok' } },
  required: ['status'],
  additionalProperties: false,
};

/** Ready, and in test mode says so (TEST_MODE: its /testing/ routes can reset the data). */
const READY: SchemaObject = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['ok'], example: 'ok' },
    testMode: { type: 'boolean', enum: [true], description: 'Present only in test mode (TEST_MODE=true).' },
  },
  required: ['status'],
  additionalProperties: false,
};

@Public()
@ApiTags('Operations')
@Controller('health')
export class HealthController {
  private readonly ready200: { status: 'ok'; testMode?: true };

  constructor(
    private readonly sql: Sql,
    @InjectConfig() config: AppConfig,
  ) {
    this.ready200 = config.testMode ? { status: 'ok', testMode: true } : { status: 'ok' };
  }

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
    summary: 'The service can reach its database and write to it',
    description:
      'Answers 200 when the database answers a query within 2 s (on SQLite: and its write lock is free; on a Galera ' +
      `node: and it is in the primary component) and the latest write did not fail for want of a database in the last ${WRITE_FAILURE_UNREADY_MS / 1000} s, else 503.`,
  })
  @ApiOkResponse({ description: 'The database answers and takes writes.', schema: READY })
  @ApiProblemResponses(431, 503)
  async ready(): Promise<{ status: 'ok'; testMode?: true }> {
    const readiness = await this.sql.readiness();
    if (readiness === 'writes-failing') {
      throw new ProblemException(503, 'The database does not take writes right now.', {
        headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
      });
    }
    if (readiness === 'unreachable') {
      throw new ProblemException(503, 'The database is not reachable.', {
        headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
      });
    }
    return this.ready200;
  }
}
