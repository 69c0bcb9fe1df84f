import type Database from 'better-sqlite3';
import type { DataSource, QueryRunner } from 'typeorm';
import {
  allOrNoneWrites,
  type BatchedWrite,
  eachOrNoneWrites,
  type GuardedBatchedWrite,
  type Together,
} from './batched-writes.js';
import { isRefusedByServer, isRolledBack } from './database-errors.js';
import { type GuardedOutcome, refused, refusedAsOutcome } from './guarded-outcome.js';
import { DEFAULT_POOL } from './database-options.js';
import { sqliteConnectionOf } from './driver-handles.js';
import { readBinary } from './mysql-binary-reads.js';
import { afterDatabaseWait } from './request-deadline.js';
import { assertSqliteWritable } from './sqlite-availability.js';
import { SqliteGroupCommit } from './sqlite-group-commit.js';
import { UnflushedChannel } from './unflushed-channel.js';
import type { WriteHealth } from './write-health.js';
import type { WriteSlots } from './write-slots.js';

/** One statement with `?` placeholders. */
export interface SqlStatement {
  readonly sql: string;
  readonly parameters: readonly unknown[];
}

/**
 * How long a write that keeps deadlocking or losing Galera certification conflicts is run again.
 * Each loss means another transaction on the same row committed, so the row makes progress; a
 * count of attempts ran out for some buyers of an on-sale moment on two Galera nodes (a 503 while
 * the cluster was healthy), a bound in time does not while the cluster is healthy. Past it the
 * error stands: 503 with Retry-After.
 */
export const CONFLICT_RETRY_MS = 5_000;

/**
 * The pauses between attempts: exponential from 1 ms up to this cap, with full jitter (a random
 * fraction of it), so that the losers of one conflict do not meet again at once.
 */
export const CONFLICT_BACKOFF_CAP_MS = 8;

/** How long readiness waits for the database to answer. */
const READY_TIMEOUT_MS = 2000;

/** What readiness found: the database answers and takes writes, or why not. */
export type Readiness = 'ready' | 'writes-failing' | 'unreachable';

/** How a read is made. */
export interface ReadOptions {
  /** Each row as an array, in the select list's order: no object with named members per row. */
  readonly arrays?: boolean;
  /**
   * MySQL/MariaDB: through the binary protocol (prepared statements), which sends a DOUBLE's 8
   * bytes; the text protocol rounds it to 15 significant digits on MariaDB (readBinary).
   */
  readonly exact?: boolean;
}

/** How a transaction is run. */
export interface TransactionOptions {
  /**
   * MySQL/MariaDB: READ COMMITTED takes no gap locks for rows that do not exist (a delete of a
   * missing id would otherwise hold up concurrent inserts until it ends). SQLite: serializable.
   */
  readonly isolation?: 'READ COMMITTED';
}

/** What Sql needs beyond the connection. */
export interface SqlOptions {
  /**
   * MySQL: how long a batched write's caller waits for its batch (Sql.batched), then 503: as long
   * as waiting for a connection and one query may take.
   */
  readonly batchDeadlineMs?: number;
  /** MySQL: the connections writes may hold at once, fewer than the pool's (WriteSlots); unbounded without. */
  readonly writeSlots?: WriteSlots;
}

/**
 * READ COMMITTED: the transactions of batched writes name rows that may not exist (a delete's
 * ids), and must not take gap locks for them.
 */
const BATCH_ISOLATION = 'READ COMMITTED';

/** The isolation levels a session may be at (MySQL/MariaDB spell them with '-' in variables). */
const ISOLATION_LEVELS = ['READ UNCOMMITTED', 'READ COMMITTED', 'REPEATABLE READ', 'SERIALIZABLE'];

/** A session whose level is not known (a SET that failed): the next user sets it again. */
const UNKNOWN_LEVEL = 'unknown';

/**
 * MySQL: the isolation level of each pooled connection (mysql2's connection object) whose session
 * Sql set to another than the server's default (absent: the default), whichever Sql set it. See
 * Sql's `onConnection`.
 */
const sessionLevels = new WeakMap<object, string>();

