import type { SqlStatement } from '../database/sql.js';
import type { CapacityPool } from './capacity-pool.js';

/**
 * Several places asked of a pool's row at once (an order's line), as the module that owns the
 * pool prepared them from what it read: the conditional UPDATEs that take them, for a transaction
 * that takes the places of other claims too (Capacity.takeAll).
 */
export interface PlaceClaim {
  /** Conditional UPDATEs, in the order they run: each must change a row, or nothing is kept. */
  readonly guards: readonly SqlStatement[];
  /** The pool row the guards write first: its turn is taken (pools with turns) and rows are locked in its order. */
  readonly row: { readonly pool: CapacityPool; readonly key: string };
  /**
   * What the claim was prepared from, as read (an event's version, a day's hours): a claim
   * prepared again with the same stamp was refused for want of places, not for a change.
   */
  readonly stamp: string;
  /** The places left as read: the smaller of the claim's bounds; null: no bound. */
  readonly left: number | null;
}
