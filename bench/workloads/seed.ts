/**
 * Writes special events straight into a migrated database (SQLite through better-sqlite3, MySQL
 * through mysql2), without HTTP, with their rows of the date index as the store writes them: the
 * 1M-event table, the read set of the read workloads and the ids the delete workload removes.
 *
 * Alone: `tsx bench/workloads/seed.ts <DATABASE_URL> <count>`, e.g. `tsx bench/workloads/seed.ts sqlite:data/museum.sqlite 100000`.
 * The database must have been migrated (start the service on it once). On SQLite, seed while the
 * service is idle: it fails its writes for 1 s after meeting the seeder's lock.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { createConnection, type Connection } from 'mysql2/promise';
import { v7 as uuidv7 } from 'uuid';
import { indexedDates, sortDateOf } from '../../src/domain/calendar-dates.js';

export interface SeedOptions {
  /** Return the generated event ids (the delete workload needs them; 1M events do not). */
  readonly keepIds?: boolean;
  /** Called after every committed batch with the number of rows written so far. */
  readonly onProgress?: (written: number) => void;
  /** The row of each event (default eventRow: text varied by index). */
  readonly row?: (eventId: string, index: number) => EventRow;
}

export interface SeedResult {
  readonly count: number;
  readonly ms: number;
  /** Empty unless `keepIds`. */
  readonly ids: readonly string[];
}

export type EventRow = [
  eventId: string,
  name: string,
  location: string,
  description: string,
  dates: string,
  price: number,
];

const SQLITE_BATCH = 10_000;
const MYSQL_BATCH = 1000;
const DELETE_CHUNK = 500;
const COLUMNS = 'event_id, name, location, event_description, dates, price, sort_date';

/**
 * What the store writes for an event beside its row (issue 16): the earliest ISO date (the list
 * order key) and one row of special_event_dates per distinct ISO date, in the same transaction.
 */
function withIndex(row: EventRow): { values: unknown[]; dates: [string, string][] } {
  const dates = indexedDates(JSON.parse(row[4]) as string[]);
  return { values: [...row, sortDateOf(dates)], dates: dates.map((date): [string, string] => [date, row[0]]) };
}

/** A plausible event; `index` varies its text so that rows are not all identical. */
export function eventRow(eventId: string, index: number): EventRow {
  const day = 1 + (index % 28);
  const month = 1 + (index % 12);
  const date = (d: number): string => `2026-${String(month).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  return [
    eventId,
    `Seeded evening lecture #${index}`,
    `East Wing, Gallery ${index % 40}`,
    `A guided walk through the restored tapestries of the north galleries, with the curator answering questions; event ${index}, seats are limited.`,
    JSON.stringify([date(day), date(Math.min(day + 1, 28))]),
    (index % 5000) / 100,
  ];
}

/** Inserts `count` events with fresh UUIDv7 ids. */
export async function seedEvents(databaseUrl: string, count: number, options: SeedOptions = {}): Promise<SeedResult> {
  const started = performance.now();
  const ids = await onDatabase(
    databaseUrl,
    (db) => seedSqlite(db, count, options),
    (connection) => seedMysql(connection, count, options),
  );
  return { count, ms: performance.now() - started, ids };
}

/** Deletes the given events (the ids a delete workload did not use), in chunks. */
export async function deleteEvents(databaseUrl: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const chunks = Array.from({ length: Math.ceil(ids.length / DELETE_CHUNK) }, (_, index) =>
    ids.slice(index * DELETE_CHUNK, (index + 1) * DELETE_CHUNK),
  );
  await onDatabase(
    databaseUrl,
    (db) =>
      db.transaction(() => {
        for (const chunk of chunks) {
          const list = chunk.map(() => '?').join(',');
          db.prepare(`DELETE FROM special_events WHERE event_id IN (${list})`).run(...chunk);
          db.prepare(`DELETE FROM special_event_dates WHERE event_id IN (${list})`).run(...chunk);
        }
      })(),
    async (connection) => {
      for (const chunk of chunks) {
        await connection.query('DELETE FROM special_events WHERE event_id IN (?)', [chunk]);
        await connection.query('DELETE FROM special_event_dates WHERE event_id IN (?)', [chunk]);
      }
    },
  );
}

/** Rows in special_events. */
export function countEvents(databaseUrl: string): Promise<number> {
  const sql = 'SELECT COUNT(*) AS n FROM special_events';
  return onDatabase(
    databaseUrl,
    (db) => (db.prepare(sql).get() as { n: number }).n,
    async (connection) => Number(((await connection.query(sql))[0] as Array<{ n: number | string }>)[0]?.n ?? 0),
  );
}

