import type { DriverMigrations } from '../database/migration-history.js';
import { InitialSchema1763800000000 as MysqlInitialSchema } from './migrations/mysql/1763800000000-initial-schema.js';
import { InitialSchema1763800000000 as SqliteInitialSchema } from './migrations/sqlite/1763800000000-initial-schema.js';
import { EventDatesAndVersion1764000000000 as MysqlEventDatesAndVersion } from './migrations/mysql/1764000000000-event-dates-and-version.js';
import { EventDatesAndVersion1764000000000 as SqliteEventDatesAndVersion } from './migrations/sqlite/1764000000000-event-dates-and-version.js';
import { CursorSigningKeys1764200001000 as MysqlCursorSigningKeys } from './migrations/mysql/1764200001000-cursor-signing-keys.js';
import { CursorSigningKeys1764200001000 as SqliteCursorSigningKeys } from './migrations/sqlite/1764200001000-cursor-signing-keys.js';
import { EventCapacity1764400000000 as MysqlEventCapacity } from './migrations/mysql/1764400000000-event-capacity.js';
import { EventCapacity1764400000000 as SqliteEventCapacity } from './migrations/sqlite/1764400000000-event-capacity.js';
import { EventDuration1764700048100 as MysqlEventDuration } from './migrations/mysql/1764700048100-event-duration.js';
import { EventDuration1764700048100 as SqliteEventDuration } from './migrations/sqlite/1764700048100-event-duration.js';
import { EventCapacityPerDate1764700048200 as MysqlEventCapacityPerDate } from './migrations/mysql/1764700048200-event-capacity-per-date.js';
import { EventCapacityPerDate1764700048200 as SqliteEventCapacityPerDate } from './migrations/sqlite/1764700048200-event-capacity-per-date.js';
import { EventPrices1795849311301 as MysqlEventPrices } from './migrations/mysql/1795849311301-event-prices.js';
import { EventPrices1795849311301 as SqliteEventPrices } from './migrations/sqlite/1795849311301-event-prices.js';
import { EventSessions1795849324199 as MysqlEventSessions } from './migrations/mysql/1795849324199-event-sessions.js';
import { EventSessions1795849324199 as SqliteEventSessions } from './migrations/sqlite/1795849324199-event-sessions.js';

/**
 * The special events' tables, from the service's first schema on (which also created the users
 * table, whose later migrations are auth's). One class per driver under one name and timestamp, oldest first;
 * `npm run migration:generate -- special-events <Name>` adds to both lists. src/features.ts joins every
 * feature's into one history.
 */
export const SPECIAL_EVENTS_MIGRATIONS: DriverMigrations = {
  sqlite: [
    SqliteInitialSchema,
    SqliteEventDatesAndVersion,
    SqliteCursorSigningKeys,
    SqliteEventCapacity,
    SqliteEventDuration,
    SqliteEventCapacityPerDate,
    SqliteEventPrices,
    SqliteEventSessions,
  ],
  mysql: [
    MysqlInitialSchema,
    MysqlEventDatesAndVersion,
    MysqlCursorSigningKeys,
    MysqlEventCapacity,
    MysqlEventDuration,
    MysqlEventCapacityPerDate,
    MysqlEventPrices,
    MysqlEventSessions,
  ],
};
