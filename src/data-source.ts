import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { loadConfig } from './config/app-config.js';
import { buildDataSourceOptions } from './database/database-options.js';

/**
 * The DataSource of the TypeORM CLI for the database `DATABASE_URL` names, built from the same
 * options as the service. `ormconfig.ts` re-exports it for `npm run migration:*`; a production
 * image without dev dependencies runs the compiled copy:
 * `node node_modules/typeorm/cli.js migration:run -d dist/data-source.js`.
 */
const config = loadConfig(process.env);
// A command-line tool for people: readable lines, migrations and warnings, not every query.
Logger.overrideLogger(['log', 'warn', 'error', 'fatal']);
export default new DataSource({
  ...buildDataSourceOptions(config.database, false, config.databasePool),
  // Every entity file of every module, from the sources (tsx) or the build (node), so that a new
  // module's entity reaches migration:generate without an edit here.
  entities: [join(import.meta.dirname, '**', '*.entity.{ts,js}')],
});
