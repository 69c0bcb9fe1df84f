import type Database from 'better-sqlite3';

/** One request's writes: synchronous statements on the connection. Its result settles the request. */
export type WriteUnit<T> = () => T;

interface Pending {
  readonly unit: WriteUnit<unknown>;
  /** The unit is one statement: SQLite undoes a failing statement itself, no savepoint needed. */
  readonly oneStatement: boolean;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

type Outcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown };

const instances = new WeakMap<Database.Database, SqliteGroupCommit>();

/**
 * Group commit for SQLite: the writes that arrive in one turn of the event loop share one
 * transaction, hence one fsync (WAL, synchronous=FULL), instead of one each. Measured here, the
 * commit's fsync was a third of the CPU time of a create; under load the batches grow by
 * themselves, because requests pile up while a commit runs.
 *
 * - A request is answered only after the COMMIT of the transaction holding its write returned:
 *   nothing is acknowledged before it is durable.
 * - A unit that throws (a constraint, a bad value) is undone on its own and only its request
 *   fails; the others still commit. Units rarely throw (a duplicate id is ON CONFLICT DO NOTHING,
 *   a stale version changes no row), so a batch first runs without savepoints; only if a unit of
 *   several statements throws is that attempt rolled back and the batch run again with a SAVEPOINT
 *   around each unit. A unit may therefore run twice, the first run undone: it must have no
 *   effect outside the database. A unit of exactly one statement (`writeStatement`) never needs a
 *   savepoint: SQLite undoes a failing statement by itself and the transaction goes on (ON
 *   CONFLICT ABORT, the default). Savepoints cost two statements per unit, a fifth of the
 *   database time of a create with its date rows.
 * - If the transaction itself fails (BEGIN or COMMIT: busy, I/O error, disk full), every unit of
 *   the batch fails with that error and nothing of the batch is kept.
 * - better-sqlite3 is synchronous, so a whole batch runs without interleaving with any other
 *   query of this process. TypeORM may keep its own transaction open across awaits on the same
 *   connection (migrations, `dataSource.transaction()`); a batch is never run inside it, but
 *   waits until it has ended.
 */
export class SqliteGroupCommit {
  private queue: Pending[] = [];
  private scheduled = false;
  private readonly begin: Database.Statement;
  private readonly commit: Database.Statement;
  private readonly savepoint: Database.Statement;
  private readonly release: Database.Statement;
  private readonly rollbackToSavepoint: Database.Statement;

  /** The one group commit of a connection: every writer on it must share it. */
  static of(db: Database.Database): SqliteGroupCommit {
    let instance = instances.get(db);
    if (!instance) {
      instance = new SqliteGroupCommit(db);
      instances.set(db, instance);
    }
    return instance;
  }

  private constructor(private readonly db: Database.Database) {
    // Prepared through db.prepare, so failFastWhenUnavailable (sqlite-availability.ts) applies.
    this.begin = db.prepare('BEGIN IMMEDIATE');
    this.commit = db.prepare('COMMIT');
    this.savepoint = db.prepare('SAVEPOINT unit');
    this.release = db.prepare('RELEASE unit');
    this.rollbackToSavepoint = db.prepare('ROLLBACK TO unit');
  }

  /** Runs `unit` in the next group transaction; resolves with its result once that is durable. */
  write<T>(unit: WriteUnit<T>): Promise<T> {
    return this.enqueue(unit, false);
  }

  /**
   * `write` for a unit that runs exactly one statement (an INSERT, a DELETE). Given more than one,
   * a failure would undo only the failing statement and keep the earlier ones: use `write`.
   */
  writeStatement<T>(unit: WriteUnit<T>): Promise<T> {
    return this.enqueue(unit, true);
  }

  private enqueue<T>(unit: WriteUnit<T>, oneStatement: boolean): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ unit, oneStatement, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.flush);
      }
    });
  }

  private readonly flush = (): void => {
    if (this.db.inTransaction) {
      // Someone else's transaction is open across an await: never join it.
      setTimeout(this.flush, 1);
      return;
    }
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    let outcomes: Outcome[];
    try {
      outcomes = this.runBatch(batch);
    } catch (error) {
      for (const pending of batch) pending.reject(error);
      return;
    }
    for (let i = 0; i < batch.length; i++) {
      const outcome = outcomes[i];
      if (outcome.ok) batch[i].resolve(outcome.value);
      else batch[i].reject(outcome.error);
    }
  };

  private runBatch(batch: readonly Pending[]): Outcome[] {
    this.begin.run();
    try {
      let outcomes = this.runUnits(batch, false);
      if (outcomes === null) {
        // A unit of several statements failed part way: undo the attempt, then again with savepoints.
        this.db.exec('ROLLBACK');
        this.begin.run();
        outcomes = this.runUnits(batch, true) as Outcome[];
      }
      this.commit.run();
      return outcomes;
    } catch (error) {
      // exec, not a prepared statement: the fail-fast wrapper must never stop a ROLLBACK, or the
      // connection would stay inside this transaction.
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
  }

  /**
   * Runs every unit of the batch inside the open transaction. Without savepoints, returns null as
   * soon as a unit of several statements throws (its earlier statements are not undone); with
   * them, undoes such a unit on its own and goes on. Throws when an error ended the transaction
   * (I/O, disk full): the whole batch fails.
   */
  private runUnits(batch: readonly Pending[], savepoints: boolean): Outcome[] | null {
    const outcomes: Outcome[] = [];
    for (const { unit, oneStatement } of batch) {
      const guarded = savepoints && !oneStatement;
      if (guarded) this.savepoint.run();
      try {
        outcomes.push({ ok: true, value: unit() });
        if (guarded) this.release.run();
      } catch (error) {
        if (!this.db.inTransaction) throw error;
        if (!oneStatement && !savepoints) return null;
        if (guarded) {
          this.rollbackToSavepoint.run();
          this.release.run();
        }
        outcomes.push({ ok: false, error });
      }
    }
    return outcomes;
  }
}
