import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createConnection, type RowDataPacket } from 'mysql2/promise';
import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions, DEFAULT_POOL } from '../../src/database/database-options.js';
import { MIGRATIONS } from '../../src/features.js';
import { MYSQL_TEST_URL, useTestDatabase } from '../helpers/test-database.js';
import { buildService } from '../helpers/built-service.js';
import { SERVICE_TABLES } from '../helpers/service-tables.js';

const ROOT = join(import.meta.dirname, '..', '..');

describe('npm run migration:* against MySQL', () => {
  // Created latin1 on purpose (see createTestDatabase): the migration must not depend on it.
  const database = useTestDatabase('mysql');
  const npm = (script: string) =>
    execFileSync('npm', ['run', '-s', script], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: database.url },
      encoding: 'utf8',
    });
  /**
   * The same TypeORM CLI on the compiled DataSource of the run's shared build, as a production
   * image runs it (src/data-source.ts): for the steps between the npm scripts' own, without npm's
   * and tsx's start-up (a quarter of the CPU).
   */
  let dataSource = '';
  beforeAll(() => {
    dataSource = join(dirname(buildService()), 'data-source.js');
  }, 120_000);
  const compiled = (command: 'migration:revert') =>
    execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typeorm', 'cli.js'), command, '-d', dataSource], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: database.url },
      encoding: 'utf8',
    });
  const columns = async () => {
    const connection = await createConnection({ uri: MYSQL_TEST_URL });
    try {
      const [rows] = await connection.query<RowDataPacket[]>(
        `SELECT TABLE_NAME, COLUMN_NAME, COLUMN_TYPE, CHARACTER_SET_NAME, COLLATION_NAME
           FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME IN ('special_events', 'special_event_dates', 'users')
          ORDER BY TABLE_NAME, ORDINAL_POSITION`,
        [database.name],
      );
      return rows;
    } finally {
      await connection.end();
    }
  };

  it('creates utf8mb4 tables whose columns hold every value validation accepts, even in a latin1 database', async () => {
    expect(npm('migration:run')).toContain('InitialSchema1763800000000');
    const byColumn = Object.fromEntries((await columns()).map((row) => [`${row.TABLE_NAME}.${row.COLUMN_NAME}`, row]));
    expect(byColumn['special_events.name']).toMatchObject({
      COLUMN_TYPE: 'varchar(200)',
      CHARACTER_SET_NAME: 'utf8mb4',
    });
    expect(byColumn['special_events.location']).toMatchObject({
      COLUMN_TYPE: 'varchar(200)',
      CHARACTER_SET_NAME: 'utf8mb4',
    });
    expect(byColumn['special_events.event_description']).toMatchObject({
      COLUMN_TYPE: 'varchar(5000)',
      CHARACTER_SET_NAME: 'utf8mb4',
    });
    expect(byColumn['special_events.price'].COLUMN_TYPE).toBe('double');
    // MySQL 8: json; MariaDB: JSON is an alias of longtext (utf8mb4, with a json_valid check).
    expect(['json', 'longtext']).toContain(byColumn['special_events.dates'].COLUMN_TYPE);
    expect(['json', 'longtext']).toContain(byColumn['special_events.prices'].COLUMN_TYPE);
    expect(byColumn['special_events.event_id'].COLUMN_TYPE).toBe('varchar(36)');
    // MySQL 8 shows no display width, MariaDB does.
    expect(['bigint', 'bigint(20)']).toContain(byColumn['special_events.version'].COLUMN_TYPE);
    // Dates compare byte by byte on both databases, so that `~` (no ISO date) sorts after every date.
    for (const column of [
      'special_events.sort_date',
      'special_event_dates.event_date',
      'special_event_dates.event_id',
    ]) {
      expect(byColumn[column]).toMatchObject({ CHARACTER_SET_NAME: 'ascii', COLLATION_NAME: 'ascii_bin' });
    }
    // Compared exactly, trailing spaces included (ExactTextComparisons1764200000000): MariaDB's
    // NO PAD binary collation, or MySQL 8's.
    expect(byColumn['users.username']).toMatchObject({ COLUMN_TYPE: 'varchar(64)', CHARACTER_SET_NAME: 'utf8mb4' });
    expect(['utf8mb4_nopad_bin', 'utf8mb4_0900_bin']).toContain(byColumn['users.username'].COLLATION_NAME);
    expect(byColumn['users.role']).toMatchObject({ COLUMN_TYPE: 'varchar(16)', CHARACTER_SET_NAME: 'ascii' });
    expect(npm('migration:show')).toMatch(/\[X\] \d+ InitialSchema1763800000000/);
    expect(npm('migration:show')).toMatch(/\[X\] \d+ EventDatesAndVersion1764000000000/);
  }, 180_000);

  it('gives existing users the editor role, so no one loses access on upgrade', async () => {
    // Back to the schema before roles (and every later migration) existed, with a user in it.
    npm('migration:revert');
    for (let i = 1; i < migrationsFrom('UserRoles1764100000000'); i++) compiled('migration:revert');
    expect(Object.keys(Object.fromEntries((await columns()).map((row) => [row.COLUMN_NAME, true])))).not.toContain(
      'role',
    );
    const connection = await createConnection({ uri: `${MYSQL_TEST_URL}/${database.name}` });
    try {
      await connection.query(
        'INSERT INTO users (username, password_hash, created_at, updated_at) VALUES (?, ?, 1, 1)',
        ['veteran', 'x'],
      );
      expect(npm('migration:run')).toContain('UserRoles1764100000000');
      const [rows] = await connection.query<RowDataPacket[]>('SELECT username, role FROM users');
      expect(rows.map((row) => ({ ...row }))).toEqual([{ username: 'veteran', role: 'editor' }]);
      await connection.query('DELETE FROM users');
    } finally {
      await connection.end();
    }
  }, 180_000);

  it('gives every table InnoDB and a primary key (Galera replicates only those)', async () => {
    const connection = await createConnection({ uri: MYSQL_TEST_URL });
    try {
      const [rows] = await connection.query<RowDataPacket[]>(
        `SELECT t.TABLE_NAME, t.ENGINE, (SELECT COUNT(*) FROM information_schema.TABLE_CONSTRAINTS c
            WHERE c.TABLE_SCHEMA = t.TABLE_SCHEMA AND c.TABLE_NAME = t.TABLE_NAME AND c.CONSTRAINT_TYPE = 'PRIMARY KEY') AS pk
           FROM information_schema.TABLES t WHERE t.TABLE_SCHEMA = ? ORDER BY t.TABLE_NAME`,
        [database.name],
      );
      const tables = rows
        .map((row) => ({ TABLE_NAME: row.TABLE_NAME as unknown, ENGINE: row.ENGINE as unknown, pk: Number(row.pk) }))
        .sort((a, b) => (String(a.TABLE_NAME) < String(b.TABLE_NAME) ? -1 : 1));
      // Every table, a new module's too: InnoDB with a primary key. The service's own are all there.
      expect(tables.filter((table) => table.ENGINE !== 'InnoDB' || table.pk !== 1)).toEqual([]);
      expect(tables.map((table) => table.TABLE_NAME)).toEqual(expect.arrayContaining([...SERVICE_TABLES]));
    } finally {
      await connection.end();
    }
  });

  const tableExists = async (table: string): Promise<boolean> => {
    const connection = await createConnection({ uri: MYSQL_TEST_URL });
    try {
      const [rows] = await connection.query<RowDataPacket[]>(
        'SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?',
        [database.name, table],
      );
      return rows.length === 1;
    } finally {
      await connection.end();
    }
  };

  it('gives tickets ascii ids and codes compared byte by byte, a utf8mb4 email and a unique confirmation code', async () => {
    const connection = await createConnection({ uri: MYSQL_TEST_URL });
    try {
      const [rows] = await connection.query<RowDataPacket[]>(
        `SELECT COLUMN_NAME, COLUMN_TYPE, CHARACTER_SET_NAME, COLLATION_NAME FROM information_schema.COLUMNS
          WHERE TABLE_SCHEMA = ? AND TABLE_NAME = 'tickets'`,
        [database.name],
      );
      const byColumn = Object.fromEntries(rows.map((row) => [row.COLUMN_NAME as string, row]));
      for (const column of ['ticket_id', 'event_id', 'ticket_date', 'confirmation_code', 'status', 'order_id']) {
        expect(byColumn[column]).toMatchObject({ CHARACTER_SET_NAME: 'ascii', COLLATION_NAME: 'ascii_bin' });
      }
      expect(byColumn.email).toMatchObject({ COLUMN_TYPE: 'varchar(254)', CHARACTER_SET_NAME: 'utf8mb4' });
      expect(byColumn.price_paid.COLUMN_TYPE).toBe('double');
      expect(byColumn.refund_due.COLUMN_TYPE).toBe('double');
      // A price category compares exactly (letter case counts), as general admission's keys do.
      expect(byColumn.category).toMatchObject({
        COLUMN_TYPE: 'varchar(40)',
        CHARACTER_SET_NAME: 'utf8mb4',
        COLLATION_NAME: 'utf8mb4_bin',
      });
      const [indexes] = await connection.query<RowDataPacket[]>(
        `SELECT INDEX_NAME, NON_UNIQUE FROM information_schema.STATISTICS
          WHERE TABLE_SCHEMA = ? AND TABLE_NAME = 'tickets' AND INDEX_NAME LIKE 'IDX_%' ORDER BY INDEX_NAME`,
        [database.name],
      );
      expect(indexes.map((row) => [row.INDEX_NAME, Number(row.NON_UNIQUE)])).toEqual([
        ['IDX_tickets_confirmation_code', 0],
        ['IDX_tickets_date', 1],
        ['IDX_tickets_email', 1],
        ['IDX_tickets_event', 1],
        ['IDX_tickets_order', 1],
        ['IDX_tickets_status', 1],
      ]);
    } finally {
      await connection.end();
    }
  });

  it('reverts and re-applies cleanly', async () => {
    const username = async () =>
      (await columns()).find((row) => row.TABLE_NAME === 'users' && row.COLUMN_NAME === 'username')?.COLLATION_NAME;
    // Every migration after ExactTextComparisons (tickets, event capacity, webhooks, the calendar's
    // tables, the credentials epoch, the cursor keys, and any later one).
    expect(await tableExists('tickets')).toBe(true);
    for (let i = 0; i < migrationsFrom('ExactTextComparisons1764200000000') - 1; i++) compiled('migration:revert');
    expect(await tableExists('tickets')).toBe(false);
    expect(await username()).not.toBe('utf8mb4_bin');
    npm('migration:revert');
    // ExactTextComparisons' down: back to the PAD SPACE collation of before.
    expect(await username()).toBe('utf8mb4_bin');
    for (let i = 0; i < 2; i++) compiled('migration:revert');
    expect((await columns()).length).toBe(14);
    compiled('migration:revert');
    expect((await columns()).length).toBe(10);
    npm('migration:revert');
    expect(await columns()).toEqual([]);
    expect(npm('migration:show')).toMatch(/\[ \] InitialSchema1763800000000/);
    npm('migration:run');
    // With special_events' capacity and tickets_sold (EventCapacity1764400000000) and
    // duration_minutes (EventDuration1764700048100), and capacity_per_date with each date's
    // tickets_sold (EventCapacityPerDate1764700048200), and prices (EventPrices1795849311301).
    expect((await columns()).length).toBe(21);
    expect(await tableExists('tickets')).toBe(true);
  }, 180_000);
});

