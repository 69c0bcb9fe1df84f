import { Injectable } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import { uuidv7 } from '../domain/time-ordered-ids.js';
import { placesLeft } from '../capacity/capacity-pool.js';
import { ifMatchSatisfied, ifNoneMatchFound } from '../common/http/entity-tags.js';
import type { SqlStatement } from '../database/sql.js';
import type { CreateSpecialEventDto } from './dto/create-special-event.dto.js';
import { LIST_LIMIT, type ListSpecialEventsQuery, MAX_OFFSET } from './dto/list-special-events-query.dto.js';
import type { SpecialEventResponse } from './dto/special-event-response.dto.js';
import type { UpdateSpecialEventDto } from './dto/update-special-event.dto.js';
import { indexedDates, sortDateOf } from '../domain/calendar-dates.js';
import { CursorSigningKeys } from './cursor-signing-keys.js';
import { availabilityOf, type DateAvailability, dateOverLimit } from './date-seats.js';
import { EventSeats, type TicketReservation } from './event-seats.js';
import { EventWriteParticipants } from './event-write-participants.js';
import { cursorKeyId, decodeCursor, encodeCursor, type ListRange } from './list-cursor.js';
import { SpecialEvent } from './special-event.entity.js';
import { SpecialEventRefusal } from './special-events.refusals.js';
import { type ListPosition, SpecialEventsRepository } from './special-events.repository.js';

/** The fields a PATCH may change. */
const UPDATABLE = [
  'name',
  'location',
  'eventDescription',
  'dates',
  'price',
  'capacity',
  'durationMinutes',
  'capacityPerDate',
] as const;

/** The columns a new event may leave out. */
type OptionalColumn = 'capacity' | 'ticketsSold' | 'durationMinutes' | 'capacityPerDate';

/**
 * Attempts of an update without If-Match whose event changed between its read and its
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

/**
 * The fields everyone who may read an event sees, in the order they see them; `durationMinutes`
 * only for an event with one.
 */
function sharedFields(event: SpecialEvent): SpecialEventResponse {
  const response: SpecialEventResponse = {
    eventId: event.eventId,
    name: event.name,
    location: event.location,
    eventDescription: event.eventDescription,
    dates: event.dates,
    price: event.price,
  };
  if (event.durationMinutes !== null) response.durationMinutes = event.durationMinutes;
  return response;
}

/**
 * The fields a client sees, in the order it sees them (the stored version travels as the ETag).
 * `capacity` and `ticketsAvailable` only for an event with a capacity: an event without one looks
 * exactly as the Museum API's SpecialEvent.
 */
export function toResponse(event: SpecialEvent): SpecialEventResponse {
  const response = sharedFields(event);
  if (event.capacity !== null) {
    response.capacity = event.capacity;
    response.ticketsAvailable = ticketsAvailable(event);
  }
  if (event.capacityPerDate !== null) response.capacityPerDate = event.capacityPerDate;
  return response;
}

/**
 * What a caller without credentials sees (public read): the event without its capacity, which
 * with ticketsAvailable would tell anyone the tickets sold. One object per event, as toResponse.
 */
export function toPublicResponse(event: SpecialEvent): SpecialEventResponse {
  const response = sharedFields(event);
  if (event.capacity !== null) response.ticketsAvailable = ticketsAvailable(event);
  return response;
}

/** What is left of an event's capacity (never below 0), or undefined without a capacity. */
export function ticketsAvailable(event: SpecialEvent): number | undefined {
  return placesLeft(event.capacity, event.ticketsSold);
}

/**
 * The strong ETag of a stored event's representation: its version, and for an event with a
 * capacity the tickets sold too (its body shows ticketsAvailable, which a sale changes without a
 * new version), so that no sale leaves a stale 304 behind.
 */
export function etagOf(event: SpecialEvent): string {
  const version = event.version.toString(36);
  return event.capacity === null ? `"${version}"` : `"${version}-${event.ticketsSold.toString(36)}"`;
}

/**
 * The first version of a new event: random, so that an event deleted and created again under the
 * same eventId never repeats a tag a client may still hold (2^47 values; updates add one).
 */
function firstVersion(): number {
  return randomInt(1, 2 ** 47);
}

/**
 * An event with its derived columns (list order key) computed from its fields; without a capacity,
 * tickets sold, a duration and a capacity per date: none, 0, none and none (a new event).
 */