/**
 * The one way to the database: plain SQL with `?` placeholders, the same text on SQLite and MySQL,
 * for every module's reads, writes and transactions.
 *
 * - SQLite: statements are prepared once; writes join the connection's group commit (one fsync
 *   shared by the writes of one turn of the event loop, SqliteGroupCommit).
 * - MySQL: through TypeORM's pool; a write rolled back whole by a deadlock, or on Galera by a
 *   certification conflict with a write committed first on another node, is run again after a
 *   jittered pause, for up to CONFLICT_RETRY_MS. Writes a module declares batched (`batched`)
 *   share one statement and one commit per turn of the event loop (BatchedWrites).
 * - Every write reports to WriteHealth, so that a write failed for want of a database, whichever
 *   module made it, makes the service unready (/health/ready).
 */
export class Sql {
  private prepared?: { db: Database.Database; statements: Map<string, Database.Statement> };

  private readonly batchDeadlineMs: number;
  private readonly writeSlots?: WriteSlots;
  /** MySQL: the server's default isolation level, read once when a session goes back to it. */
  private defaultLevel?: Promise<string>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly writeHealth: WriteHealth,
    options: SqlOptions = {},
  ) {
    this.batchDeadlineMs = options.batchDeadlineMs ?? DEFAULT_POOL.acquireTimeoutMs + DEFAULT_POOL.queryTimeoutMs;
    this.writeSlots = options.writeSlots;
  }

  get isMysql(): boolean {
    return this.dataSource.options.type === 'mysql';
  }

  /**
   * SQLite: a new UnflushedChannel, the named channel for writes that need no flush to disk (the
   * public reads' counts): a connection of its own, which its user closes.
   */
  unflushedChannel(): UnflushedChannel {
    if (this.isMysql) throw new Error('the unflushed channel is SQLite only');
    return new UnflushedChannel(this.dataSource);
  }

  /**
   * MySQL: one write as the server answers it, its affected rows and `LAST_INSERT_ID` (a count an
   * upsert hands back in its own answer), outside the durable path: no conflict retries, no
   * WriteHealth report; the caller decides what a failure means.
   */
  async writeReturningInsertId(
    sql: string,
    parameters: readonly unknown[],
  ): Promise<{ readonly affectedRows: number; readonly insertId: number }> {
    if (!this.isMysql) throw new Error('writeReturningInsertId is MySQL only');
    return (await this.dataSource.query(sql, [...parameters])) as { affectedRows: number; insertId: number };
  }

  async select<T>(sql: string, parameters: readonly unknown[] = [], options: ReadOptions = {}): Promise<T[]> {
    const db = this.sqlite();
    if (db === undefined) {
      const rows =
        options.exact || options.arrays
          ? await readBinary(this.dataSource, sql, parameters, options.arrays === true)
          : await this.dataSource.query(sql, [...parameters]);
      // An anonymous read's work after its answer is paced as its start was (TurnBudget.resume).
      const later = afterDatabaseWait();
      if (later !== undefined) await later;
      return rows as T[];
    }
    const statement = this.statement(db, sql);
    if (!options.arrays) return statement.all(...parameters) as T[];
    statement.raw(true);
    try {
      return statement.all(...parameters) as T[];
    } finally {
      statement.raw(false);
    }
  }

  /** Runs one write statement; resolves with the rows it changed, once durable. */
  execute(sql: string, parameters: readonly unknown[] = []): Promise<number> {
    return this.tracked(() => {
      const db = this.sqlite();
      if (db !== undefined) {
        const statement = this.statement(db, sql);
        return SqliteGroupCommit.of(db).writeStatement(() => statement.run(...parameters).changes);
      }
      return this.retryingConflicts(() => this.executeOnce({ sql, parameters }));
    });
  }

  /**
   * Runs the statements in one transaction, all or none; resolves with the rows each changed. On
   * SQLite the unit may run twice (the group commit's retry), so it is only these statements.
   */
  transaction(statements: readonly SqlStatement[], options?: TransactionOptions): Promise<number[]> {
    return this.transactionIf(null, statements, options) as Promise<number[]>;
  }

  /**
   * Runs `guard` and, only when it changed a row, `then`, in one transaction: the database decides
   * (a conditional UPDATE such as "one more ticket while fewer than the capacity are sold"), and
   * what follows from its decision is kept with it or not at all. Resolves with null when the
   * guard changed nothing (nothing else ran), else with the rows each of `then` changed. Several
   * guards (one place taken from two pools) must each change a row, in order; when a later one
   * changes none, the earlier ones are undone with the transaction, and it resolves with null.
   */
  transactionIf(
    guard: SqlStatement | readonly SqlStatement[] | null,
    then: readonly SqlStatement[],
    options: TransactionOptions = {},
  ): Promise<number[] | null> {
    const guards: readonly SqlStatement[] = guard === null ? [] : 'sql' in guard ? [guard] : guard;
    return this.guardedTransaction(guards, then, options).then((result) =>
      'changed' in result ? result.changed : null,
    );
  }

  /**
   * As transactionIf with several guards, saying which guard refused: `refusedBy`, its index,
   * when one changed no row (then nothing of the transaction is kept), else the rows each of
   * `then` changed. A sale of several places from several pools (an order) names the one that
   * ran out.
   */
  guardedTransaction(
    guards: readonly SqlStatement[],
    then: readonly SqlStatement[],
    options: TransactionOptions = {},
  ): Promise<GuardedOutcome> {
    return this.tracked(() => {
      const db = this.sqlite();
      if (db !== undefined) {
        const guarded = guards.map(({ sql, parameters }) => ({ statement: this.statement(db, sql), parameters }));
        const prepared = then.map(({ sql, parameters }) => ({ statement: this.statement(db, sql), parameters }));
        return refusedAsOutcome(
          SqliteGroupCommit.of(db).write((): GuardedOutcome => {
            for (let i = 0; i < guarded.length; i++) {
              if (guarded[i].statement.run(...guarded[i].parameters).changes === 0) return refused(i);
            }
            return { changed: prepared.map(({ statement, parameters }) => statement.run(...parameters).changes) };
          }),
        );
      }
      return refusedAsOutcome(
        this.retryingConflicts(() =>
          this.inTransaction(options, async (runner): Promise<GuardedOutcome> => {
            for (let i = 0; i < guards.length; i++) if ((await changedBy(runner, guards[i])) === 0) return refused(i);
            const changed: number[] = [];
            for (const statement of then) changed.push(await changedBy(runner, statement));
            return { changed };
          }),
        ),
      );
    });
  }

  /**
   * A write that the requests of one turn of the event loop may share (BatchedWrite): returns the
   * function that writes one item, resolving with whether it took effect, once durable. On MySQL
   * the items of a turn go out together (allOrNoneWrites); on SQLite each goes `alone` at once, as
   * the connection's group commit already shares one transaction among them. Every item reports
   * to WriteHealth.
   */
  batched<T>(write: BatchedWrite<T>): (item: T) => Promise<boolean> {
    if (!this.isMysql) return write.alone;
    const writes = allOrNoneWrites(write, (together, rows) => this.allOrNone(together, rows), this.batchDeadlineMs);
    return (item) => this.writeHealth.track(writes.add(item));
  }

  /**
   * Guarded writes that the requests of one turn may share (GuardedBatchedWrite): returns the
   * function that writes one item, resolving with whether its guard changed a row, once durable.
   * On MySQL the items of a turn go out in one transaction, each decided by its own guard, and the
   * items arriving while GUARDED_BATCHES_IN_FLIGHT such transactions run go out together in the
   * next (eachOrNoneWrites); on SQLite each goes `alone` at once (the group commit shares one
   * transaction among them already). Every item reports to WriteHealth.
   */
  batchedGuarded<T>(write: GuardedBatchedWrite<T>): (item: T) => Promise<boolean> {
    if (!this.isMysql) return write.alone;
    const writes = eachOrNoneWrites(write, (guards, follow) => this.eachOrNone(guards, follow), this.batchDeadlineMs);
    return (item) => this.writeHealth.track(writes.add(item));
  }

  /**
   * Readiness: recent writes did not fail for want of a database (WriteHealth), and the database
   * answers within READY_TIMEOUT_MS. On SQLite its write lock must be free too (in WAL mode
   * `SELECT 1` succeeds while another process holds it). On MySQL/MariaDB Galera's own verdict
   * counts: a node cut off from the primary component still answers `SELECT 1` but refuses every
   * statement on a table, so there the answer is `wsrep_ready`. MariaDB without a Galera provider
   * reports `wsrep_ready` OFF and no provider name; MySQL has neither variable.
   */
  async readiness(): Promise<Readiness> {
    if (this.writeHealth.failingRecently()) return 'writes-failing';
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), READY_TIMEOUT_MS);
    });
    try {
      await Promise.race([this.databaseAnswers(), timeout]);
      const sqlite = sqliteConnectionOf(this.dataSource);
      if (sqlite) assertSqliteWritable(sqlite);
      return 'ready';
    } catch {
      return 'unreachable';
    } finally {
      clearTimeout(timer);
    }
  }

  private async databaseAnswers(): Promise<void> {
    if (!this.isMysql) {
      await this.dataSource.query('SELECT 1');
      return;
    }
    const rows: { Variable_name: string; Value: string }[] = await this.dataSource.query(
      "SHOW GLOBAL STATUS WHERE Variable_name IN ('wsrep_provider_name', 'wsrep_ready')",
    );
    const value = (name: string): string | undefined => rows.find((row) => row.Variable_name === name)?.Value;
    if (value('wsrep_provider_name') && value('wsrep_ready') !== 'ON') throw new Error('not in the primary component');
  }

  /** Runs `write`, reporting its outcome to WriteHealth, a synchronous throw included. */
  private tracked<T>(write: () => Promise<T>): Promise<T> {
    let pending: Promise<T>;
    try {
      pending = write();
    } catch (error) {
      pending = Promise.reject(error);
    }
    return this.writeHealth.track(pending);
  }

  /**
   * The better-sqlite3 connection, or undefined on MySQL. On SQLite without an open connection (a
   * DataSource destroyed, or not yet initialized again) throws "The database connection is not
   * open", which is answered 503.
   */
  private sqlite(): Database.Database | undefined {
    const db = sqliteConnectionOf(this.dataSource);
    if (db === undefined && !this.isMysql) throw new Error('The database connection is not open');
    return db;
  }

  /** MySQL: `write` on a connection of its own, holding a write slot (WriteSlots) when there are any. */
  private onWriteConnection<T>(write: () => Promise<T>): Promise<T> {
    return this.writeSlots === undefined ? write() : this.writeSlots.run(write);
  }

  /** MySQL: one statement, on a connection of its own; resolves with the rows it changed. */
  private executeOnce(statement: SqlStatement): Promise<number> {
    return this.onWriteConnection(() => this.executeOnConnection(statement));
  }

  private async executeOnConnection(statement: SqlStatement): Promise<number> {
    const runner = this.dataSource.createQueryRunner();
    try {
      await this.onConnection(runner);
      return await changedBy(runner, statement);
    } finally {
      await runner.release();
    }
  }

  /** MySQL: `work` in a transaction on a connection of its own, committed when it returns. */
  private inTransaction<T>(options: TransactionOptions, work: (runner: QueryRunner) => Promise<T>): Promise<T> {
    return this.onWriteConnection(() => this.transactionOnConnection(options, work));
  }

  private async transactionOnConnection<T>(
    options: TransactionOptions,
    work: (runner: QueryRunner) => Promise<T>,
  ): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    try {
      await this.onConnection(runner, options.isolation);
      await runner.startTransaction();
      let result: T;
      try {
        result = await work(runner);
      } catch (error) {
        // The error that ended the work is the one to report (a deadlock is retried), not the rollback's.
        if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
        throw error;
      }
      await runner.commitTransaction();
      return result;
    } finally {
      await runner.release();
    }
  }

  /** MySQL: the transaction of several items of allOrNoneWrites (AllOrNone); neither retried nor tracked here. */
  private async allOrNone({ statements, atomic }: Together, rows: number): Promise<boolean> {
    const [first, ...rest] = statements;
    if (atomic && rest.length === 0) {
      try {
        await this.executeOnce(first);
        return true;
      } catch (error) {
        if (isRefusedByServer(error) || isRolledBack(error)) return false;
        throw error;
      }
    }
    const committed = await this.batchTransaction(async (runner) => {
      if ((await changedBy(runner, first)) !== rows) return null;
      for (const statement of rest) await changedBy(runner, statement);
      return true;
    });
    return committed ?? false;
  }

  /** MySQL: the transaction of eachOrNoneWrites (EachOrNone); neither retried nor tracked here. */
  private eachOrNone(
    guards: readonly SqlStatement[],
    follow: (passed: readonly boolean[]) => readonly SqlStatement[],
  ): Promise<boolean[] | null> {
    return this.batchTransaction(async (runner) => {
      const passed: boolean[] = [];
      for (const guard of guards) passed.push((await changedBy(runner, guard)) > 0);
      if (passed.some(Boolean)) for (const statement of follow(passed)) await changedBy(runner, statement);
      return passed;
    });
  }

  /**
   * MySQL: the transaction of a batch (AllOrNone, EachOrNone), at BATCH_ISOLATION, on a connection
   * of its own holding a write slot: what `work` returns once committed; null, nothing kept, when
   * `work` returns null (then it is rolled back) or the server refused a statement or rolled the
   * transaction back whole (a deadlock, a Galera certification conflict). Throws when the outcome
   * is unknown: a failed COMMIT may or may not have happened, so its error stands.
   */
  private batchTransaction<T>(work: (runner: QueryRunner) => Promise<T | null>): Promise<T | null> {
    return this.onWriteConnection(async () => {
      const runner = this.dataSource.createQueryRunner();
      try {
        let result: T | null;
        try {
          await this.onConnection(runner, BATCH_ISOLATION);
          await runner.startTransaction();
          result = await work(runner);
          if (result === null) {
            await runner.rollbackTransaction();
            return null;
          }
        } catch (error) {
          if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
          if (isRefusedByServer(error) || isRolledBack(error)) return null;
          throw error;
        }
        await runner.commitTransaction();
        return result;
      } finally {
        await runner.release();
      }
    });
  }

  /**
   * MySQL: connects the runner to a pooled connection whose session is at `isolation` (absent:
   * the server's default), so that a transaction's START TRANSACTION needs no `SET TRANSACTION
   * ISOLATION LEVEL` of its own, a round trip per transaction. The level is set on the session
   * when it is not already there (`SET SESSION …`, once per connection while the writes it serves
   * ask for one level), and each pooled connection's level is remembered. Every write through
   * Sql asks for its level this way: READ COMMITTED for the special events' writes, the default
   * for every other transaction and single statement, as when each set its own. Reads (`select`,
   * one plain SELECT each, autocommit) and writeReturningInsertId's upsert of one row take
   * whichever connection the pool gives: a single statement's rows and outcome are the same at
   * either level.
   */
  private async onConnection(runner: QueryRunner, isolation?: 'READ COMMITTED'): Promise<void> {
    const connection = (await runner.connect()) as object;
    const at = sessionLevels.get(connection);
    if (at === isolation) return;
    sessionLevels.set(connection, UNKNOWN_LEVEL);
    const level = isolation ?? (await this.serverDefaultLevel(runner));
    await runner.query(`SET SESSION TRANSACTION ISOLATION LEVEL ${level}`);
    if (isolation === undefined) sessionLevels.delete(connection);
    else sessionLevels.set(connection, isolation);
  }

  /** MySQL: the server's default isolation level (`transaction_isolation`, `tx_isolation` before MariaDB 11.1). */
  private serverDefaultLevel(runner: QueryRunner): Promise<string> {
    this.defaultLevel ??= (async () => {
      const rows = (await runner.query(
        "SHOW GLOBAL VARIABLES WHERE Variable_name IN ('transaction_isolation', 'tx_isolation')",
      )) as { Value: string }[];
      const level = rows[0]?.Value.replace('-', ' ').toUpperCase();
      if (level === undefined || !ISOLATION_LEVELS.includes(level)) {
        throw new Error(`unknown default isolation level: ${rows[0]?.Value}`);
      }
      return level;
    })().catch((error: unknown) => {
      this.defaultLevel = undefined;
      throw error;
    });
    return this.defaultLevel;
  }

  /** MySQL: runs `write` again while a deadlock or a Galera conflict rolled it back whole. */
  private async retryingConflicts<T>(write: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + CONFLICT_RETRY_MS;
    for (let attempt = 1; ; attempt++) {
      try {
        return await write();
      } catch (error) {
        if (!isRolledBack(error) || Date.now() >= deadline) throw error;
        const pause = Math.random() * Math.min(CONFLICT_BACKOFF_CAP_MS, 2 ** (attempt - 1));
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  }

  private statement(db: Database.Database, sql: string): Database.Statement {
    if (this.prepared?.db !== db) this.prepared = { db, statements: new Map() };
    let statement = this.prepared.statements.get(sql);
    if (statement === undefined) {
      statement = db.prepare(sql);
      this.prepared.statements.set(sql, statement);
    }
    this.dataSource.logger.logQuery(sql);
    return statement;
  }
}

/** MySQL: runs one statement on the runner's connection; resolves with the rows it changed. */
async function changedBy(runner: QueryRunner, { sql, parameters }: SqlStatement): Promise<number> {
  const { affected } = await runner.query(sql, [...parameters], true);
  return affected ?? 0;
}
