import type Database from 'better-sqlite3';
import { join } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import type { DatabaseConfig, DatabasePoolConfig } from '../config/app-config.js';
import { failFastWhenUnavailable, SQLITE_BUSY_TIMEOUT_MS } from './sqlite-availability.js';
import { TypeOrmLogger } from './typeorm-logger.js';
import { InitialSchema1763800000000 as MysqlInitialSchema } from './migrations/mysql/1763800000000-initial-schema.js';
import { InitialSchema1763800000000 as SqliteInitialSchema } from './migrations/sqlite/1763800000000-initial-schema.js';
import { EventDatesAndVersion1764000000000 as MysqlEventDatesAndVersion } from './migrations/mysql/1764000000000-event-dates-and-version.js';
import { EventDatesAndVersion1764000000000 as SqliteEventDatesAndVersion } from './migrations/sqlite/1764000000000-event-dates-and-version.js';
import { UserRoles1764100000000 as MysqlUserRoles } from './migrations/mysql/1764100000000-user-roles.js';
import { UserRoles1764100000000 as SqliteUserRoles } from './migrations/sqlite/1764100000000-user-roles.js';
import { IdempotencyKeys1764100001000 as MysqlIdempotencyKeys } from './migrations/mysql/1764100001000-idempotency-keys.js';
import { IdempotencyKeys1764100001000 as SqliteIdempotencyKeys } from './migrations/sqlite/1764100001000-idempotency-keys.js';
import { ExactTextComparisons1764200000000 as MysqlExactTextComparisons } from './migrations/mysql/1764200000000-exact-text-comparisons.js';
import { ExactTextComparisons1764200000000 as SqliteExactTextComparisons } from './migrations/sqlite/1764200000000-exact-text-comparisons.js';
import { CursorSigningKeys1764200001000 as MysqlCursorSigningKeys } from './migrations/mysql/1764200001000-cursor-signing-keys.js';
import { CursorSigningKeys1764200001000 as SqliteCursorSigningKeys } from './migrations/sqlite/1764200001000-cursor-signing-keys.js';
import { CredentialsEpoch1764200002000 as MysqlCredentialsEpoch } from './migrations/mysql/1764200002000-credentials-epoch.js';
import { CredentialsEpoch1764200002000 as SqliteCredentialsEpoch } from './migrations/sqlite/1764200002000-credentials-epoch.js';
import { Calendar1764300000000 as MysqlCalendar } from './migrations/mysql/1764300000000-calendar.js';
import { Calendar1764300000000 as SqliteCalendar } from './migrations/sqlite/1764300000000-calendar.js';
import { Webhooks1764300002000 as MysqlWebhooks } from './migrations/mysql/1764300002000-webhooks.js';
import { Webhooks1764300002000 as SqliteWebhooks } from './migrations/sqlite/1764300002000-webhooks.js';
import { EventCapacity1764400000000 as MysqlEventCapacity } from './migrations/mysql/1764400000000-event-capacity.js';
import { EventCapacity1764400000000 as SqliteEventCapacity } from './migrations/sqlite/1764400000000-event-capacity.js';
import { MuseumHours1764400001000 as MysqlMuseumHours } from './migrations/mysql/1764400001000-museum-hours.js';
import { MuseumHours1764400001000 as SqliteMuseumHours } from './migrations/sqlite/1764400001000-museum-hours.js';
import { Tickets1764400002000 as MysqlTickets } from './migrations/mysql/1764400002000-tickets.js';
import { Tickets1764400002000 as SqliteTickets } from './migrations/sqlite/1764400002000-tickets.js';
import { NormalizedUserNames1764500003700 as MysqlNormalizedUserNames } from './migrations/mysql/1764500003700-normalized-user-names.js';
import { NormalizedUserNames1764500003700 as SqliteNormalizedUserNames } from './migrations/sqlite/1764500003700-normalized-user-names.js';
import { PublicReadHits1764500005100 as MysqlPublicReadHits } from './migrations/mysql/1764500005100-public-read-hits.js';
import { PublicReadHits1764500005100 as SqlitePublicReadHits } from './migrations/sqlite/1764500005100-public-read-hits.js';

