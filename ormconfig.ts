import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from './src/config/app-config.js';
import { buildDataSourceOptions } from './src/database/database-options.js';

/**
 * The DataSource of the TypeORM CLI (`npm run migration:run|revert|show|generate`), built from the
 * same options as the service, for the database `DATABASE_URL` names.
 */
export default new DataSource(buildDataSourceOptions(loadConfig(process.env).database));
