import { Logger } from '@nestjs/common';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource, getMetadataArgsStorage } from 'typeorm';
import { buildDataSourceOptions, DEFAULT_POOL } from './database-options.js';
import { MIGRATIONS } from '../features.js';

const MYSQL = {
  type: 'mysql',
  host: 'db.example.org',
  port: 3306,
  username: 'museum',
  password: 'secret',
  database: 'museum',
} as const;

function migrationNames(migrations: readonly (new () => { name?: string })[]): (string | undefined)[] {
  return migrations.map((Migration) => new Migration().name);
}

interface ColumnInfo {
  name: string;
  type: string;
  notnull: number;
  pk: number;
}

describe('MIGRATIONS', () => {
  it('holds the same migrations, by name and order, for SQLite and MySQL', () => {
    const sqlite = migrationNames(MIGRATIONS.sqlite);
    const mysql = migrationNames(MIGRATIONS.mysql);
    expect(sqlite.length).toBeGreaterThan(0);
    expect(mysql).toEqual(sqlite);
  });

  it('gives every migration a unique name ending in its timestamp, in ascending order', () => {
    for (const list of [MIGRATIONS.sqlite, MIGRATIONS.mysql]) {
      const names = migrationNames(list);
      expect(new Set(names).size).toBe(names.length);
      const timestamps = names.map((name) => Number(/(\d{13})$/.exec(name ?? '')?.[1]));
      for (const timestamp of timestamps) expect(Number.isInteger(timestamp)).toBe(true);
      expect([...timestamps].sort((a, b) => a - b)).toEqual(timestamps);
    }
  });
});

describe('buildDataSourceOptions', () => {
  it('builds SQLite options without synchronize, with its own migrations', () => {
    const options = buildDataSourceOptions({ type: 'sqlite', path: 'data/x.sqlite' }, false, DEFAULT_POOL, MIGRATIONS);
    expect(options.type).toBe('better-sqlite3');
    expect(options.synchronize).toBe(false);
    expect(options.migrationsRun).toBe(false);
    expect(options.migrations).toEqual([...MIGRATIONS.sqlite]);
    expect(options.entities).toBeUndefined();
    expect(
      buildDataSourceOptions({ type: 'sqlite', path: ':memory:' }, true, DEFAULT_POOL, MIGRATIONS).migrationsRun,
    ).toBe(true);
  });

  it('builds MySQL options with utf8mb4, no stack trace capture and no synchronize', () => {
    const options = buildDataSourceOptions(MYSQL, false, DEFAULT_POOL, MIGRATIONS);
    if (options.type !== 'mysql') throw new Error(`expected mysql options, got ${options.type}`);
    expect(options.charset).toBe('utf8mb4_bin');
    expect(options.trace).toBe(false);
    expect(options.synchronize).toBe(false);
    expect(options.migrationsRun).toBe(false);
    expect(options.migrations).toEqual([...MIGRATIONS.mysql]);
    expect(options).toMatchObject({
      host: 'db.example.org',
      port: 3306,
      username: 'museum',
      password: 'secret',
      database: 'museum',
      poolSize: DEFAULT_POOL.size,
      connectTimeout: DEFAULT_POOL.connectTimeoutMs,
    });
  });
});

/** The entity classes of every `*.entity.ts` file under src/. */
async function allEntities(): Promise<Function[]> {
  const src = join(import.meta.dirname, '..');
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.entity.ts'));
  for (const file of files) await import(join(src, file));
  const entities = getMetadataArgsStorage().tables.map((table) => table.target as Function);
  expect(files.length).toBeGreaterThanOrEqual(3);
  expect(entities.length).toBeGreaterThanOrEqual(files.length);
  return entities;
}

