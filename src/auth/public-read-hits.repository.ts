import { isRolledBack } from '../database/database-errors.js';
import type { Sql } from '../database/sql.js';
import type { ChannelStatement, UnflushedChannel } from '../database/unflushed-channel.js';

/**
 * The public reads' rate count, the one place with its SQL (auth's users have theirs in
 * users.repository.ts). Its writes do not go through Sql's durable path on purpose: a count
 * needs no fsync (SQLite: a second connection with synchronous=NORMAL) and MySQL's count is read
 * back with LAST_INSERT_ID from the same statement: both through Sql's channels for them.
 *
 * Where the anonymous reads are counted: the `public_read_hits` table, one row per window and
 * client address. `add` counts n reads with one atomic statement and returns the window's count
 * after them, as the database decided it; `dropBefore` forgets the windows that started earlier.
 */
export interface HitCounts {
  /** Counts `n` reads of the address in the window; resolves with the window's count after them. */
  add(windowStart: number, address: string, n: number): Promise<number>;
  dropBefore(windowStart: number): Promise<void>;
  close(): void;
}

const DROP_SQL = 'DELETE FROM public_read_hits WHERE window_start < ?';

interface PendingHit {
  readonly windowStart: number;
  readonly address: string;
  readonly n: number;
  readonly resolve: (hits: number) => void;
  readonly reject: (error: unknown) => void;
}

/** How many turns a batch of counts waits for a write lock (or an open transaction) before it fails. */
const SQLITE_LOCK_ATTEMPTS = 50;

/**
 * SQLite: the count needs no flush to disk (a count lost in a power cut lets a few more reads in),
 * and the service's own connection commits with synchronous=FULL, one fsync per commit (1.8 ms
 * here, against 0.06 ms for this statement without it). So the counts have a connection of their
 * own to the same file, synchronous=NORMAL (in WAL mode: consistent after a crash, only the last
 * commits may be lost), whose commits never wait for the disk. The reads counted in one turn of
 * the event loop share one transaction (0.02 ms a count here, against 0.06 ms alone), each still
 * one upsert whose count the database returns. It never waits for a lock (busy_timeout 0:
 * better-sqlite3 would block the event loop while waiting): a write lock held by another process,
 * or an open transaction, is tried again on a later turn. An in-memory database has no file to
 * share and nothing to flush: its counts go through the service's connection.
 */
export class SqliteHitCounts implements HitCounts {
  private prepared?: { upsert: ChannelStatement; begin: ChannelStatement; commit: ChannelStatement };
  private queue: PendingHit[] = [];
  private scheduled = false;
  private attempts = 0;

  constructor(private readonly channel: UnflushedChannel) {}

  add(windowStart: number, address: string, n: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.queue.push({ windowStart, address, n, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.flush);
      }
    });
  }

  async dropBefore(windowStart: number): Promise<void> {
    if (this.statements() === undefined) return;
    this.channel.prepare(DROP_SQL).run(windowStart);
    return Promise.resolve();
  }

  close(): void {
    this.channel.close();
  }

  private readonly flush = (): void => {
    let statements: ReturnType<SqliteHitCounts['statements']>;
    try {
      statements = this.statements();
      if (statements !== undefined) statements.begin.run();
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY') return this.fail(error);
      statements = undefined;
    }
    if (statements === undefined) {
      if (++this.attempts >= SQLITE_LOCK_ATTEMPTS) return this.fail(new Error('SQLite stayed locked'));
      setTimeout(this.flush, 1);
      return;
    }
    this.attempts = 0;
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    const counts: number[] = [];
    try {
      for (const { windowStart, address, n } of batch) {
        counts.push((statements.upsert.get(windowStart, address, n, n) as { hits: number }).hits);
      }
      statements.commit.run();
    } catch (error) {
      this.channel.rollbackOpenTransaction();
      for (const pending of batch) pending.reject(error);
      return;
    }
    batch.forEach((pending, index) => pending.resolve(counts[index]));
  };

  private fail(error: unknown): void {
    this.attempts = 0;
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    for (const pending of batch) pending.reject(error);
  }

  /** The prepared statements, or undefined while the service's connection is inside a transaction. */
  private statements(): SqliteHitCounts['prepared'] {
    if (this.prepared === undefined) {
      this.prepared = {
        upsert: this.channel.prepare(
          'INSERT INTO public_read_hits (window_start, address, hits) VALUES (?, ?, ?) ' +
            'ON CONFLICT (window_start, address) DO UPDATE SET hits = hits + ? RETURNING hits',
        ),
        begin: this.channel.prepare('BEGIN IMMEDIATE'),
        commit: this.channel.prepare('COMMIT'),
      };
    }
    // On the shared connection, a statement inside someone's open transaction would join it.
    if (this.channel.wouldJoinOpenTransaction) return undefined;
    return this.prepared;
  }
}

/**
 * MySQL, MariaDB, Galera: `LAST_INSERT_ID(hits + n)` hands the row's new count back in the
 * statement's own answer (mysql2's `insertId`), so one round trip both counts and reads the count.
 * The adds of one address that arrive in the same turn of the event loop are counted by one
 * statement (`+ n`, their sum; each gets its own count within it): a flood from one address costs a
 * statement per turn, not per read, and different addresses are counted at once on the pool. A
 * first read of a window inserts its row (affectedRows 1: the count is n). Two Galera nodes
 * counting the same address at once conflict on its row (1213): the statement runs again, twice
 * at most. There is no row that every address writes.
 */
export class MysqlHitCounts implements HitCounts {
  private pending = new Map<string, PendingHit[]>();
  private scheduled = false;

  constructor(private readonly sql: Sql) {}

  add(windowStart: number, address: string, n: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const key = `${windowStart} ${address}`;
      const hits = this.pending.get(key);
      if (hits === undefined) this.pending.set(key, [{ windowStart, address, n, resolve, reject }]);
      else hits.push({ windowStart, address, n, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.flush);
      }
    });
  }

  async dropBefore(windowStart: number): Promise<void> {
    // In slices, so that no transaction (no Galera write set) holds a whole flood's rows.
    while ((await this.sql.execute(`${DROP_SQL} LIMIT 5000`, [windowStart])) === 5000);
  }

  close(): void {}

  private readonly flush = (): void => {
    this.scheduled = false;
    const batches = this.pending;
    this.pending = new Map();
    for (const hits of batches.values()) {
      const n = hits.reduce((sum, hit) => sum + hit.n, 0);
      this.count(hits[0].windowStart, hits[0].address, n).then(
        (total) => {
          // Each add's count after its own n, in the order they came.
          let before = total - n;
          for (const hit of hits) hit.resolve((before += hit.n));
        },
        (error: unknown) => hits.forEach((hit) => hit.reject(error)),
      );
    }
  };

  /** Adds n reads to the address's window; resolves with its count after them. */
  private async count(windowStart: number, address: string, n: number): Promise<number> {
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await this.sql.writeReturningInsertId(
          'INSERT INTO public_read_hits (window_start, address, hits) VALUES (?, ?, ?) ' +
            'ON DUPLICATE KEY UPDATE hits = LAST_INSERT_ID(hits + ?)',
          [windowStart, address, n, n],
        );
        return result.affectedRows === 1 ? n : Number(result.insertId);
      } catch (error) {
        if (!isRolledBack(error) || attempt >= 3) throw error;
      }
    }
  }
}

export function hitCountsFor(sql: Sql): HitCounts {
  return sql.isMysql ? new MysqlHitCounts(sql) : new SqliteHitCounts(sql.unflushedChannel());
}
