import type { DriverMigrations } from '../database/migration-history.js';
import { {{Plural}}{{timestamp}} as Mysql{{Plural}} } from './migrations/mysql/{{timestamp}}-{{plural}}.js';
import { {{Plural}}{{timestamp}} as Sqlite{{Plural}} } from './migrations/sqlite/{{timestamp}}-{{plural}}.js';

/**
 * The {{plural}}' table. One class per driver under one name and timestamp, oldest first;
 * `npm run migration:generate -- {{plural}} <Name>` adds to both lists. src/features.ts joins every
 * feature's into one history.
 */
export const {{PLURAL}}_MIGRATIONS: DriverMigrations = {
  sqlite: [Sqlite{{Plural}}],
  mysql: [Mysql{{Plural}}],
};
