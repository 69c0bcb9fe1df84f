import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags, type SchemaObject } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { sqliteConnectionOf } from '../database/driver-handles.js';
import { assertSqliteWritable } from '../database/sqlite-availability.js';
import { WRITE_FAILURE_UNREADY_MS, WriteHealth } from '../database/write-health.js';
import { Public } from '../common/http/public.decorator.js';
import { ApiProblemResponses } from '../common/problem/api-problem-responses.js';
import { ProblemException } from '../common/problem/problem.js';
import { DATABASE_RETRY_AFTER_SECONDS } from '../database/database-problems.js';

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
  constructor(
    private readonly dataSource: DataSource,
    private readonly writeHealth: WriteHealth,
  ) {}

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
  @ApiOkResponse({ description: 'The database answers and takes writes.', schema: STATUS_OK })
  @ApiProblemResponses(431, 503)
  async ready(): Promise<{ status: 'ok' }> {
    if (this.writeHealth.failingRecently()) {
      throw new ProblemException(503, 'The database does not take writes right now.', {
        headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
      });
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), READY_TIMEOUT_MS);
    });
    try {
      await Promise.race([this.databaseAnswers(), timeout]);
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

  /**
   * A query, and on MySQL/MariaDB also Galera's own verdict: a node cut off from the primary
   * component still answers `SELECT 1` but refuses every statement on a table, so there the
   * answer is `wsrep_ready`. MariaDB without a Galera provider reports `wsrep_ready` OFF and no
   * provider name; MySQL has neither variable.
   */
  private async databaseAnswers(): Promise<void> {
    if (this.dataSource.options.type !== 'mysql') {
      await this.dataSource.query('SELECT 1');
      return;
    }
    const rows: { Variable_name: string; Value: string }[] = await this.dataSource.query(
      "SHOW GLOBAL STATUS WHERE Variable_name IN ('wsrep_provider_name', 'wsrep_ready')",
    );
    const value = (name: string): string | undefined => rows.find((row) => row.Variable_name === name)?.Value;
    if (value('wsrep_provider_name') && value('wsrep_ready') !== 'ON') throw new Error('not in the primary component');
  }
}
