import { columnDetailsOf } from '../database/entity-columns.js';
import { SpecialEvent } from './special-event.entity.js';

/**
 * What SpecialEventsService takes and returns besides SpecialEvent itself: the controller maps its
 * DTOs to these (a DTO class that has the same fields satisfies them as it is) and the service's
 * answers to responses, so the service knows no request or response shape.
 */

/** The event as other features' services see it (the entity's type, not its table). */
export type { SpecialEvent };

export const LIST_LIMIT = { min: 1, max: 100, default: 10 } as const;
/**
 * The most events a `page` may skip ((page − 1) × limit): skipping costs time in proportion, so
 * deeper offsets are refused, and the `next` links (keyset) cost the same at any depth.
 */
export const MAX_OFFSET = 10_000;

/**
 * The columns the service derives (the id, the version, the list order key) or the seats count
 * (the tickets sold): no create or update sets them. Every other column of the entity is one they
 * may set.
 */
type Derived = 'eventId' | 'version' | 'sortDate' | 'ticketsSold';

/** A property a create or an update may set. */
export type Updatable = Exclude<keyof SpecialEvent, Derived>;

/** A property that may be null (no limit, no duration): absent from a new event, it is null. */
export type Nullable = { [K in keyof SpecialEvent]-?: null extends SpecialEvent[K] ? K : never }[keyof SpecialEvent];

const COLUMNS = columnDetailsOf(SpecialEvent);
const DERIVED: readonly string[] = ['eventId', 'version', 'sortDate', 'ticketsSold'] satisfies Derived[];

/** The properties a create or an update may set, in the entity's order (so a new column is one of them). */
export const UPDATABLE: readonly Updatable[] = COLUMNS.filter(({ property }) => !DERIVED.includes(property)).map(
  ({ property }) => property as Updatable,
);

/** The properties that may be null, as the entity's columns say. */
export const NULLABLE: ReadonlySet<Nullable> = new Set(
  COLUMNS.filter(({ nullable }) => nullable).map(({ property }) => property as Nullable),
);

/** A new event as asked for; without an eventId (absent or null) the service draws one. */
export type NewSpecialEvent = Pick<SpecialEvent, Exclude<Updatable, Nullable>> &
  Partial<Pick<SpecialEvent, Nullable & Updatable>> & { readonly eventId?: string | null };

/**
 * A change of an event: each field given replaces the stored one (null removes a limit or a
 * duration); `eventId`, when given, must be the event's own.
 */
export type SpecialEventChanges = Partial<Pick<SpecialEvent, Updatable>> & {
  readonly eventId?: string | null;
};

/** Which events a list asks for, and which page. */
export interface ListQuery {
  readonly startDate?: string;
  readonly endDate?: string;
  readonly page?: number;
  readonly limit?: number;
  readonly cursor?: string;
}

/** What a representation of an event depends on besides its fields: whatever an entity tag names. */
export type EventRevision = Pick<SpecialEvent, 'version' | 'capacity' | 'ticketsSold'>;

/**
 * What a change asks of the event as stored, decided on the event read before the write (the
 * controller builds it from If-Match and If-None-Match). `matches`: the change applies only to an
 * event it accepts (else `stale-if-match`), and a delete then requires that very revision;
 * `excludes`: the change is refused for an event it accepts (`if-none-match-current`).
 */
export interface EventPrecondition {
  readonly matches?: (current: EventRevision) => boolean;
  readonly excludes?: (current: EventRevision) => boolean;
}