describe('a real SQLite file with the migrations applied', () => {
  let dir: string;
  let path: string;
  let dataSource: DataSource;

  beforeAll(async () => {
    // TypeORM logs every query and migration through Nest's logger.
    for (const level of ['log', 'debug', 'verbose'] as const) {
      vi.spyOn(Logger.prototype, level).mockImplementation(() => undefined);
    }
    dir = mkdtempSync(join(tmpdir(), 'museum-options-'));
    path = join(dir, 'events.sqlite');
    // Every entity of every module, found as the migration CLI finds them (ENTITY_FILES: each
    // *.entity file under src/), so that the schema check below covers a new module's too.
    dataSource = new DataSource({
      ...buildDataSourceOptions({ type: 'sqlite', path }, true, DEFAULT_POOL, MIGRATIONS),
      entities: await allEntities(),
    });
    await dataSource.initialize();
  });

  afterAll(async () => {
    if (dataSource?.isInitialized) await dataSource.destroy();
    rmSync(dir, { recursive: true, force: true });
    vi.restoreAllMocks();
  });

  it('runs in WAL mode with synchronous=FULL on the connection TypeORM uses', async () => {
    await expect(dataSource.query('PRAGMA journal_mode')).resolves.toEqual([{ journal_mode: 'wal' }]);
    await expect(dataSource.query('PRAGMA synchronous')).resolves.toEqual([{ synchronous: 2 }]);
  });

  it('sets synchronous=FULL when it opens a file that is already in WAL mode (a restart)', async () => {
    // better-sqlite3 opens an existing WAL database with synchronous=NORMAL (1) unless told otherwise.
    const restarted = new DataSource(buildDataSourceOptions({ type: 'sqlite', path }, true, DEFAULT_POOL, MIGRATIONS));
    await restarted.initialize();
    try {
      await expect(restarted.query('PRAGMA journal_mode')).resolves.toEqual([{ journal_mode: 'wal' }]);
      await expect(restarted.query('PRAGMA synchronous')).resolves.toEqual([{ synchronous: 2 }]);
    } finally {
      await restarted.destroy();
    }
  });

  it('keeps synchronous=FULL after a write transaction', async () => {
    await dataSource.transaction(async (manager) => {
      await manager.query('INSERT INTO "users" VALUES (?, ?, ?, ?, ?)', ['probe', 'x', 1, 1, 'viewer']);
      await manager.query('DELETE FROM "users" WHERE "username" = ?', ['probe']);
    });
    await expect(dataSource.query('PRAGMA synchronous')).resolves.toEqual([{ synchronous: 2 }]);
  });

  it('has applied every migration and created the tables', async () => {
    const tables = (await dataSource.query(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)) as {
      name: string;
    }[];
    expect(tables.map((table) => table.name)).toEqual(expect.arrayContaining(['special_events', 'users']));
    const applied = (await dataSource.query('SELECT name FROM "migrations" ORDER BY id')) as { name: string }[];
    expect(applied.map((row) => row.name)).toEqual(migrationNames(MIGRATIONS.sqlite));
    await expect(dataSource.showMigrations()).resolves.toBe(false);
  });

  it('declares the special_events columns with their types', async () => {
    const columns = (await dataSource.query('PRAGMA table_info("special_events")')) as ColumnInfo[];
    expect(columns.map(({ name, type, notnull, pk }) => ({ name, type, notnull, pk }))).toEqual([
      { name: 'event_id', type: 'varchar(36)', notnull: 1, pk: 1 },
      { name: 'name', type: 'varchar(200)', notnull: 1, pk: 0 },
      { name: 'location', type: 'varchar(200)', notnull: 1, pk: 0 },
      { name: 'event_description', type: 'varchar(5000)', notnull: 1, pk: 0 },
      { name: 'dates', type: 'json', notnull: 1, pk: 0 },
      { name: 'price', type: 'double', notnull: 1, pk: 0 },
      { name: 'version', type: 'bigint', notnull: 1, pk: 0 },
      { name: 'sort_date', type: 'varchar(10)', notnull: 1, pk: 0 },
      { name: 'capacity', type: 'INTEGER', notnull: 0, pk: 0 },
      { name: 'tickets_sold', type: 'INTEGER', notnull: 1, pk: 0 },
      { name: 'duration_minutes', type: 'INTEGER', notnull: 0, pk: 0 },
      { name: 'capacity_per_date', type: 'INTEGER', notnull: 0, pk: 0 },
      { name: 'prices', type: 'json', notnull: 0, pk: 0 },
    ]);
  });

  it('keys the date index (event_date, event_id) and indexes it by event too', async () => {
    const columns = (await dataSource.query('PRAGMA table_info("special_event_dates")')) as ColumnInfo[];
    expect(columns.map(({ name, type, notnull, pk }) => ({ name, type, notnull, pk }))).toEqual([
      { name: 'event_date', type: 'varchar(10)', notnull: 1, pk: 1 },
      { name: 'event_id', type: 'varchar(36)', notnull: 1, pk: 2 },
      { name: 'tickets_sold', type: 'INTEGER', notnull: 1, pk: 0 },
    ]);
    const indexes = (await dataSource.query(
      `SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND name LIKE 'IDX_%' ORDER BY name`,
    )) as { name: string; tbl_name: string }[];
    expect(indexes).toEqual([
      { name: 'IDX_special_event_dates_event', tbl_name: 'special_event_dates' },
      { name: 'IDX_special_events_sort', tbl_name: 'special_events' },
      { name: 'IDX_tickets_confirmation_code', tbl_name: 'tickets' },
      { name: 'IDX_tickets_date', tbl_name: 'tickets' },
      { name: 'IDX_tickets_email', tbl_name: 'tickets' },
      { name: 'IDX_tickets_event', tbl_name: 'tickets' },
      { name: 'IDX_tickets_order', tbl_name: 'tickets' },
      { name: 'IDX_tickets_status', tbl_name: 'tickets' },
      { name: 'IDX_webhook_deliveries_chain', tbl_name: 'webhook_deliveries' },
      { name: 'IDX_webhook_deliveries_due', tbl_name: 'webhook_deliveries' },
    ]);
  });

  it('declares the users columns with their types', async () => {
    const columns = (await dataSource.query('PRAGMA table_info("users")')) as ColumnInfo[];
    expect(columns.map(({ name, type, notnull, pk }) => ({ name, type, notnull, pk }))).toEqual([
      { name: 'username', type: 'varchar(64)', notnull: 1, pk: 1 },
      { name: 'password_hash', type: 'varchar(255)', notnull: 1, pk: 0 },
      { name: 'created_at', type: 'bigint', notnull: 1, pk: 0 },
      { name: 'updated_at', type: 'bigint', notnull: 1, pk: 0 },
      { name: 'role', type: 'varchar(16)', notnull: 1, pk: 0 },
    ]);
  });

  it('matches the entities: TypeORM finds no schema change to make', async () => {
    expect(dataSource.entityMetadatas.map((metadata) => metadata.tableName)).toEqual(
      expect.arrayContaining(['special_events', 'special_event_dates', 'users', 'webhook_subscriptions']),
    );
    const sql = await dataSource.driver.createSchemaBuilder().log();
    expect(sql.upQueries.map((query) => query.query)).toEqual([]);
  });
});

