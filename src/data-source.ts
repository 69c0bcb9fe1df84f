import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { loadConfig } from './config/app-config.js';
import { CommandLineDataSource } from './database/command-line-data-source.js';
import { MIGRATIONS } from './features.js';

/**
 * The DataSource of the TypeORM CLI for the database `DATABASE_URL` names, built from the same
 * options as the service. `ormconfig.ts` re-exports it for `npm run migration:*`; a production
 * image without dev dependencies runs the compiled copy:
 * `node node_modules/typeorm/cli.js migration:run -d dist/data-source.js`.
 */
const config = loadConfig(process.env);
// A command-line tool for people: readable lines, migrations and warnings, not every query.
Logger.overrideLogger(['log', 'warn', 'error', 'fatal']);
export default new CommandLineDataSource(config.database, config.databasePool, MIGRATIONS);
