import type Database from 'better-sqlite3';
import type { Pool } from 'mysql2';
import type { DataSource } from 'typeorm';

/**
 * The driver objects TypeORM keeps behind its own typings, reached in this one place: the
 * better-sqlite3 connection (statements prepared once, group commit, the readiness write check)
 * and the mysql2 pool (its acquire timeout and its gauges).
 */

/** The better-sqlite3 connection, or undefined on another database or while none is open. */
export function sqliteConnectionOf(dataSource: DataSource): Database.Database | undefined {
  if (dataSource.options.type !== 'better-sqlite3') return undefined;
  return (dataSource.driver as unknown as { databaseConnection?: Database.Database }).databaseConnection;
}

/** The mysql2 pool, or undefined on another database or while none is open. */
export function mysqlPoolOf(dataSource: DataSource): Pool | undefined {
  if (dataSource.options.type !== 'mysql') return undefined;
  return (dataSource.driver as unknown as { pool?: Pool }).pool;
}
