import type { DriverMigrations } from '../database/migration-history.js';
import { MuseumClock1764600004500 as MysqlMuseumClock } from './migrations/mysql/1764600004500-museum-clock.js';
import { MuseumClock1764600004500 as SqliteMuseumClock } from './migrations/sqlite/1764600004500-museum-clock.js';

/**
 * Test mode's museum clock table. One class per driver under one name and timestamp, oldest first;
 * `npm run migration:generate -- testing <Name>` adds to both lists. src/features.ts joins every
 * feature's into one history.
 */
export const TESTING_MIGRATIONS: DriverMigrations = {
  sqlite: [SqliteMuseumClock],
  mysql: [MysqlMuseumClock],
};
