import type { DriverMigrations } from '../database/migration-history.js';
import { Calendar1764300000000 as MysqlCalendar } from './migrations/mysql/1764300000000-calendar.js';
import { Calendar1764300000000 as SqliteCalendar } from './migrations/sqlite/1764300000000-calendar.js';

/**
 * The calendar's feed tokens and event stamps. One class per driver under one name and timestamp, oldest first;
 * `npm run migration:generate -- calendar <Name>` adds to both lists. src/features.ts joins every
 * feature's into one history.
 */
export const CALENDAR_MIGRATIONS: DriverMigrations = {
  sqlite: [SqliteCalendar],
  mysql: [MysqlCalendar],
};
