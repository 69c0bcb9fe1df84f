import type { Sql, SqlStatement } from '../database/sql.js';
import { type CapacityPool, givePlaceSql, isFull, takePlaceSql } from './capacity-pool.js';
import type { PlaceClaim } from './place-claim.js';

/** One place asked of a pool: its row's key and the parameters of its limits (takePlaceSql). */
export interface PlaceRequest {
  readonly pool: CapacityPool;
  readonly key: string;
  readonly parameters: readonly unknown[];
  /** The row's limit and places taken as last read: a full row is refused without a write. */
  readonly asRead?: { readonly limit: number | null; readonly taken: number };
  /**
   * Conditional UPDATEs that take the same place from other bounds (an event's date), after the
   * pool's: each must change a row, or nothing of the take is kept. They write rows only the
   * pool's own takes write, after its row, so every take locks in the same order.
   */
  readonly also?: readonly SqlStatement[];
  /**
   * The pool's UPDATE and `also` as one statement (MySQL/MariaDB's multi-table UPDATE), run in
   * their place: a round trip fewer. It must change a row or nothing is kept, decide all their
   * conditions, and lock the pool's row first, as they do.
   */
  readonly together?: SqlStatement;
}

/**
 * Places taken from pools (CapacityPool), decided by the database: one conditional UPDATE on the
 * pool's row, and the statements that go with a place (a ticket row) in the same transaction,
 * only when the UPDATE took it. On SQLite the transaction joins the connection's group commit; on
 * MySQL/MariaDB a transaction rolled back by a deadlock or a Galera certification conflict is run
 * again (Sql.transactionIf).
 */
export class Capacity {
  /** Per pool row, the last take of this instance's queue (MySQL/MariaDB, pools with turns). */
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly statements = new Map<CapacityPool, string>();

  constructor(private readonly sql: Sql) {}

  /**
   * Takes one place and runs `joined` with it: true, or false (nothing ran). A pool with turns
   * takes its places in turn per row (inTurn).
   */
  async take(request: PlaceRequest, joined: readonly SqlStatement[]): Promise<boolean> {
    // Full as read, where the request's conditions refuse a row changed since (an event's version):
    // the UPDATE could only refuse, as places taken never go down. No transaction, no turn.
    if (request.asRead && isFull(request.asRead.limit, request.asRead.taken)) return false;
    const guard = { sql: this.sqlOf(request.pool), parameters: [request.key, ...request.parameters] };
    const guards = request.together ?? (request.also === undefined ? guard : [guard, ...request.also]);
    const take = async () => (await this.sql.transactionIf(guards, joined)) !== null;
    return request.pool.turns ? this.inTurn(request.pool, request.key, take) : take();
  }

  /**
   * Gives one place of the pool's row `key` back, only when `guard` (the conditional UPDATE that
   * cancels what held the place) changes a row, in one transaction: true, or false (nothing
   * changed). Of two cancels of one ticket the database lets one guard through, so one place comes
   * back. A pool with turns gives back in the row's turn, as it takes. `also`: what gives the same
   * place back to the other bounds it was taken from (an event's date or session, a day's slot),
   * after the pool's row, as a take writes them.
   */
  async giveBack(
    pool: CapacityPool,
    key: string,
    guard: SqlStatement,
    also: readonly SqlStatement[] = [],
  ): Promise<boolean> {
    const give = { sql: givePlaceSql(pool), parameters: [key] };
    const run = async () => (await this.sql.transactionIf(guard, [give, ...also])) !== null;
    return pool.turns ? this.inTurn(pool, key, run) : run();
  }

  /**
   * Runs `work` in the row's turn with this instance's other takes of it (MySQL/MariaDB; SQLite
   * at once). They all write the row, so more at once only wait for its lock, and on Galera each
   * commit from another node aborts the one holding it here; one at a time, a loser tries again
   * at once against one rival per node instead of queueing behind dozens (an on-sale over two
   * nodes ran out of retries otherwise). SQLite needs no queue: its group commit already runs
   * them in turn. Other writes of the row (an event's update) take their turn here too.
   */
  async inTurn<T>(pool: CapacityPool, key: string, work: () => Promise<T>): Promise<T> {
    if (!this.sql.isMysql) return work();
    const row = `${pool.name}\n${key}`;
    const run = (this.queues.get(row) ?? Promise.resolve()).then(work);
    const tail = run.catch(() => undefined);
    this.queues.set(row, tail);
    try {
      return await run;
    } finally {
      if (this.queues.get(row) === tail) this.queues.delete(row);
    }
  }

  /**
   * Takes the places of every claim and runs `joined` with them, in one transaction: all, or
   * nothing and `refusedBy`, the index of the first claim one of whose guards changed no row. The
   * guards run in the order of their claims' rows (table, then key), so that two such transactions
   * lock shared rows in one order; a pool with turns is taken in each of its rows' turns, in that
   * same order, so that one instance never waits for a turn held by a transaction waiting for its
   * own.
   */
  async takeAll(
    claims: readonly PlaceClaim[],
    joined: readonly SqlStatement[],
  ): Promise<{ readonly taken: true } | { readonly refusedBy: number }> {
    const order = claims.map((_, index) => index).sort((a, b) => compareRows(claims[a], claims[b]));
    const guards: SqlStatement[] = [];
    const claimOf: number[] = [];
    for (const index of order) {
      for (const guard of claims[index].guards) {
        guards.push(guard);
        claimOf.push(index);
      }
    }
    const take = async () => {
      const outcome = await this.sql.guardedTransaction(guards, joined);
      return 'changed' in outcome ? { taken: true as const } : { refusedBy: claimOf[outcome.refusedBy] };
    };
    const turns = [
      ...new Map(
        order
          .map((i) => claims[i].row)
          .filter((row) => row.pool.turns)
          .map((row) => [`${row.pool.name}\n${row.key}`, row]),
      ).values(),
    ];
    const inTurns = turns.reduceRight<() => Promise<{ readonly taken: true } | { readonly refusedBy: number }>>(
      (inner, row) => () => this.inTurn(row.pool, row.key, inner),
      take,
    );
    return inTurns();
  }

  /** The pool's UPDATE, written once: the same text every time (one prepared statement). */
  private sqlOf(pool: CapacityPool): string {
    let sql = this.statements.get(pool);
    if (sql === undefined) {
      sql = takePlaceSql(pool);
      this.statements.set(pool, sql);
    }
    return sql;
  }
}

/** The order in which claims' rows are locked: by table, then by key. */
function compareRows(a: PlaceClaim, b: PlaceClaim): number {
  const pool = a.row.pool.table.localeCompare(b.row.pool.table);
  return pool !== 0 ? pool : a.row.key < b.row.key ? -1 : a.row.key > b.row.key ? 1 : 0;
}
