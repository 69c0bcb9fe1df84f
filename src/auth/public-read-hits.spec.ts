import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { COUNT_WAIT_MS, SharedWindowCounts } from './public-read-hits.js';
import { UnflushedChannel } from '../database/unflushed-channel.js';
import { type HitCounts, SqliteHitCounts } from './public-read-hits.repository.js';

/** What the table does, in a Map: the count of each window and address. */
class MapCounts implements HitCounts {
  readonly rows = new Map<string, number>();
  /** Each add's n, in order: one statement each in the database. */
  readonly statements: number[] = [];
  failing = false;
  add(windowStart: number, address: string, n: number): Promise<number> {
    if (this.failing) return Promise.reject(new Error('down'));
    this.statements.push(n);
    const key = `${windowStart} ${address}`;
    const hits = (this.rows.get(key) ?? 0) + n;
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

  it('hands out leases that double up to limit/16: a flood costs a statement per lease, and exactly the limit gets in', async () => {
    const hits = new MapCounts();
    const counts = new SharedWindowCounts(hits, () => 0);
    const results = [];
    for (let read = 0; read < 2000; read++) results.push(await counts.increment('a', 60_000, 1600));
    expect(results.map((result) => result.totalHits).slice(0, 1600)).toEqual(
      Array.from({ length: 1600 }, (_, i) => i + 1),
    );
    expect(results.filter((result) => !result.isBlocked)).toHaveLength(1600);
    expect(results.slice(1600).every((result) => result.isBlocked)).toBe(true);
    // 1, 2, 4 … 64, then leases of 100 (1600 / 16) to the limit; none for the 400 refused after it.
    expect(hits.statements.slice(0, 8)).toEqual([1, 2, 4, 8, 16, 32, 64, 100]);
    expect(hits.statements.every((n) => n <= 100)).toBe(true);
    expect(hits.statements.reduce((sum, n) => sum + n, 0)).toBe(hits.rows.get('0 a'));
    expect(hits.statements).toHaveLength(7 + Math.ceil((1601 - 127) / 100));
    counts.close();
  });

  it('gives the reads of one turn distinct positions, so exactly the limit gets in', async () => {
    const counts = new SharedWindowCounts(new MapCounts(), () => 0);
    const results = await Promise.all(Array.from({ length: 50 }, () => counts.increment('a', 60_000, 30)));
    expect(new Set(results.map((result) => result.totalHits)).size).toBe(50);
    expect(results.filter((result) => !result.isBlocked)).toHaveLength(30);
    counts.close();
  });

  it('lets two instances on one count in never past the limit, and at most a lease each short of it', async () => {
    const admittedBy = async (instanceOf: (read: number) => number): Promise<number> => {
      const hits = new MapCounts();
      const instances = [new SharedWindowCounts(hits, () => 0), new SharedWindowCounts(hits, () => 0)];
      let admitted = 0;
      for (let read = 0; read < 1000; read++) {
        if (!(await instances[instanceOf(read)].increment('a', 60_000, 800)).isBlocked) admitted++;
      }
      for (const instance of instances) instance.close();
      return admitted;
    };
    // Bursts of 37 at one instance, then at the other: each comes back to the rest of its lease.
    expect(await admittedBy((read) => Math.floor(read / 37) % 2)).toBe(800);
    // 100 reads at one, then none there: 1 + 2 + … + 32 + 50 = 113 positions taken, 13 never handed out.
    expect(await admittedBy((read) => (read < 100 ? 0 : 1))).toBe(800 - 13);
  });

  it('lets a read through once COUNT_WAIT_MS pass while the database does not answer, and counts when it does', async () => {
    vi.useFakeTimers();
    try {
      const hits = new MapCounts();
      let answer: (() => void) | undefined;
      const hanging: HitCounts = {
        add: (windowStart, address, n) =>
          new Promise((resolve) => {
            answer = () => resolve(hits.add(windowStart, address, n));
          }),
        dropBefore: () => Promise.resolve(),
        close: () => {},
      };
      const counts = new SharedWindowCounts(hanging, () => 0);
      const reads = [counts.increment('a', 60_000, 5), counts.increment('a', 60_000, 5)];
      await vi.advanceTimersByTimeAsync(COUNT_WAIT_MS - 1);
      let settled = false;
      void Promise.all(reads).then(() => (settled = true));
      await vi.advanceTimersByTimeAsync(0);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await Promise.all(reads)).toMatchObject([
        { totalHits: 0, isBlocked: false },
        { totalHits: 0, isBlocked: false },
      ]);
      // The database answers at last: the lease lands, and the next read is counted after it.
      answer?.();
      await vi.advanceTimersByTimeAsync(0);
      expect(hits.rows.get('0 a')).toBeGreaterThan(0);
      counts.close();
    } finally {
      vi.useRealTimers();
    }
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
    const a = new SqliteHitCounts(new UnflushedChannel(sqliteDataSource(first)));
    const b = new SqliteHitCounts(new UnflushedChannel(sqliteDataSource(second)));
    expect(await a.add(60_000, '192.0.2.1', 1)).toBe(1);
    expect(await b.add(60_000, '192.0.2.1', 1)).toBe(2);
    expect(await a.add(60_000, '192.0.2.1', 4)).toBe(6);
    expect(await b.add(60_000, '192.0.2.2', 2)).toBe(2);
    expect(await a.add(120_000, '192.0.2.1', 1)).toBe(1);
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
    const counts = new SqliteHitCounts(new UnflushedChannel(sqliteDataSource(main)));
    expect(await Promise.all([1, 2, 3, 4].map((n) => counts.add(0, 'a', n)))).toEqual([1, 3, 6, 10]);
    // Another process holds the write lock: the event loop is not blocked, and the count is made after.
    other.exec('BEGIN IMMEDIATE');
    const counted = counts.add(0, 'a', 1);
    await new Promise((resolve) => setTimeout(resolve, 10));
    other.exec('COMMIT');
    expect(await counted).toBe(11);
    counts.close();
    main.close();
    other.close();
  });

  it('never joins a transaction left open on an in-memory connection, and counts once it ends', async () => {
    const db = new Database(':memory:');
    db.exec(CREATE);
    const counts = new SqliteHitCounts(new UnflushedChannel(sqliteDataSource(db)));
    db.exec('BEGIN');
    const counted = counts.add(0, 'a', 1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    db.exec('ROLLBACK');
    expect(await counted).toBe(1);
    expect(db.prepare('SELECT hits FROM public_read_hits').get()).toEqual({ hits: 1 });
  });
});