export function withDerivedColumns(
  fields: Omit<SpecialEvent, 'version' | 'sortDate' | OptionalColumn> & Partial<Pick<SpecialEvent, OptionalColumn>>,
  version: number,
): SpecialEvent {
  return {
    ...fields,
    capacity: fields.capacity ?? null,
    ticketsSold: fields.ticketsSold ?? 0,
    durationMinutes: fields.durationMinutes ?? null,
    capacityPerDate: fields.capacityPerDate ?? null,
    version,
    sortDate: sortDateOf(indexedDates(fields.dates)),
  };
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
  async create(dto: CreateSpecialEventDto): Promise<SpecialEvent> {
    const event = withDerivedColumns(
      {
        eventId: dto.eventId ?? uuidv7(),
        name: dto.name,
        location: dto.location,
        eventDescription: dto.eventDescription,
        dates: dto.dates,
        price: dto.price,
        capacity: dto.capacity ?? null,
        durationMinutes: dto.durationMinutes ?? null,
        capacityPerDate: dto.capacityPerDate ?? null,
      },
      firstVersion(),
    );
    if (!(await this.store.insert(event))) {
      throw new SpecialEventRefusal('exists', { eventId: event.eventId });
    }
    return event;
  }

  /**
   * Deletes the event. With If-Match naming tags (not `*`, which any existing event satisfies), only
   * the representation read, when the header names it: the DELETE itself requires that version
   * (and tickets sold), so an update or a sale between the read and the delete makes it a 412,
   * decided by the database. Without the event, 404 whatever the header (RFC 9110 §13.2.1).
   */
  async delete(eventId: string, ifMatchHeader?: string): Promise<void> {
    const ifMatch = ifMatchHeader?.trim() ? ifMatchHeader : undefined;
    if (ifMatch === undefined || ifMatch.trim() === '*') {
      if (!(await this.store.delete(eventId))) throw notFound(eventId);
      return;
    }
    const current = await this.get(eventId);
    if (!ifMatchSatisfied(ifMatch, etagOf(current))) throw staleTag(current);
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
  async list(query: ListSpecialEventsQuery): Promise<ListPage> {
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
   * with If-Match, one whose tag went stale meanwhile gets 412; without, the patch is applied
   * again to the fresh state. An empty If-Match (an empty list of tags) is taken as absent.
   *
   * For an event with a capacity the tag covers the tickets sold too, so a sale since the tag was
   * issued makes it stale (412), and the UPDATE also requires the tickets sold read: the answer's
   * ticketsAvailable is exact. A capacity below the tickets sold is refused by the same UPDATE
   * (409), never by a check in code.
   *
   * If-None-Match naming the current tag, or `*` (any existing event), is a 412 (RFC 9110
   * §13.1.2): a client that meant "only if it does not exist" never overwrites.
   */
  async update(
    eventId: string,
    patch: UpdateSpecialEventDto,
    ifMatchHeader?: string,
    ifNoneMatchHeader?: string,
  ): Promise<SpecialEvent> {
    const ifMatch = ifMatchHeader?.trim() ? ifMatchHeader : undefined;
    const ifNoneMatch = ifNoneMatchHeader?.trim() ? ifNoneMatchHeader : undefined;
    if (patch.eventId !== undefined && patch.eventId !== null && patch.eventId !== eventId) {
      throw new SpecialEventRefusal('invalid', {
        errors: [{ field: 'eventId', message: `eventId cannot change: give ${eventId} (the path's) or leave it out` }],
      });
    }
    const changes: Partial<Pick<SpecialEvent, (typeof UPDATABLE)[number]>> = {};
    for (const field of UPDATABLE) if (patch[field] !== undefined) Object.assign(changes, { [field]: patch[field] });
    if (Object.keys(changes).length === 0) {
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
        if (ifMatch !== undefined && !ifMatchSatisfied(ifMatch, etagOf(current))) throw staleTag(current);
        if (ifNoneMatch !== undefined && ifNoneMatchFound(ifNoneMatch, etagOf(current))) {
          throw new SpecialEventRefusal('if-none-match-current', { etag: etagOf(current) });
        }
        const next = withDerivedColumns(
          {
            eventId,
            name: changes.name ?? current.name,
            location: changes.location ?? current.location,
            eventDescription: changes.eventDescription ?? current.eventDescription,
            dates: changes.dates ?? current.dates,
            price: changes.price ?? current.price,
            // null removes the limit; absent keeps it.
            capacity: changes.capacity === undefined ? current.capacity : changes.capacity,
            durationMinutes: changes.durationMinutes === undefined ? current.durationMinutes : changes.durationMinutes,
            capacityPerDate: changes.capacityPerDate === undefined ? current.capacityPerDate : changes.capacityPerDate,
            ticketsSold: current.ticketsSold,
          },
          current.version + 1,
        );
        // Dates this update removes may not have tickets: looked for now, and the UPDATE then
        // requires the tickets sold read with `current` (a sale since could be for a removed date).
        const kept = new Set(indexedDates(next.dates));
        const removed = indexedDates(current.dates).filter((date) => !kept.has(date));
        const inUse = await this.participants.datesInUse(eventId, removed);
        if (inUse.length > 0) {
          throw new SpecialEventRefusal('dates-have-tickets', { dates: inUse });
        }
        // A limit per date below a date's tickets sold: read after `current`, and the UPDATE then
        // requires the tickets sold read with it, so no sale since can slip past the look.
        const over = dateOverLimit(indexedDates(next.dates), next.capacityPerDate, await this.soldPerDate(next));
        if (over !== null && next.capacityPerDate !== null) {
          throw new SpecialEventRefusal('capacity-per-date-below-sold', {
            ...over,
            capacityPerDate: next.capacityPerDate,
          });
        }
        const soldUnchanged = removed.length > 0 || next.capacityPerDate !== null;
        if (await this.store.update(next, current.version, soldUnchanged)) return next;
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

  /** Takes one seat of the event on `date` with `joined` (EventSeats.reserve, which says how). */
  reserveTicket(
    eventId: string,
    date: string,
    joined: (event: SpecialEvent) => readonly SqlStatement[],
  ): Promise<TicketReservation> {
    return this.seats.reserve(eventId, date, joined);
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
   * of event `eventId` back in the same transaction, so it can be sold again: whether it ran.
   */
  returnTicket(eventId: string, cancel: SqlStatement): Promise<boolean> {
    return this.seats.giveBack(eventId, cancel);
  }
}

function staleTag(current: SpecialEvent): SpecialEventRefusal {
  return new SpecialEventRefusal('stale-if-match', { etag: etagOf(current) });
}

function notFound(eventId: string): SpecialEventRefusal {
  return new SpecialEventRefusal('not-found', { eventId });
}
