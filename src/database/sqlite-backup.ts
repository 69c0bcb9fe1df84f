import Database from 'better-sqlite3';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { SQLITE_BUSY_TIMEOUT_MS } from './sqlite-availability.js';

/** What a backup copied. */
export interface SqliteBackupResult {
  /** Pages in the copy (the database's size over its page size). */
  readonly pages: number;
}

/**
 * Copies the live SQLite database at `source` into a new file `destination` through SQLite's
 * online backup API, on a connection of its own. A plain copy of the file is not a backup: in WAL
 * mode the latest commits are in `<file>-wal` until a checkpoint moves them, and a copy taken
 * while the service writes may be torn. The backup reads one snapshot (every commit made before it
 * began, WAL included) and copies every page in one step, so writes made meanwhile neither tear it
 * nor restart it. The copy is written beside `destination` and renamed into place when it is
 * whole and passes SQLite's integrity check, so a failed backup leaves no file that looks good.
 */
export async function backupSqlite(source: string, destination: string): Promise<SqliteBackupResult> {
  if (existsSync(destination)) throw new Error(`${destination} exists: a backup never overwrites a file`);
  const partial = `${destination}.partial`;
  rmSync(partial, { force: true });
  const db = new Database(source, { fileMustExist: true, timeout: SQLITE_BUSY_TIMEOUT_MS });
  try {
    // All remaining pages in the next step: one read transaction, one snapshot.
    const { totalPages } = await db.backup(partial, { progress: () => 0x7fffffff });
    const copy = new Database(partial, { fileMustExist: true });
    try {
      const integrity: unknown = copy.pragma('integrity_check', { simple: true });
      if (integrity !== 'ok') throw new Error(`the copy fails SQLite's integrity check: ${String(integrity)}`);
      // One file: the copy's own WAL (if any) is folded in, so the backup is the file alone.
      copy.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      copy.close();
    }
    rmSync(`${partial}-wal`, { force: true });
    rmSync(`${partial}-shm`, { force: true });
    renameSync(partial, destination);
    return { pages: totalPages };
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    db.close();
  }
}
