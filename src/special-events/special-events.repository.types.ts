import type { SpecialEvent } from './special-event.entity.js';

/*
 * The shapes the repository's callers and its SQL share (special-events.repository.ts re-exports them).
 */

/**
 * What a list asks for: the events with an ISO date in [start, end] (either bound optional; with
 * neither, every event), in list order, from `after` on (keyset) or skipping `offset` events.
 */
export interface ListQuery {
  readonly start?: string;
  readonly end?: string;
  readonly after?: ListPosition;
  /** With a range: walk the date index no further than this row (inclusive). */
  readonly upTo?: ListPosition;
  readonly offset?: number;
  readonly limit: number;
}

/**
 * The most date rows one page of a ranged list walks. Events with many dates in the range have
 * rows that are not their first in it, and are skipped; without a bound, the last page of 10,000
 * events with 100 dates each walked a million rows (seconds, holding SQLite's event loop). A page
 * whose walk reaches the bound comes back short, with `resumeAt`: the next page continues there.
 */
export const LIST_WALK_ROWS = 2_000;

/** A page of a list: the events found and, when the walk stopped at its bound, where to go on. */
export interface ListResult {
  readonly events: ListedEvent[];
  readonly resumeAt?: ListPosition;
}

/**
 * An event's place in a list: its order key (the earliest of its ISO dates in the range asked
 * for; without a range its earliest ISO date, or NO_DATE) and its eventId.
 */
export interface ListPosition {
  readonly key: string;
  readonly eventId: string;
}

/** What a conditional delete requires of the stored event: what its ETag names. */
export interface ExpectedRepresentation {
  readonly version: number;
  readonly ticketsSold: number;
}

export interface ListedEvent {
  readonly event: SpecialEvent;
  readonly position: ListPosition;
}

/** A row of `cursor_signing_keys`: a key's id and its secret (base64url). */
export interface StoredCursorKey {
  readonly keyId: string;
  readonly secret: string;
}