/**
 * Every entity file of every module under src/, from the sources (tsx) or the build (node): the
 * command-line tools find a new module's entities without an edit outside its folder.
 */
export const ENTITY_FILES = join(import.meta.dirname, '..', '**', '*.entity.{ts,js}');

/**
 * Migrations per driver, listed as classes rather than globs so that the same list works from
 * the TypeScript sources (tests, TypeORM CLI) and from the compiled build. Each driver folder
 * holds the same migrations by name; a unit test keeps them in step.
 */
export const MIGRATIONS = {
  sqlite: [
    SqliteInitialSchema,
    SqliteEventDatesAndVersion,
    SqliteUserRoles,
    SqliteIdempotencyKeys,
    SqliteExactTextComparisons,
    SqliteCursorSigningKeys,
    SqliteCredentialsEpoch,
    SqliteCalendar,
    SqliteWebhooks,
    SqliteEventCapacity,
    SqliteMuseumHours,
    SqliteTickets,
    SqliteNormalizedUserNames,
    SqlitePublicReadHits,
  ],
  mysql: [
    MysqlInitialSchema,
    MysqlEventDatesAndVersion,
    MysqlUserRoles,
    MysqlIdempotencyKeys,
    MysqlExactTextComparisons,
    MysqlCursorSigningKeys,
    MysqlCredentialsEpoch,
    MysqlCalendar,
    MysqlWebhooks,
    MysqlEventCapacity,
    MysqlMuseumHours,
    MysqlTickets,
    MysqlNormalizedUserNames,
    MysqlPublicReadHits,
  ],
} as const;

/**
 * Makes every commit durable before it returns: WAL with synchronous=FULL. better-sqlite3 in WAL
 * defaults to NORMAL (a power cut can lose the last commits), and TypeORM's `enableWAL` runs
 * after this hook, so both pragmas are set here, on the one connection TypeORM opens.
 */
export function prepareSqlite(db: Database.Database): void {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  failFastWhenUnavailable(db);
}

export const DEFAULT_POOL: DatabasePoolConfig = {
  size: 10,
  connectTimeoutMs: 5000,
  acquireTimeoutMs: 5000,
  queryTimeoutMs: 10_000,
};

/**
 * THE TypeORM options, used by the Nest module and by `ormconfig.ts` (the migration CLI) alike.
 * `synchronize` is always off: the schema comes from the committed migrations only. Entities are
 * not listed here, so that this folder depends on no feature: the Nest app loads those its modules
 * register with `TypeOrmModule.forFeature`, and each entry point names its own.
 */
export function buildDataSourceOptions(
  database: DatabaseConfig,
  runMigrations = false,
  pool: DatabasePoolConfig = DEFAULT_POOL,
): DataSourceOptions {
  const common = {
    synchronize: false,
    migrationsRun: runMigrations,
    migrationsTableName: 'migrations',
    logger: new TypeOrmLogger(),
  };
  if (database.type === 'sqlite') {
    return {
      ...common,
      type: 'better-sqlite3',
      database: database.path === ':memory:' ? ':memory:' : database.path,
      migrations: [...MIGRATIONS.sqlite],
      prepareDatabase: prepareSqlite,
      timeout: SQLITE_BUSY_TIMEOUT_MS,
    };
  }
  return {
    ...common,
    type: 'mysql',
    host: database.host,
    port: database.port,
    username: database.username,
    password: database.password,
    database: database.database,
    // utf8mb4 on the connection: anything else mangles emoji before they reach the table.
    charset: 'utf8mb4_bin',
    // mysql2 would capture a stack trace for every query (about 2.5% CPU).
    trace: false,
    poolSize: pool.size,
    connectTimeout: pool.connectTimeoutMs,
    // Every query gets a deadline, so a hung connection answers 503 instead of hanging.
    maxQueryExecutionTime: pool.queryTimeoutMs,
    enableQueryTimeout: true,
    migrations: [...MIGRATIONS.mysql],
    extra: {
      // Requests waiting for a connection beyond this many fail fast (503) instead of piling up.
      queueLimit: 1000,
      enableKeepAlive: true,
    },
  };
}
