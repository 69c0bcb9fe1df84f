import type { DriverMigrations } from '../../src/database/migration-history.js';
import { Exhibits1790000000000 as MysqlExhibits } from './migrations/mysql/1790000000000-exhibits.js';
import { Exhibits1790000000000 as SqliteExhibits } from './migrations/sqlite/1790000000000-exhibits.js';

/** The exhibits' table: one class per driver under one name and timestamp, oldest first. */
export const EXHIBITS_MIGRATIONS: DriverMigrations = {
  sqlite: [SqliteExhibits],
  mysql: [MysqlExhibits],
};
