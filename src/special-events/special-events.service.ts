import { Injectable } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import { uuidv7 } from '../domain/time-ordered-ids.js';
import { placesLeft } from '../capacity/capacity-pool.js';
import type { SqlStatement } from '../database/sql.js';
import { indexedDates, sortDateOf } from '../domain/calendar-dates.js';
import { sessionItems } from '../domain/event-sessions.js';
import { storedPriceList } from '../domain/price-categories.js';
import { CursorSigningKeys } from './cursor-signing-keys.js';
import { availabilityOf, type DateAvailability, dateOverLimit, seatKeys } from './date-seats.js';
import { EventSeats, type TicketReservation } from './event-seats.js';
import { EventWriteParticipants } from './event-write-participants.js';
import { cursorKeyId, decodeCursor, encodeCursor, type ListRange } from './list-cursor.js';
import { SpecialEvent } from './special-event.entity.js';
import { SpecialEventRefusal } from './special-events.refusals.js';
import { type ListPosition, SpecialEventsRepository } from './special-events.repository.js';
import {
  type EventPrecondition,
  type EventRevision,
  LIST_LIMIT,
  type ListQuery,
  MAX_OFFSET,
  type NewSpecialEvent,
  NULLABLE,
  type Nullable,
  type SpecialEventChanges,
  UPDATABLE,
  type Updatable,
} from './special-events.types.js';

/** The columns a new event may leave out: every nullable one (null), and the tickets sold (0). */
type OptionalColumn = Nullable | 'ticketsSold';

/**
 * Attempts of an update without a `matches` precondition whose event changed between its read and its
 * conditional write; each attempt re-reads and re-applies the patch, so no concurrent change is
 * lost. Only a storm of concurrent writes to one event exhausts them (503, retry).
 */
const UPDATE_ATTEMPTS = 10;

export type { TicketReservation } from './event-seats.js';

/** One page of a list, and the cursor of the next page when there is one. */
export interface ListPage {
  readonly events: SpecialEvent[];
  readonly range: ListRange;
  readonly limit: number;
  readonly nextCursor?: string;
}

/** What is left of an event's capacity (never below 0), or undefined without a capacity. */
export function ticketsAvailable(event: SpecialEvent): number | undefined {
  return placesLeft(event.capacity, event.ticketsSold);
}

/**
 * The first version of a new event: random, so that an event deleted and created again under the
 * same eventId never repeats a tag a client may still hold (2^47 values; updates add one).
 */
function firstVersion(): number {
  return randomInt(1, 2 ** 47);
}

/**
 * An event with its derived columns (list order key) computed from its fields; without tickets
 * sold, 0, and without a nullable field (a capacity, a duration…), null (a new event).
 */
export function withDerivedColumns(
  fields: Omit<SpecialEvent, 'version' | 'sortDate' | OptionalColumn> & Partial<Pick<SpecialEvent, OptionalColumn>>,
  version: number,
): SpecialEvent {
  const event = {
    ...fields,
    ticketsSold: fields.ticketsSold ?? 0,
    version,
    sortDate: sortDateOf(indexedDates(fields.dates)),
  } as Record<keyof SpecialEvent, unknown>;
  for (const property of NULLABLE) event[property] ??= null;
  // An empty price list is stored as none, so that it reads as an event without prices.
  event.prices = storedPriceList(fields.prices);
  return event as SpecialEvent;
}

/**
 * The fields of `asked` a create or an update may set. Absent is no change, and so is null for a
 * field that cannot be null; null removes a limit or a duration.
 */
function updatableOf(asked: SpecialEventChanges): Partial<Pick<SpecialEvent, Updatable>> {
  const fields: Partial<Record<Updatable, unknown>> = {};
  for (const property of UPDATABLE) {
    const value = asked[property];
    if (value !== undefined && (value !== null || NULLABLE.has(property as Nullable))) fields[property] = value;
  }
  return fields as Partial<Pick<SpecialEvent, Updatable>>;
}

@Injectable()
export class SpecialEventsService {
  constructor(
    private readonly store: SpecialEventsRepository,
    private readonly cursorKeys: CursorSigningKeys,
    private readonly seats: EventSeats,
    private readonly participants: EventWriteParticipants,
  ) {}

  /**
   * Stores the event and returns it as stored, once durable. A duplicate id is decided by the
   * primary key, so of concurrent creates with one id exactly one succeeds.
   */
  async create(dto: NewSpecialEvent): Promise<SpecialEvent> {
    const event = withDerivedColumns(
      { ...(updatableOf(dto) as NewSpecialEvent), eventId: dto.eventId ?? uuidv7() },
      firstVersion(),
    );
    if (!(await this.store.insert(event))) {
      throw new SpecialEventRefusal('exists', { eventId: event.eventId });
    }
    return event;
  }

