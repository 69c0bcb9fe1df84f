import { DataSource } from 'typeorm';
import type { DatabaseConfig, DatabasePoolConfig } from '../config/app-config.js';
import { buildDataSourceOptions, ENTITY_FILES } from './database-options.js';
import type { DriverMigrations } from './migration-history.js';

/**
 * Why the database cannot be opened, in one line a person acts on, for the causes a newcomer
 * meets (the database not created yet, no server, refused credentials); anything else as it is.
 * The line is the error's whole stack: the TypeORM CLI prints the stack.
 */
export function explainOpenFailure(error: unknown, database: DatabaseConfig): unknown {
  if (database.type !== 'mysql') return error;
  const code = (error as { code?: unknown }).code;
  const server = `${database.host}:${database.port}`;
  const line =
    code === 'ER_BAD_DB_ERROR'
      ? `The database "${database.database}" does not exist on ${server}: create it first ` +
        `(CREATE DATABASE \`${database.database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin), then run this again.`
      : code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'ETIMEDOUT'
        ? `No MySQL server answers at ${server} (${String(code)}): check DATABASE_URL.`
        : code === 'ER_ACCESS_DENIED_ERROR' || code === 'ER_DBACCESS_DENIED_ERROR'
          ? `The server at ${server} refused user "${database.username}" (${String(code)}): check DATABASE_URL.`
          : undefined;
  if (line === undefined) return error;
  const explained = new Error(line);
  explained.stack = `Error: ${line}`;
  return explained;
}

/** A DataSource whose initialize() fails with explainOpenFailure's line. */
export class CommandLineDataSource extends DataSource {
  constructor(
    private readonly database: DatabaseConfig,
    pool: DatabasePoolConfig,
    migrations: DriverMigrations,
  ) {
    super({ ...buildDataSourceOptions(database, false, pool, migrations), entities: [ENTITY_FILES] });
  }

  override async initialize(): Promise<this> {
    try {
      return await super.initialize();
    } catch (error) {
      throw explainOpenFailure(error, this.database);
    }
  }
}
