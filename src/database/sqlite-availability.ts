import type Database from 'better-sqlite3';

/**
 * How long a write waits for another process's lock (the users CLI, a backup) before SQLITE_BUSY.
 * better-sqlite3 is synchronous: the wait blocks the event loop, so it must be short. Writers of
 * this service hold the lock for a few milliseconds.
 */
export const SQLITE_BUSY_TIMEOUT_MS = 1000;

/** After a write finds the database unavailable, further writes fail at once for this long. */
export const SQLITE_FAIL_FAST_MS = 1000;

/** Error codes that mean "the database cannot be written now", not "this write is wrong". */
const UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|READONLY)/;

/**
 * Makes writes fail fast while the database is unavailable. Without this, every request waiting
 * behind a lock held by another process would block the event loop for the whole busy timeout in
 * turn (50 queued writes: 50 s during which nothing else, not even /health/live, is answered).
 * After one write meets SQLITE_BUSY (or I/O, disk-full, read-only errors), writes in the next
 * SQLITE_FAIL_FAST_MS throw the same kind of error immediately (answered 503); then one is tried
 * again. Reads are untouched: in WAL mode they never wait for a writer.
 */
export function failFastWhenUnavailable(db: Database.Database, now: () => number = Date.now): void {
  let unavailableUntil = 0;
  let lastError: Error | undefined;
  const prepare = db.prepare.bind(db) as (source: string) => Database.Statement;
  db.prepare = ((source: string) => {
    const statement = prepare(source);
    if (statement.reader) return statement;
    const run = statement.run.bind(statement) as (...parameters: unknown[]) => Database.RunResult;
    statement.run = ((...parameters: unknown[]) => {
      if (lastError && now() < unavailableUntil) throw lastError;
      try {
        return run(...parameters);
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (typeof code === 'string' && UNAVAILABLE.test(code)) {
          unavailableUntil = now() + SQLITE_FAIL_FAST_MS;
          lastError = error as Error;
        }
        throw error;
      }
    }) as Database.Statement['run'];
    return statement;
  }) as Database.Database['prepare'];
}

/**
 * Throws unless this connection could take the write lock right now. Readiness on SQLite must
 * check writing: in WAL mode `SELECT 1` succeeds while another process holds the write lock.
 * Synchronous from start to end, so no other query of this connection can run in between.
 */
export function assertSqliteWritable(db: Database.Database): void {
  db.pragma('busy_timeout = 0');
  try {
    db.exec('BEGIN IMMEDIATE');
    db.exec('ROLLBACK');
  } finally {
    db.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  }
}
