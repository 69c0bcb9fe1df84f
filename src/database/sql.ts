import type Database from 'better-sqlite3';
import type { DataSource } from 'typeorm';
import { isRolledBack } from './database-errors.js';
import { sqliteConnectionOf } from './driver-handles.js';
import { assertSqliteWritable } from './sqlite-availability.js';
import { SqliteGroupCommit } from './sqlite-group-commit.js';
import type { WriteHealth } from './write-health.js';

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

interface Changed {
  affectedRows?: number;
}

/**
 * The one way to the database: plain SQL with `?` placeholders, the same text on SQLite and MySQL,
 * for every module's reads, writes and transactions.
 *
 * - SQLite: statements are prepared once; writes join the connection's group commit (one fsync
 *   shared by the writes of one turn of the event loop, SqliteGroupCommit).
 * - MySQL: through TypeORM's pool; a write rolled back whole by a deadlock, or on Galera by a
 *   certification conflict with a write committed first on another node, is run again after a
 *   jittered pause, for up to CONFLICT_RETRY_MS.
 * - Every write reports to WriteHealth, so that a write failed for want of a database, whichever
 *   module made it, makes the service unready (/health/ready).
 */
export class Sql {
  private prepared?: { db: Database.Database; statements: Map<string, Database.Statement> };

  constructor(
    private readonly dataSource: DataSource,
    private readonly writeHealth: WriteHealth,
  ) {}

  get isMysql(): boolean {
    return this.dataSource.options.type === 'mysql';
  }

  async select<T>(sql: string, parameters: readonly unknown[] = []): Promise<T[]> {
    const db = sqliteConnectionOf(this.dataSource);
    if (db === undefined) return (await this.dataSource.query(sql, [...parameters])) as T[];
    return this.statement(db, sql).all(...parameters) as T[];
  }

  /** Runs one write statement; resolves with the rows it changed, once durable. */
  execute(sql: string, parameters: readonly unknown[] = []): Promise<number> {
    return this.tracked(() => {
      const db = sqliteConnectionOf(this.dataSource);
      if (db !== undefined) {
        const statement = this.statement(db, sql);
        return SqliteGroupCommit.of(db).writeStatement(() => statement.run(...parameters).changes);
      }
      return this.retryingConflicts(async () => {
        const runner = this.dataSource.createQueryRunner();
        try {
          const { affected } = await runner.query(sql, [...parameters], true);
          return affected ?? 0;
        } finally {
          await runner.release();
        }
      });
    });
  }

  /**
   * Runs the statements in one transaction, all or none; resolves with the rows each changed. On
   * SQLite the unit may run twice (the group commit's retry), so it is only these statements.
   */
  transaction(statements: readonly SqlStatement[]): Promise<number[]> {
    return this.transactionIf(null, statements) as Promise<number[]>;
  }

  /**
   * Runs `guard` and, only when it changed a row, `then`, in one transaction: the database decides
   * (a conditional UPDATE such as "one more ticket while fewer than the capacity are sold"), and
   * what follows from its decision is kept with it or not at all. Resolves with null when the
   * guard changed nothing (nothing else ran), else with the rows each of `then` changed.
   */
  transactionIf(guard: SqlStatement | null, then: readonly SqlStatement[]): Promise<number[] | null> {
    return this.tracked(() => {
      const db = sqliteConnectionOf(this.dataSource);
      if (db !== undefined) {
        const guarded = guard === null ? null : { statement: this.statement(db, guard.sql), guard };
        const prepared = then.map(({ sql, parameters }) => ({ statement: this.statement(db, sql), parameters }));
        return SqliteGroupCommit.of(db).write(() => {
          if (guarded !== null && guarded.statement.run(...guarded.guard.parameters).changes === 0) return null;
          return prepared.map(({ statement, parameters }) => statement.run(...parameters).changes);
        });
      }
      return this.retryingConflicts(() =>
        this.dataSource.transaction(async (manager) => {
          if (guard !== null) {
            const guarded = (await manager.query(guard.sql, [...guard.parameters])) as Changed;
            if ((guarded.affectedRows ?? 0) === 0) return null;
          }
          const changed: number[] = [];
          for (const { sql, parameters } of then) {
            const result = (await manager.query(sql, [...parameters])) as Changed;
            changed.push(result.affectedRows ?? 0);
          }
          return changed;
        }),
      );
    });
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
