import type { SqlStatement } from './sql.js';
import { type Pending, TurnBatcher } from './turn-batcher.js';

/**
 * Writes the items of one batch (more than one) together, in one transaction: each item's
 * outcome, in the items' order, once committed, or null when nothing of it was kept (refused, or
 * rolled back whole). Null instead of a promise: these items cannot go together (one key twice).
 * Rejects when the outcome is unknown (a timeout, a lost connection, a failed COMMIT).
 */
export type WriteTogether<T> = (items: readonly T[]) => Promise<readonly boolean[] | null> | null;

/**
 * MySQL/MariaDB's group commit (InnoDB's own only merges commits that happen to overlap): the
 * items of one turn, in chunks of at most MYSQL_BATCH (TurnBatcher), go out `together`; when that
 * cannot decide for each of them, each goes `alone`. How items go together is the kind of write's
 * own: all or none (allOrNoneWrites), or each by its own guard (eachOrNoneWrites).
 *
 * - Together committed: each item has the outcome the database gave it there.
 * - Refused or rolled back whole (a duplicate key, a missing row, a value the server rejects, a
 *   deadlock): nothing of it is kept, and each item is written alone, with its own outcome.
 * - Fate unknown (a timeout, a lost connection, a failed COMMIT: it may still commit): every item
 *   gets the error (503) and nothing is retried; a retry of a create would meet the batch's own
 *   rows and answer 409 for ids the service generated itself.
 *
 * With `maxInFlight`, at most that many batches run at once: the items arriving meanwhile wait,
 * and go out together in the next (TurnBatcher). Every item is answered within `deadlineMs` of
 * its call (TurnBatcher).
 */
export class BatchedWrites<T> {
  private readonly batcher: TurnBatcher<T>;

  constructor(
    private readonly alone: (item: T) => Promise<boolean>,
    private readonly together: WriteTogether<T>,
    deadlineMs: number,
    maxInFlight?: number,
  ) {
    this.batcher = new TurnBatcher((batch) => this.runBatch(batch), deadlineMs, maxInFlight);
  }

  add(item: T): Promise<boolean> {
    return this.batcher.add(item);
  }

  private async runBatch(batch: readonly Pending<T>[]): Promise<void> {
    if (batch.length > 1) {
      const outcome = this.together(batch.map(({ item }) => item));
      if (outcome !== null) {
        let outcomes: readonly boolean[] | null;
        try {
          outcomes = await outcome;
        } catch (error) {
          for (const { reject } of batch) reject(error);
          return;
        }
        if (outcomes !== null) {
          for (const [i, { resolve }] of batch.entries()) resolve(outcomes[i] as boolean);
          return;
        }
      }
    }
    // A batch of one, or one that together did not decide: each item alone, with its own outcome.
    await Promise.all(batch.map(({ item, resolve, reject }) => this.alone(item).then(resolve, reject)));
  }
}

/** Several items written at once (BatchedWrite.together). */
export interface Together {
  /**
   * The statements, in one transaction. The first one must change one row per item, else the
   * transaction is rolled back and each item is written alone.
   */
  readonly statements: readonly SqlStatement[];
  /**
   * The first statement changes all of its rows or fails (a multi-row INSERT): alone, it then runs
   * without a transaction around it.
   */
  readonly atomic?: boolean;
}

/**
 * A kind of write that the requests of one turn of the event loop may share (Sql.batched): one
 * statement and one commit for all of them (on MySQL one redo-log flush) instead of one each.
 * Each request still gets its own answer, decided by the database.
 */
export interface BatchedWrite<T> {
  /** Writes one item on its own: true, or false when it did not take effect (a duplicate, a missing row). */
  readonly alone: (item: T) => Promise<boolean>;
  /** The statements that write these items together, or null when they cannot go together (one key twice). */
  readonly together: (items: readonly T[]) => Together | null;
}

/**
 * Runs `together` in one transaction: true when committed, false when it changed nothing because
 * the first statement did not change one row per item, or the server refused a statement or rolled
 * it back whole (a deadlock, a Galera certification conflict). Throws when the outcome is unknown
 * (a timeout, a lost connection, a failed COMMIT).
 */
export type AllOrNone = (together: Together, rows: number) => Promise<boolean>;

/**
 * BatchedWrites of a write whose items go together all or none (Sql.batched): `write.together`
 * in one transaction (AllOrNone), every item true once it committed; when it did not, each item
 * goes alone.
 */
export function allOrNoneWrites<T>(write: BatchedWrite<T>, allOrNone: AllOrNone, deadlineMs: number): BatchedWrites<T> {
  return new BatchedWrites(
    write.alone,
    (items) => {
      const together = write.together(items);
      if (together === null) return null;
      return allOrNone(together, items.length).then((committed) => (committed ? items.map(() => true) : null));
    },
    deadlineMs,
  );
}

/**
 * A kind of guarded write that the requests of one turn may share (Sql.batchedGuarded): each item
 * has a guard of its own (a conditional UPDATE that changes its one row or none) and the database
 * decides each item by its guard alone, so that one item refused leaves the others to commit; what
 * follows from the guards that passed goes in the same transaction, in a few statements for all.
 */
export interface GuardedBatchedWrite<T> {
  /** Writes one item on its own: true, or false when its guard changed no row. */
  readonly alone: (item: T) => Promise<boolean>;
  /** Each item's guard, in the items' order, or null when they cannot go together (one key twice). */
  readonly guards: (items: readonly T[]) => readonly SqlStatement[] | null;
  /** What follows for the items whose guard changed a row (at least one), in the same transaction. */
  readonly follow: (passed: readonly T[]) => readonly SqlStatement[];
}

/**
 * Runs the guards in one transaction, then `follow` of the items whose guard changed a row, and
 * commits: which guards passed, or null when the server refused a statement or rolled the
 * transaction back whole (nothing of it kept). Throws when the outcome is unknown.
 */
export type EachOrNone = (
  guards: readonly SqlStatement[],
  follow: (passed: readonly boolean[]) => readonly SqlStatement[],
) => Promise<boolean[] | null>;

/**
 * How many transactions of one kind of guarded write run at once (eachOrNoneWrites). Such a
 * write follows a read of its own (an update reads the event first), so the writes of many
 * requests reach the batcher spread over many turns: batched per turn they made transactions of
 * one to three items on MySQL at 50 connections, each of them 4 round trips and a commit beside
 * its guards. Two at a time, the items arriving while they run wait for one of them and go out
 * together (group commit): batches of about 5 to 40 items at the same load, and PATCH went from
 * about 0.4 to about 0.7 of POST's req/s (docs/performance-history.md, issue 50).
 */
export const GUARDED_BATCHES_IN_FLIGHT = 2;

/**
 * BatchedWrites of guarded items (Sql.batchedGuarded): the items of a batch go out in one
 * transaction (EachOrNone), each answered by its own guard (false: it changed no row, nothing of
 * that item written). When the server refuses or rolls back the transaction (a deadlock), each
 * item goes alone. At most `maxInFlight` such transactions run at once, so that the items
 * arriving meanwhile go out together in the next.
 */
export function eachOrNoneWrites<T>(
  write: GuardedBatchedWrite<T>,
  eachOrNone: EachOrNone,
  deadlineMs: number,
  maxInFlight = GUARDED_BATCHES_IN_FLIGHT,
): BatchedWrites<T> {
  return new BatchedWrites(
    write.alone,
    (items) => {
      const guards = write.guards(items);
      if (guards === null) return null;
      return eachOrNone(guards, (passed) => write.follow(items.filter((_, i) => passed[i])));
    },
    deadlineMs,
    maxInFlight,
  );
}
