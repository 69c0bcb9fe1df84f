/**
 * A pool of places with a limit: an event's seats, a day's general admissions (pretix calls it a
 * quota). One row counts the places taken; its limit is a value read from that row or from another
 * table, NULL for none. The feature that owns the tables describes its pool here, as SQL
 * fragments with `?` placeholders (valid on SQLite and MySQL/MariaDB alike); takePlaceSql writes
 * the one conditional UPDATE that takes a place from any pool.
 */
export interface CapacityPool {
  /** What the pool is, for logs and turns: `event-seats`, `day-admissions`. */
  readonly name: string;
  /** The table whose row counts the places taken: every sale writes this one row. */
  readonly table: string;
  /** The row's key column: the first parameter of a take. */
  readonly key: string;
  /** The column counting the places taken. */
  readonly taken: string;
  /** The limits a place may be taken under: it is taken when any one of them admits it. */
  readonly limits: readonly PoolLimit[];
  /**
   * On MySQL/MariaDB, one take per row at a time in an instance (Capacity.inTurn): for a row hot
   * enough that concurrent takes mostly wait for its lock or, on Galera, abort each other.
   */
  readonly turns: boolean;
}

/** One way a place may be taken: under `when`, while fewer than `limit` are taken. */
export interface PoolLimit {
  /** Conditions for this limit to apply at all (the event unchanged, the museum open), if any. */
  readonly when?: string;
  /** Where the limit is read: a table (with its alias) and the condition that finds its row. Absent: the pool's row. */
  readonly from?: { readonly table: string; readonly where: string };
  /** The limit, as SQL: a column of the pool's row or of `from`; NULL for no limit. */
  readonly limit: string;
}

/**
 * The conditional UPDATE that takes one place of `pool`: one more taken on the pool's row, only
 * while one of its limits applies and fewer than that limit are taken. The database decides, in
 * this one write on the one row (on Galera, two nodes that take the last place at once conflict on
 * that row at commit, and one of them is rolled back: a count and a separate insert would both
 * commit). Its parameters: the row's key, then each limit's `when` and `from.where` in order.
 */
export function takePlaceSql(pool: CapacityPool): string {
  return `UPDATE ${pool.table} SET ${pool.taken} = ${pool.taken} + 1 WHERE ${pool.key} = ? AND ${takePlaceCondition(pool)}`;
}

/**
 * The condition of takePlaceSql (one of the pool's limits admits one more place), parenthesized,
 * for a statement that writes the pool's row with others (a multi-table UPDATE). Its parameters:
 * each limit's `when` and `from.where` in order. A pool whose limits all read `from` another
 * table names its row's column by its table (`table.taken`), as a statement joining it needs.
 */
export function takePlaceCondition(pool: CapacityPool): string {
  const alternatives = pool.limits.map(({ when, from, limit }) => {
    if (from === undefined) {
      return [`(${limit} IS NULL OR ${pool.taken} < ${limit})`, ...(when ? [when] : [])].join(' AND ');
    }
    const available = `(${limit} IS NULL OR ${pool.table}.${pool.taken} < ${limit})`;
    const exists = `EXISTS (SELECT 1 FROM ${from.table} WHERE ${from.where} AND ${available})`;
    return when ? `${when} AND ${exists}` : exists;
  });
  const admits = alternatives.length === 1 ? alternatives[0] : alternatives.map((one) => `(${one})`).join(' OR ');
  return `(${admits})`;
}

/**
 * The UPDATE that gives one place of `pool` back (a cancelled ticket's): one fewer taken on the
 * pool's row, never below 0. Its one parameter: the row's key. Run only in the transaction whose
 * guard decided the cancellation (Capacity.giveBack), so a place is given back once per ticket.
 */
export function givePlaceSql(pool: CapacityPool): string {
  return `UPDATE ${pool.table} SET ${pool.taken} = ${pool.taken} - 1 WHERE ${pool.key} = ? AND ${pool.taken} > 0`;
}

/** What is left of a limit (never below 0), or undefined without one. */
export function placesLeft(limit: number | null, taken: number): number | undefined {
  return limit === null ? undefined : Math.max(0, limit - taken);
}

/** Whether a limit is reached: no place can be taken under it while it stays. */
export function isFull(limit: number | null, taken: number): boolean {
  return limit !== null && taken >= limit;
}

/** How many `?` placeholders an SQL fragment holds (the pools' fragments hold no quoted `?`). */
const placeholdersIn = (fragment: string | undefined): number =>
  fragment === undefined ? 0 : fragment.split('?').length - 1;

/**
 * The conditional UPDATE that takes several places of `pool` at once (an order's line): `count`
 * more taken on the pool's row, only while one of its limits applies and leaves room for all of
 * them. As takePlaceSql, the database decides in one write on the one row. Its parameters:
 * takePlacesParameters.
 */
export function takePlacesSql(pool: CapacityPool): string {
  const alternatives = pool.limits.map(({ when, from, limit }) => {
    if (from === undefined)
      return [...(when ? [when] : []), `(${limit} IS NULL OR ${pool.taken} + ? <= ${limit})`].join(' AND ');
    const available = `(${limit} IS NULL OR ${pool.table}.${pool.taken} + ? <= ${limit})`;
    const exists = `EXISTS (SELECT 1 FROM ${from.table} WHERE ${from.where} AND ${available})`;
    return when ? `${when} AND ${exists}` : exists;
  });
  const admits = alternatives.length === 1 ? alternatives[0] : alternatives.map((one) => `(${one})`).join(' OR ');
  return `UPDATE ${pool.table} SET ${pool.taken} = ${pool.taken} + ? WHERE ${pool.key} = ? AND (${admits})`;
}

/**
 * The parameters of takePlacesSql: the count, the row's key, then each limit's own parameters
 * (its `when`, then its `from.where`, as takePlaceSql takes them) followed by the count.
 */
export function takePlacesParameters(
  pool: CapacityPool,
  key: string,
  parameters: readonly unknown[],
  count: number,
): unknown[] {
  const ordered: unknown[] = [count, key];
  let next = 0;
  for (const { when, from } of pool.limits) {
    const own = placeholdersIn(when) + placeholdersIn(from?.where);
    ordered.push(...parameters.slice(next, next + own), count);
    next += own;
  }
  if (next !== parameters.length)
    throw new Error(`${pool.name}: ${parameters.length} parameters for ${next} placeholders`);
  return ordered;
}

/**
 * The UPDATE that gives `count` places of `pool` back (an order's cancelled tickets): only while
 * at least that many are taken. Its parameters: the count, the row's key, the count.
 */
export function givePlacesSql(pool: CapacityPool): string {
  return `UPDATE ${pool.table} SET ${pool.taken} = ${pool.taken} - ? WHERE ${pool.key} = ? AND ${pool.taken} >= ?`;
}
