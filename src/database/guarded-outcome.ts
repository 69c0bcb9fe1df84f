/*
 * What a guarded transaction (Sql.guardedTransaction) answers, and how a refusal by a later guard
 * undoes the earlier guards' writes: by a throw that rolls the transaction back, caught as the outcome.
 */

/** What a guarded transaction did: the rows each later statement changed, or the guard that refused. */
export type GuardedOutcome = { readonly changed: number[] } | { readonly refusedBy: number };

/** A later guard of a guarded transaction changed no row: thrown, so that the earlier guards' writes are undone. */
class GuardRefused extends Error {
  constructor(readonly index: number) {
    super('a later guard changed no row');
  }
}

/** The answer of a transaction whose guard `index` changed no row: the first wrote nothing, a later one undoes. */
export function refused(index: number): GuardedOutcome {
  if (index === 0) return { refusedBy: 0 };
  throw new GuardRefused(index);
}

export function refusedAsOutcome(write: Promise<GuardedOutcome>): Promise<GuardedOutcome> {
  return write.catch((error: unknown) => {
    if (error instanceof GuardRefused) return { refusedBy: error.index };
    throw error;
  });
}