describe('upgrading in place a MySQL database that holds events from before the date index', () => {
  const database = useTestDatabase('mysql');
  beforeAll(() => {
    // TypeORM logs every query and migration through Nest's logger.
    for (const level of ['log', 'debug', 'verbose'] as const) {
      vi.spyOn(Logger.prototype, level).mockImplementation(() => undefined);
    }
  });
  afterAll(() => {
    vi.restoreAllMocks();
  });

  it('backfills every event: its distinct ISO dates, its earliest one (or ~), version 1', async () => {
    const config = { type: 'mysql' as const, ...mysqlTarget(database.url) };
    const options = buildDataSourceOptions(config, false, DEFAULT_POOL, MIGRATIONS);
    const old = new DataSource({ ...options, migrations: [MIGRATIONS.mysql[0]], migrationsRun: true });
    await old.initialize();
    const insert = 'INSERT INTO special_events VALUES (?, ?, ?, ?, ?, ?)';
    await old.query(insert, [
      'b0000000-0000-4000-8000-000000000000',
      'B',
      'L',
      'D',
      '["2026-12-03","free","2026-12-01T10:00Z","2026-12-03"]',
      1,
    ]);
    await old.query(insert, ['a0000000-0000-4000-8000-000000000000', 'A', 'L', 'D', '["every Sunday"]', 2]);
    await old.destroy();
    const upgraded = new DataSource({ ...options, migrationsRun: true });
    await upgraded.initialize();
    try {
      const events = (await upgraded.query(
        'SELECT event_id, sort_date, version FROM special_events ORDER BY event_id',
      )) as Json[];
      expect(events.map((row) => ({ ...row, version: Number(row.version) }))).toEqual([
        { event_id: 'a0000000-0000-4000-8000-000000000000', sort_date: '~', version: 1 },
        { event_id: 'b0000000-0000-4000-8000-000000000000', sort_date: '2026-12-01', version: 1 },
      ]);
      await expect(
        upgraded.query('SELECT event_date, event_id FROM special_event_dates ORDER BY event_date'),
      ).resolves.toEqual([
        { event_date: '2026-12-01', event_id: 'b0000000-0000-4000-8000-000000000000' },
        { event_date: '2026-12-03', event_id: 'b0000000-0000-4000-8000-000000000000' },
      ]);
    } finally {
      await upgraded.destroy();
    }
  }, 90_000);
});

type Json = Record<string, unknown>;

/** How many migrations `name` and those after it are: the reverts that undo it. */
function migrationsFrom(name: string): number {
  const at = MIGRATIONS.mysql.findIndex((migration) => migration.name === name);
  expect(at).toBeGreaterThan(0);
  return MIGRATIONS.mysql.length - at;
}

function mysqlTarget(url: string) {
  const parsed = new URL(url);
  return {
    host: parsed.hostname,
    port: Number(parsed.port || 3306),
    username: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    database: parsed.pathname.slice(1),
  };
}
