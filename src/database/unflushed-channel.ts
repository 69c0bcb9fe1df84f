import Database from 'better-sqlite3';
import type { DataSource } from 'typeorm';
import { sqliteConnectionOf } from './driver-handles.js';

/** A statement prepared on a channel: run synchronously, as better-sqlite3 runs them. */
export interface ChannelStatement {
  run(...parameters: unknown[]): unknown;
  get(...parameters: unknown[]): unknown;
}

/**
 * SQLite: the facade's named channel for writes that need no flush to disk (the public reads'
 * rate counts), beside Sql's durable path. The service's own connection commits with
 * synchronous=FULL, one fsync per commit; this channel is a second connection to the same file,
 * in WAL mode with synchronous=NORMAL (consistent after a crash, only its last commits may be
 * lost), whose commits never wait for the disk. It never waits for a lock either (busy_timeout 0:
 * better-sqlite3 would block the event loop while waiting): SQLITE_BUSY reaches the caller, which
 * tries again later. An in-memory database has no file to share and nothing to flush: there the
 * channel is the service's own connection, and `wouldJoinOpenTransaction` says when a statement
 * would join someone's open transaction on it.
 */
export class UnflushedChannel {
  private own?: Database.Database;

  constructor(private readonly dataSource: DataSource) {}

  /** Prepares `source` on the channel's connection, opening it on first use. */
  prepare(source: string): ChannelStatement {
    return this.connection().prepare(source);
  }

  /**
   * Whether a statement run now would join a transaction someone else opened: only when the
   * channel is the service's own connection (in memory) and that is inside a transaction.
   */
  get wouldJoinOpenTransaction(): boolean {
    const main = this.main();
    return this.own === undefined && main.memory && main.inTransaction;
  }

  /** Rolls back the channel's open transaction, if one is open. */
  rollbackOpenTransaction(): void {
    const db = this.own ?? sqliteConnectionOf(this.dataSource);
    if (db?.inTransaction) db.exec('ROLLBACK');
  }

  close(): void {
    this.own?.close();
    this.own = undefined;
  }

  private main(): Database.Database {
    const main = sqliteConnectionOf(this.dataSource);
    if (main === undefined) throw new Error('The SQLite connection is not open');
    return main;
  }

  private connection(): Database.Database {
    if (this.own !== undefined) return this.own;
    const main = this.main();
    if (main.memory) return main;
    this.own = new Database(main.name, { timeout: 0 });
    this.own.pragma('journal_mode = WAL');
    this.own.pragma('synchronous = NORMAL');
    return this.own;
  }
}
