import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { SharedWindowCounts } from './public-read-hits.js';
import { type HitCounts, SqliteHitCounts } from './public-read-hits.repository.js';

/** What the table does, in a Map: the count of each window and address. */
class MapCounts implements HitCounts {
  readonly rows = new Map<string, number>();
  failing = false;
  add(windowStart: number, address: string): Promise<number> {
    if (this.failing) return Promise.reject(new Error('down'));
    const key = `${windowStart} ${address}`;
    const hits = (this.rows.get(key) ?? 0) + 1;
    this.rows.set(key, hits);
    return Promise.resolve(hits);
  }
  dropBefore(windowStart: number): Promise<void> {
    for (const key of this.rows.keys()) if (Number(key.split(' ')[0]) < windowStart) this.rows.delete(key);
    return Promise.resolve();
  }
  close(): void {}
}

function sqliteDataSource(db: Database.Database): DataSource {
  return { options: { type: 'better-sqlite3' }, driver: { databaseConnection: db } } as unknown as DataSource;
}

const CREATE =
  'CREATE TABLE public_read_hits (window_start integer NOT NULL, address varchar(64) NOT NULL, ' +
  'hits integer NOT NULL, PRIMARY KEY (window_start, address)) WITHOUT ROWID';

describe('SharedWindowCounts', () => {
  it('blocks past the limit until the window on the clock ends, saying how many seconds are left', async () => {
    let now = 120_000;
    const counts = new SharedWindowCounts(new MapCounts(), () => now);
    for (let hit = 1; hit <= 3; hit++) {
      expect(await counts.increment('a', 60_000, 3)).toEqual({
        totalHits: hit,
        timeToExpire: 60,
        isBlocked: false,
        timeToBlockExpire: 0,
      });
    }
    now += 20_500;
    expect(await counts.increment('a', 60_000, 3)).toMatchObject({ isBlocked: true, timeToBlockExpire: 40 });
    // Another address has its own count.
    expect(await counts.increment('b', 60_000, 3)).toMatchObject({ totalHits: 1, isBlocked: false });
    now += 39_500;
    expect(await counts.increment('a', 60_000, 3)).toMatchObject({ totalHits: 1, isBlocked: false });
    counts.close();
  });

  it('lets a read through when the count cannot be made', async () => {
    const hits = new MapCounts();
    hits.failing = true;
    const counts = new SharedWindowCounts(hits, () => 0);
    expect(await counts.increment('a', 60_000, 1)).toMatchObject({ isBlocked: false });
    counts.close();
  });
});

describe('SqliteHitCounts', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hits-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('counts in the database, so two connections to one file share the count', async () => {
    const file = join(dir, 'db.sqlite');
    const first = new Database(file);
    first.pragma('journal_mode = WAL');
    first.exec(CREATE);
    const second = new Database(file);
    const a = new SqliteHitCounts(sqliteDataSource(first));
    const b = new SqliteHitCounts(sqliteDataSource(second));
    expect(await a.add(60_000, '192.0.2.1')).toBe(1);
    expect(await b.add(60_000, '192.0.2.1')).toBe(2);
    expect(await a.add(60_000, '192.0.2.1')).toBe(3);
    expect(await b.add(60_000, '192.0.2.2')).toBe(1);
    expect(await a.add(120_000, '192.0.2.1')).toBe(1);
    await b.dropBefore(120_000);
    expect(first.prepare('SELECT window_start, address, hits FROM public_read_hits').all()).toEqual([
      { window_start: 120_000, address: '192.0.2.1', hits: 1 },
    ]);
    a.close();
    b.close();
    first.close();
    second.close();
  });

  it('counts the reads of one turn in one transaction, each its own count, and waits out a lock on a later turn', async () => {
    const file = join(dir, 'db.sqlite');
    const other = new Database(file);
    other.pragma('journal_mode = WAL');
    other.exec(CREATE);
    const main = new Database(file);
    const counts = new SqliteHitCounts(sqliteDataSource(main));
    expect(await Promise.all([1, 2, 3, 4].map(() => counts.add(0, 'a')))).toEqual([1, 2, 3, 4]);
    // Another process holds the write lock: the event loop is not blocked, and the count is made after.
    other.exec('BEGIN IMMEDIATE');
    const counted = counts.add(0, 'a');
    await new Promise((resolve) => setTimeout(resolve, 10));
    other.exec('COMMIT');
    expect(await counted).toBe(5);
    counts.close();
    main.close();
    other.close();
  });

  it('never joins a transaction left open on an in-memory connection, and counts once it ends', async () => {
    const db = new Database(':memory:');
    db.exec(CREATE);
    const counts = new SqliteHitCounts(sqliteDataSource(db));
    db.exec('BEGIN');
    const counted = counts.add(0, 'a');
    await new Promise((resolve) => setTimeout(resolve, 5));
    db.exec('ROLLBACK');
    expect(await counted).toBe(1);
    expect(db.prepare('SELECT hits FROM public_read_hits').get()).toEqual({ hits: 1 });
  });
});
