import type { SpecialEvent } from './special-event.entity.js';

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

/**
 * Where special events are kept: the one way to their tables (special_events, its date index
 * special_event_dates, cursor_signing_keys). One implementation per database
 * (special-events.repository.sqlite.ts, .mysql.ts) over the SQL text and row mapping they share
 * (special-events.sql.ts); createSpecialEventsRepository picks one. Writes resolve only once the
 * change is durable, keep the date index in the same transaction as the event, and leave the
 * decision about duplicates, missing events and stale versions to the database (its primary key,
 * a conditional UPDATE), never to a check-then-act in code.
 */
export abstract class SpecialEventsRepository {
  /** Stores the event: true, or false when an event with its `eventId` exists already. */
  abstract insert(event: SpecialEvent): Promise<boolean>;

  /**
   * Deletes the event: true, or false when there was none or, given `expected`, when it is no
   * longer that representation (another version, or for an event with a capacity other tickets
   * sold): the database decides, in the DELETE's own condition.
   */
  abstract delete(eventId: string, expected?: ExpectedRepresentation): Promise<boolean>;

  /** The stored event, or null. */
  abstract find(eventId: string): Promise<SpecialEvent | null>;

  /**
   * At most `query.limit` events, in list order. With a range, the walk of the date index stops
   * after LIST_WALK_ROWS rows (where the database allows it to be bounded: SQLite and MariaDB);
   * a page cut short by that bound says where it stopped (`resumeAt`).
   */
  abstract list(query: ListQuery): Promise<ListResult>;

  /**
   * Replaces the stored event by `event` if its version is still `expectedVersion` and, when
   * `event.capacity` is not null or `soldUnchanged`, its tickets sold are still `event.ticketsSold`
   * (and at most that capacity): true, or false when not (updated meanwhile, deleted, a ticket
   * sold meanwhile, or the capacity below the tickets sold). `event.version` is the new version;
   * tickets sold are kept.
   */
  abstract update(event: SpecialEvent, expectedVersion: number, soldUnchanged?: boolean): Promise<boolean>;

  /** The keys that sign list cursors, oldest first (the last one signs). */
  abstract cursorSigningKeys(): Promise<StoredCursorKey[]>;
}

/** A row of `cursor_signing_keys`: a key's id and its secret (base64url). */
export interface StoredCursorKey {
  readonly keyId: string;
  readonly secret: string;
}