  /**
   * Deletes the event. With a `matches` precondition, only the revision read, when it matches:
   * the DELETE itself requires that version (and tickets sold), so an update or a sale between the
   * read and the delete makes it a `stale-if-match`, decided by the database. Without the event,
   * `not-found` whatever the precondition (RFC 9110 §13.2.1).
   */
  async delete(eventId: string, precondition: EventPrecondition = {}): Promise<void> {
    const { matches } = precondition;
    if (matches === undefined) {
      if (!(await this.store.delete(eventId))) throw notFound(eventId);
      return;
    }
    const current = await this.get(eventId);
    if (!matches(current)) throw staleTag(current);
    const expected = { version: current.version, ticketsSold: current.ticketsSold };
    if (await this.store.delete(eventId, expected)) return;
    const after = await this.store.find(eventId);
    if (!after) throw notFound(eventId);
    throw staleTag(after);
  }

  async get(eventId: string): Promise<SpecialEvent> {
    const event = await this.store.find(eventId);
    if (!event) throw notFound(eventId);
    return event;
  }

  /**
   * One page of the events matching the range, in list order. Pages are found by keyset (the
   * cursor) or by offset (`page`, bounded by MAX_OFFSET); either way the next page's cursor is
   * given, so a client can switch to the links at any point.
   */
  async list(query: ListQuery): Promise<ListPage> {
    const range: ListRange = { start: query.startDate, end: query.endDate };
    const limit = query.limit ?? LIST_LIMIT.default;
    const errors = [];
    if (range.start !== undefined && range.end !== undefined && range.start > range.end) {
      errors.push({ field: 'endDate', message: `endDate must not be before startDate (${range.start})` });
    }
    if (query.page !== undefined && query.cursor !== undefined) {
      errors.push({
        field: 'page',
        message: 'page cannot be combined with cursor: the cursor already says where to go on',
      });
    } else if (query.page !== undefined && (query.page - 1) * limit > MAX_OFFSET) {
      errors.push({
        field: 'page',
        message: `page may skip at most ${MAX_OFFSET} events ((page - 1) * limit), this one skips ${(query.page - 1) * limit}; to read further, follow the Link rel="next" headers (the cursor parameter)`,
      });
    }
    let after: ListPosition | null | undefined;
    if (query.cursor !== undefined) {
      const keyId = cursorKeyId(query.cursor);
      after = decodeCursor(query.cursor, range, keyId === null ? undefined : await this.cursorKeys.verifying(keyId));
    }
    if (after === null) {
      errors.push({
        field: 'cursor',
        message:
          'cursor is not one this service issued for this startDate and endDate: follow the Link header as given',
      });
    }
    if (errors.length > 0) throw new SpecialEventRefusal('invalid', { errors });
    const offset = query.page === undefined ? 0 : (query.page - 1) * limit;
    const { events: rows, resumeAt } = await this.store.list({
      ...range,
      after: after ?? undefined,
      offset,
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    // A full page goes on after its last event; a page cut short by the walk's bound goes on
    // where the walk stopped (LIST_WALK_ROWS), so no event is skipped or repeated.
    const next = rows.length > limit && last ? last.position : resumeAt;
    return {
      events: page.map(({ event }) => event),
      range,
      limit,
      nextCursor: next ? encodeCursor(next, range, this.cursorKeys.signing()) : undefined,
    };
  }

  /**
   * Applies the patch to the stored event and returns the event as stored. The write is a
   * conditional UPDATE on the version read, so the database decides between concurrent updates:
   * with a `matches` precondition, one whose revision went stale meanwhile is refused
   * (`stale-if-match`); without, the patch is applied again to the fresh state.
   *
   * For an event with a capacity the revision covers the tickets sold too, so a sale since it was
   * read makes it stale, and the UPDATE also requires the tickets sold read: the answer's
   * ticketsAvailable is exact. A capacity below the tickets sold is refused by the same UPDATE
   * (409), never by a check in code.
   *
   * An `excludes` precondition that accepts the current revision refuses the change
   * (`if-none-match-current`, RFC 9110 §13.1.2): a client that meant "only if it does not exist"
   * never overwrites.
   */
  async update(
    eventId: string,
    patch: SpecialEventChanges,
    precondition: EventPrecondition = {},
  ): Promise<SpecialEvent> {
    const { matches, excludes } = precondition;
    if (patch.eventId !== undefined && patch.eventId !== null && patch.eventId !== eventId) {
      throw new SpecialEventRefusal('invalid', {
        errors: [{ field: 'eventId', message: `eventId cannot change: give ${eventId} (the path's) or leave it out` }],
      });
    }
    const changes = updatableOf(patch);
    if (!UPDATABLE.some((property) => patch[property] !== undefined)) {
      throw new SpecialEventRefusal('invalid', {
        errors: [{ field: 'body', message: `body must name at least one field to change: ${UPDATABLE.join(', ')}` }],
      });
    }
    for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt++) {
      // Each attempt, from its read to its write, in the event's turn with this instance's sales
      // (EventSeats.inTurn): a stream of them would otherwise change the tickets sold between
      // every read and write.
      const updated = await this.seats.inTurn(eventId, async () => {
        const current = await this.get(eventId);
        if (matches !== undefined && !matches(current)) throw staleTag(current);
        if (excludes?.(current))
          throw new SpecialEventRefusal('if-none-match-current', { current: revisionOf(current) });
        const next = withDerivedColumns(Object.assign({}, current, changes), current.version + 1);
        // Dates this update removes, and sessions it moves or removes (a session item no longer
        // written as it was), may not have tickets: looked for now, and the UPDATE then requires
        // the tickets sold read with `current` (a sale since could be for one of them).
        const kept = new Set(indexedDates(next.dates));
        const removed = indexedDates(current.dates).filter((date) => !kept.has(date));
        const keptSessions = new Set(sessionItems(next.dates));
        const removedSessions = sessionItems(current.dates).filter((item) => !keptSessions.has(item));
        const inUse = [
          ...(await this.participants.datesInUse(eventId, removed)),
          ...(await this.participants.sessionsInUse(eventId, removedSessions)),
        ];
        if (inUse.length > 0) {
          throw new SpecialEventRefusal('dates-have-tickets', { dates: [...new Set(inUse)].sort() });
        }
        // A limit per date below a date's or a session's tickets sold: read after `current`, and the
        // UPDATE then requires the tickets sold read with it, so no sale since can slip past the look.
        const over = dateOverLimit(seatKeys(next.dates), next.capacityPerDate, await this.soldPerDate(next));
        if (over !== null && next.capacityPerDate !== null) {
          throw new SpecialEventRefusal('capacity-per-date-below-sold', {
            ...over,
            capacityPerDate: next.capacityPerDate,
          });
        }
        const soldUnchanged = removed.length > 0 || removedSessions.length > 0 || next.capacityPerDate !== null;
        if (await this.store.update(next, current.version, soldUnchanged, current.dates)) return next;
        // Why the UPDATE changed nothing: deleted (404), the capacity below the tickets sold at the
        // version read (409), or a change meanwhile (an update, or a sale): try again on the fresh state.
        const after = await this.get(eventId);
        if (after.version === current.version && next.capacity !== null && after.ticketsSold > next.capacity) {
          throw new SpecialEventRefusal('capacity-below-sold', { capacity: next.capacity, sold: after.ticketsSold });
        }
        return undefined;
      });
      if (updated) return updated;
    }
    throw new SpecialEventRefusal('busy', {});
  }

  /**
   * Takes one seat of the event on `date`, of its session at `time` on a date with sessions, with
   * `joined` (EventSeats.reserve, which says how).
   */
  reserveTicket(
    eventId: string,
    date: string,
    joined: (event: SpecialEvent, time: string | null) => readonly SqlStatement[],
    time?: string,
  ): Promise<TicketReservation> {
    return this.seats.reserve(eventId, date, time, joined);
  }

  /** The event's ISO date items with their tickets sold and available (date-seats.ts). */
  async availability(eventId: string): Promise<DateAvailability[]> {
    const event = await this.get(eventId);
    return availabilityOf(event, await this.store.soldPerDate(eventId));
  }

  /** The tickets sold per date of an event with a limit per date (none looked for without one). */
  private soldPerDate(event: SpecialEvent): Promise<ReadonlyMap<string, number>> {
    return event.capacityPerDate === null ? Promise.resolve(new Map()) : this.store.soldPerDate(event.eventId);
  }

  /**
   * Runs `cancel` (a ticket's conditional UPDATE) and, only when it changed a row, gives one seat
   * of event `eventId` back in the same transaction, and one of the ticket's date or session (its
   * `time`), so it can be sold again: whether it ran.
   */
  returnTicket(eventId: string, cancel: SqlStatement, date: string, time: string | null): Promise<boolean> {
    return this.seats.giveBack(eventId, cancel, date, time);
  }
}

function staleTag(current: SpecialEvent): SpecialEventRefusal {
  return new SpecialEventRefusal('stale-if-match', { current: revisionOf(current) });
}

/** What a refusal tells of the event's revision: no more than its entity tag names. */
function revisionOf({ version, capacity, ticketsSold }: SpecialEvent): EventRevision {
  return { version, capacity, ticketsSold };
}

function notFound(eventId: string): SpecialEventRefusal {
  return new SpecialEventRefusal('not-found', { eventId });
}
