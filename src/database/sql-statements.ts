import type Database from 'better-sqlite3';
import type { DataSource } from 'typeorm';
import { isRolledBack } from './database-errors.js';
import { sqliteConnectionOf } from './driver-handles.js';
import { SqliteGroupCommit } from './sqlite-group-commit.js';

/** One statement with `?` placeholders. */
export interface SqlStatement {
  readonly sql: string;
  readonly parameters: readonly unknown[];
}

/**
 * How long a guarded transaction that keeps deadlocking or losing Galera certification conflicts
 * is run again. Each loss means another transaction on the same row committed, so the row makes
 * progress; a count of attempts ran out for some buyers of an on-sale moment on two Galera nodes
 * (a 503 while the cluster was healthy), a bound in time does not while the cluster is healthy.
 * Past it the error stands: 503 with Retry-After.
 */
export const CONFLICT_RETRY_MS = 5_000;

/**
 * The pauses between attempts: exponential from 1 ms up to this cap, with full jitter (a random
 * fraction of it), so that the losers of one conflict do not meet again at once.
 */
export const CONFLICT_BACKOFF_CAP_MS = 8;

/**
 * Plain SQL with `?` placeholders for a module's own tables, the same text on SQLite and MySQL:
 * on SQLite, statements are prepared once and writes join the connection's group commit (one
 * fsync shared with the requests' writes); on MySQL they go through TypeORM's pool.
 */
export class SqlStatements {
  private prepared?: { db: Database.Database; statements: Map<string, Database.Statement> };

  constructor(private readonly dataSource: DataSource) {}

  get isMysql(): boolean {
    return this.dataSource.options.type === 'mysql';
  }

  async select<T>(sql: string, parameters: readonly unknown[] = []): Promise<T[]> {
    const db = sqliteConnectionOf(this.dataSource);
    if (db === undefined) return (await this.dataSource.query(sql, [...parameters])) as T[];
    return this.statement(db, sql).all(...parameters) as T[];
  }

  /** Runs one write statement; resolves with the rows it changed, once durable. */
  async execute(sql: string, parameters: readonly unknown[] = []): Promise<number> {
    const db = sqliteConnectionOf(this.dataSource);
    if (db === undefined) {
      const runner = this.dataSource.createQueryRunner();
      try {
        const { affected } = await runner.query(sql, [...parameters], true);
        return affected ?? 0;
      } finally {
        await runner.release();
      }
    }
    const statement = this.statement(db, sql);
    return SqliteGroupCommit.of(db).writeStatement(() => statement.run(...parameters).changes);
  }

  /**
   * Runs the statements in one transaction, all or none; resolves with the rows each changed. On
   * SQLite the unit may run twice (the group commit's retry), so it is only these statements.
   */
  async transaction(statements: readonly { sql: string; parameters: readonly unknown[] }[]): Promise<number[]> {
    const db = sqliteConnectionOf(this.dataSource);
    if (db === undefined) {
      return this.dataSource.transaction(async (manager) => {
        const changed: number[] = [];
        for (const { sql, parameters } of statements) {
          const result = (await manager.query(sql, [...parameters])) as { affectedRows?: number };
          changed.push(result.affectedRows ?? 0);
        }
        return changed;
      });
    }
    const prepared = statements.map(({ sql, parameters }) => ({ statement: this.statement(db, sql), parameters }));
    return SqliteGroupCommit.of(db).write(() =>
      prepared.map(({ statement, parameters }) => statement.run(...parameters).changes),
    );
  }

  /**
   * Runs `guard` and, only when it changed a row, `then`, in one transaction: the database decides
   * (a conditional UPDATE such as "one more ticket while fewer than the capacity are sold"), and
   * what follows from its decision is kept with it or not at all. Resolves with null when the
   * guard changed nothing (nothing else ran), else with the rows each of `then` changed. A
   * transaction rolled back by a deadlock, or on Galera by a certification conflict with a write
   * committed first on another node, is run again after a jittered pause, for up to
   * CONFLICT_RETRY_MS.
   */
  async transactionIf(guard: SqlStatement, then: readonly SqlStatement[]): Promise<number[] | null> {
    const db = sqliteConnectionOf(this.dataSource);
    if (db !== undefined) {
      const guardStatement = this.statement(db, guard.sql);
      const prepared = then.map(({ sql, parameters }) => ({ statement: this.statement(db, sql), parameters }));
      return SqliteGroupCommit.of(db).write(() => {
        if (guardStatement.run(...guard.parameters).changes === 0) return null;
        return prepared.map(({ statement, parameters }) => statement.run(...parameters).changes);
      });
    }
    const deadline = Date.now() + CONFLICT_RETRY_MS;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.dataSource.transaction(async (manager) => {
          const guarded = (await manager.query(guard.sql, [...guard.parameters])) as { affectedRows?: number };
          if ((guarded.affectedRows ?? 0) === 0) return null;
          const changed: number[] = [];
          for (const { sql, parameters } of then) {
            const result = (await manager.query(sql, [...parameters])) as { affectedRows?: number };
            changed.push(result.affectedRows ?? 0);
          }
          return changed;
        });
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
