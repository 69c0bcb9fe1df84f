import type { DriverMigrations } from '../database/migration-history.js';
import { Orders1795849317266 as MysqlOrders } from './migrations/mysql/1795849317266-orders.js';
import { Orders1795849317266 as SqliteOrders } from './migrations/sqlite/1795849317266-orders.js';

/**
 * The orders' table. One class per driver under one name and timestamp, oldest first;
 * `npm run migration:generate -- orders <Name>` adds to both lists. src/features.ts joins every
 * feature's into one history.
 */
export const ORDERS_MIGRATIONS: DriverMigrations = {
  sqlite: [SqliteOrders],
  mysql: [MysqlOrders],
};