/**
 * On DATABASE_URL `sqlite:PATH`, `sqlite` on a connection to the file (read-only when asked); on
 * `mysql://user:pass@host:port/db`, `mysql` on a connection to the database; closed after.
 */
export async function onDatabase<T>(
  databaseUrl: string,
  sqlite: (db: Database.Database) => T | Promise<T>,
  mysql: (connection: Connection) => Promise<T>,
  readonly = false,
): Promise<T> {
  if (databaseUrl.startsWith('mysql://')) {
    const connection = await createConnection({ uri: databaseUrl, connectTimeout: 5000 });
    try {
      return await mysql(connection);
    } finally {
      await connection.end();
    }
  }
  const path = databaseUrl.startsWith('sqlite:') ? databaseUrl.slice('sqlite:'.length) : '';
  if (path === '') throw new Error(`not a sqlite:PATH or mysql:// URL: ${databaseUrl}`);
  const db = readonly ? new Database(path, { readonly, fileMustExist: true }) : openSqlite(path);
  try {
    return await sqlite(db);
  } finally {
    db.close();
  }
}

/** An onProgress that writes `<prefix><written> / <count>` every 100,000 rows and at the end. */
export function progressEvery100k(count: number, prefix: string): (written: number) => void {
  let shown = 0;
  return (written) => {
    if (written - shown >= 100_000 || written === count) {
      shown = written;
      process.stderr.write(`  ${prefix}${written} / ${count}\n`);
    }
  };
}

function openSqlite(path: string): Database.Database {
  const db = new Database(path, { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  // The seeding connection only: a crash while seeding loses a benchmark table, nothing else.
  db.pragma('synchronous = OFF');
  return db;
}

function seedSqlite(db: Database.Database, count: number, options: SeedOptions): string[] {
  const ids: string[] = [];
  const insert = db.prepare(`INSERT INTO special_events (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const insertDate = db.prepare('INSERT INTO special_event_dates (event_date, event_id) VALUES (?, ?)');
  const batch = db.transaction((from: number, to: number) => {
    for (let index = from; index < to; index++) {
      const id = uuidv7();
      const { values, dates } = withIndex((options.row ?? eventRow)(id, index));
      insert.run(...values);
      for (const date of dates) insertDate.run(...date);
      if (options.keepIds) ids.push(id);
    }
  });
  for (let from = 0; from < count; from += SQLITE_BATCH) {
    const to = Math.min(count, from + SQLITE_BATCH);
    batch(from, to);
    options.onProgress?.(to);
  }
  return ids;
}

async function seedMysql(connection: Connection, count: number, options: SeedOptions): Promise<string[]> {
  const ids: string[] = [];
  for (let from = 0; from < count; from += MYSQL_BATCH) {
    const to = Math.min(count, from + MYSQL_BATCH);
    const rows: EventRow[] = [];
    for (let index = from; index < to; index++) rows.push((options.row ?? eventRow)(uuidv7(), index));
    const indexed = rows.map(withIndex);
    const dates = indexed.flatMap((event) => event.dates);
    await connection.beginTransaction();
    try {
      await connection.query(`INSERT INTO special_events (${COLUMNS}) VALUES ?`, [indexed.map((e) => e.values)]);
      if (dates.length > 0)
        await connection.query('INSERT INTO special_event_dates (event_date, event_id) VALUES ?', [dates]);
      await connection.commit();
    } catch (error) {
      await connection.rollback();
      throw error;
    }
    if (options.keepIds) for (const row of rows) ids.push(row[0]);
    options.onProgress?.(to);
  }
  return ids;
}

async function main(args: readonly string[]): Promise<void> {
  const [url, countText] = args;
  const count = Number(countText);
  if (url === undefined || !Number.isInteger(count) || count < 0) {
    process.stderr.write('usage: tsx bench/workloads/seed.ts <DATABASE_URL> <count>\n');
    process.exitCode = 2;
    return;
  }
  const result = await seedEvents(url, count, { onProgress: progressEvery100k(count, '') });
  const total = await countEvents(url);
  process.stdout.write(
    `Seeded ${result.count} events in ${(result.ms / 1000).toFixed(1)} s; special_events now holds ${total} rows.\n`,
  );
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await main(process.argv.slice(2));
}
