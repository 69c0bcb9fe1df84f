import type { DriverMigrations } from '../database/migration-history.js';
import { MuseumHours1764400001000 as MysqlMuseumHours } from './migrations/mysql/1764400001000-museum-hours.js';
import { TimeSlots1764900000000 as MysqlTimeSlots } from './migrations/mysql/1764900000000-time-slots.js';
import { HoursOnAdmissions1795849500000 as MysqlHoursOnAdmissions } from './migrations/mysql/1795849500000-hours-on-admissions.js';
import { MuseumHours1764400001000 as SqliteMuseumHours } from './migrations/sqlite/1764400001000-museum-hours.js';
import { TimeSlots1764900000000 as SqliteTimeSlots } from './migrations/sqlite/1764900000000-time-slots.js';
import { HoursOnAdmissions1795849500000 as SqliteHoursOnAdmissions } from './migrations/sqlite/1795849500000-hours-on-admissions.js';

/**
 * The museum hours' week, exceptions and general admissions. One class per driver under one name and timestamp, oldest first;
 * `npm run migration:generate -- museum-hours <Name>` adds to both lists. src/features.ts joins every
 * feature's into one history.
 */
export const MUSEUM_HOURS_MIGRATIONS: DriverMigrations = {
  sqlite: [SqliteMuseumHours, SqliteTimeSlots, SqliteHoursOnAdmissions],
  mysql: [MysqlMuseumHours, MysqlTimeSlots, MysqlHoursOnAdmissions],
};
