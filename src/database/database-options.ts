import type Database from 'better-sqlite3';
import { join } from 'node:path';
import type { DataSourceOptions } from 'typeorm';
import type { DatabaseConfig, DatabasePoolConfig } from '../config/app-config.js';
import { failFastWhenUnavailable, SQLITE_BUSY_TIMEOUT_MS } from './sqlite-availability.js';
import { type DriverMigrations, NO_MIGRATIONS } from './migration-history.js';
import { TypeOrmLogger } from './typeorm-logger.js';

/**
 * Every entity file of every module under src/, from the sources (tsx) or the build (node): the
 * command-line tools find a new module's entities without an edit outside its folder.
 */
export const ENTITY_FILES = join(import.meta.dirname, '..', '**', '*.entity.{ts,js}');

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
 * `synchronize` is always off: the schema comes from the committed migrations only. Entities and
 * migrations are not listed here, so that this folder depends on no feature: the Nest app loads
 * the entities its modules register with `TypeOrmModule.forFeature`, each entry point names its
 * own, and the migrations are the features' (src/features.ts joins them into MIGRATIONS).
 */
export function buildDataSourceOptions(
  database: DatabaseConfig,
  runMigrations = false,
  pool: DatabasePoolConfig = DEFAULT_POOL,
  migrations: DriverMigrations = NO_MIGRATIONS,
): DataSourceOptions {
  if (runMigrations && migrations.sqlite.length + migrations.mysql.length === 0) {
    throw new Error('migrations are to run, but none were given (src/features.ts has them: MIGRATIONS)');
  }
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
      migrations: [...migrations.sqlite],
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
    migrations: [...migrations.mysql],
    extra: {
      // Requests waiting for a connection beyond this many fail fast (503) instead of piling up.
      queueLimit: 1000,
      enableKeepAlive: true,
    },
  };
}
