import type { DriverMigrations } from '../database/migration-history.js';
import { IdempotencyKeys1764100001000 as MysqlIdempotencyKeys } from './migrations/mysql/1764100001000-idempotency-keys.js';
import { IdempotencyKeys1764100001000 as SqliteIdempotencyKeys } from './migrations/sqlite/1764100001000-idempotency-keys.js';

/**
 * The idempotency keys' table. One class per driver under one name and timestamp, oldest first;
 * `npm run migration:generate -- idempotency <Name>` adds to both lists. src/features.ts joins every
 * feature's into one history.
 */
export const IDEMPOTENCY_MIGRATIONS: DriverMigrations = {
  sqlite: [SqliteIdempotencyKeys],
  mysql: [MysqlIdempotencyKeys],
};
