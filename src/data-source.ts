import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { loadConfig, type DatabaseConfig } from './config/app-config.js';
import { buildDataSourceOptions, ENTITY_FILES } from './database/database-options.js';
import { MIGRATIONS } from './features.js';

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
class CommandLineDataSource extends DataSource {
  constructor(private readonly database: DatabaseConfig) {
    super({ ...buildDataSourceOptions(database, false, config.databasePool, MIGRATIONS), entities: [ENTITY_FILES] });
  }

  override async initialize(): Promise<this> {
    try {
      return await super.initialize();
    } catch (error) {
      throw explainOpenFailure(error, this.database);
    }
  }
}

/**
 * The DataSource of the TypeORM CLI for the database `DATABASE_URL` names, built from the same
 * options as the service. `ormconfig.ts` re-exports it for `npm run migration:*`; a production
 * image without dev dependencies runs the compiled copy:
 * `node node_modules/typeorm/cli.js migration:run -d dist/data-source.js`.
 */
const config = loadConfig(process.env);
// A command-line tool for people: readable lines, migrations and warnings, not every query.
Logger.overrideLogger(['log', 'warn', 'error', 'fatal']);
export default new CommandLineDataSource(config.database);
