import type { DriverMigrations } from '../database/migration-history.js';
import { AdmissionPrices1795849357992 as MysqlAdmissionPrices } from './migrations/mysql/1795849357992-admission-prices.js';
import { AdmissionPrices1795849357992 as SqliteAdmissionPrices } from './migrations/sqlite/1795849357992-admission-prices.js';

/**
 * The admission-prices' table. One class per driver under one name and timestamp, oldest first;
 * `npm run migration:generate -- admission-prices <Name>` adds to both lists. src/features.ts joins every
 * feature's into one history.
 */
export const ADMISSION_PRICES_MIGRATIONS: DriverMigrations = {
  sqlite: [SqliteAdmissionPrices],
  mysql: [MysqlAdmissionPrices],
};
