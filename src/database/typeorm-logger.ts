import { Logger as NestLogger } from '@nestjs/common';
import type { Logger as TypeOrmLoggerInterface } from 'typeorm';
import { processLogger } from '../common/logging/log-output.js';

/**
 * TypeORM's log lines through the service's logger. Query parameters are never logged: they are
 * user data, and for the users table, password hashes. TypeORM's own loggers print them with
 * every failed or slow query.
 */
export class TypeOrmLogger implements TypeOrmLoggerInterface {
  private readonly logger = new NestLogger('Database');

  logQuery(query: string): void {
    // Sql calls this for every statement it runs (six for a delete): below the trace level the
    // line would be dropped only after an object, Nest's context array and pino's level check
    // per statement (0.5% of a delete's CPU). The level is read each time: directLogs may change it.
    if (!processLogger.isLevelEnabled('trace')) return;
    this.logger.verbose({ msg: 'query', query });
  }

  logQueryError(error: string | Error, query: string): void {
    // Expected failures (duplicate keys) are answered by the service; debug level is enough.
    this.logger.debug({ msg: 'query failed', query, error: error instanceof Error ? error.message : error });
  }

  logQuerySlow(time: number, query: string): void {
    this.logger.warn({ msg: 'slow query', ms: time, query });
  }

  /** TypeORM reports migration progress ("… has been executed successfully") here. */
  logSchemaBuild(message: string): void {
    this.logger.log(message);
  }

  logMigration(message: string): void {
    this.logger.log(message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    if (level === 'warn') this.logger.warn(String(message));
    else this.logger.debug(String(message));
  }
}
