import type { DriverMigrations } from '../database/migration-history.js';
import { Webhooks1764300002000 as MysqlWebhooks } from './migrations/mysql/1764300002000-webhooks.js';
import { Webhooks1764300002000 as SqliteWebhooks } from './migrations/sqlite/1764300002000-webhooks.js';

/**
 * The webhooks' subscriptions and deliveries. One class per driver under one name and timestamp, oldest first;
 * `npm run migration:generate -- webhooks <Name>` adds to both lists. src/features.ts joins every
 * feature's into one history.
 */
export const WEBHOOKS_MIGRATIONS: DriverMigrations = {
  sqlite: [SqliteWebhooks],
  mysql: [MysqlWebhooks],
};