describe('upgrading in place a SQLite database that holds events from before the date index', () => {
  let dir: string;
  let dataSource: DataSource;

  beforeAll(async () => {
    for (const level of ['log', 'debug', 'verbose'] as const) {
      vi.spyOn(Logger.prototype, level).mockImplementation(() => undefined);
    }
    dir = mkdtempSync(join(tmpdir(), 'museum-upgrade-'));
    const path = join(dir, 'events.sqlite');
    const options = buildDataSourceOptions({ type: 'sqlite', path }, false, DEFAULT_POOL, MIGRATIONS);
    const old = new DataSource({ ...options, migrations: [MIGRATIONS.sqlite[0]], migrationsRun: true });
    await old.initialize();
    const insert = 'INSERT INTO "special_events" VALUES (?, ?, ?, ?, ?, ?)';
    await old.query(insert, [
      'b0000000-0000-4000-8000-000000000000',
      'B',
      'L',
      'D',
      '["2026-12-03","free","2026-12-01T10:00Z","2026-12-03"]',
      1,
    ]);
    await old.query(insert, ['a0000000-0000-4000-8000-000000000000', 'A', 'L', 'D', '["every Sunday"]', 2]);
    await old.query(insert, ['c0000000-0000-4000-8000-000000000000', 'C', 'L', 'D', '[]', 3]);
    await old.destroy();
    dataSource = new DataSource(buildDataSourceOptions({ type: 'sqlite', path }, true, DEFAULT_POOL, MIGRATIONS));
    await dataSource.initialize();
  });

  afterAll(async () => {
    if (dataSource?.isInitialized) await dataSource.destroy();
    rmSync(dir, { recursive: true, force: true });
    vi.restoreAllMocks();
  });

  it('backfills every event: its distinct ISO dates, its earliest one (or ~), version 1', async () => {
    await expect(
      dataSource.query('SELECT event_id, sort_date, version FROM special_events ORDER BY event_id'),
    ).resolves.toEqual([
      { event_id: 'a0000000-0000-4000-8000-000000000000', sort_date: '~', version: 1 },
      { event_id: 'b0000000-0000-4000-8000-000000000000', sort_date: '2026-12-01', version: 1 },
      { event_id: 'c0000000-0000-4000-8000-000000000000', sort_date: '~', version: 1 },
    ]);
    await expect(dataSource.query('SELECT event_date, event_id FROM special_event_dates')).resolves.toEqual([
      { event_date: '2026-12-01', event_id: 'b0000000-0000-4000-8000-000000000000' },
      { event_date: '2026-12-03', event_id: 'b0000000-0000-4000-8000-000000000000' },
    ]);
  });

  it('reverts to the initial schema without touching the events', async () => {
    // Every migration after the initial one, the later ones (roles, idempotency keys) included.
    for (let undone = 1; undone < MIGRATIONS.sqlite.length; undone++) await dataSource.undoLastMigration();
    const columns = (await dataSource.query('PRAGMA table_info("special_events")')) as ColumnInfo[];
    expect(columns.map((column) => column.name)).toEqual([
      'event_id',
      'name',
      'location',
      'event_description',
      'dates',
      'price',
    ]);
    await expect(dataSource.query('SELECT count(*) AS n FROM special_events')).resolves.toEqual([{ n: 3 }]);
  });
});
