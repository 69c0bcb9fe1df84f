import type { Capacity } from '../capacity/capacity.js';
import type { SqlStatement } from '../database/sql.js';
import { indexedDates } from '../domain/calendar-dates.js';
import { sessionChoice } from '../domain/event-sessions.js';
import { dateFull } from './date-seats.js';
import type { SpecialEvent } from './special-event.entity.js';
import type { SpecialEventsRepository } from './special-events.repository.js';
import { SpecialEventRefusal } from './special-events.refusals.js';
import { EVENT_SEATS, GIVE_DATE_SEAT_SQL, TAKE_DATE_SEAT_SQL } from './special-events.sql.js';
import { GIVE_SESSION_SEAT_SQL, TAKE_SESSION_SEAT_SQL } from './session-seats.sql.js';

/**
 * Attempts of a reservation whose event was updated between its read and its conditional write
 * (sales alone never move the version, so only a storm of updates exhausts them: 503, retry).
 */
const RESERVE_ATTEMPTS = 10;

/** What a reservation did (EventSeats.reserve). */
export type TicketReservation =
  /** `time`: the session's start (`HH:MM`), or null for a ticket of a date without sessions. */
  | { readonly outcome: 'reserved'; readonly event: SpecialEvent; readonly time: string | null }
  | { readonly outcome: 'no-event' }
  | { readonly outcome: 'not-a-date'; readonly dates: readonly string[] }
  /** A date with several sessions and no time given: its sessions' times. */
  | { readonly outcome: 'time-required'; readonly times: readonly string[] }
  /** A time that is no session of the date: the date's sessions' times (none: it has none). */
  | { readonly outcome: 'unknown-time'; readonly times: readonly string[] }
  | { readonly outcome: 'sold-out'; readonly capacity: number }
  | {
      readonly outcome: 'date-sold-out';
      readonly date: string;
      readonly time: string | null;
      readonly capacityPerDate: number;
    };

/** One seat asked of an event: its date and, for a session, the session's item (`YYYY-MM-DDTHH:MM`). */
export interface SeatOf {
  readonly date: string;
  readonly time: string | null;
  readonly item: string | null;
}

/**
 * The seats of special events: a capacity pool (EVENT_SEATS) whose row is the event's, taken
 * through Capacity, so that the database decides each seat with one conditional UPDATE and the
 * statements that go with it (a ticket row) commit with it or not at all; in the same
 * transaction, a second conditional UPDATE takes the seat of the date (TAKE_DATE_SEAT_SQL) or of
 * the session (TAKE_SESSION_SEAT_SQL), against capacityPerDate, so both bounds hold together or
 * the sale is undone.
 */
export class EventSeats {
  constructor(
    private readonly capacity: Capacity,
    private readonly store: SpecialEventsRepository,
  ) {}

  /**
   * Takes one seat of event `eventId` on `date` (one of its ISO dates) when its capacity and its
   * capacityPerDate (if any) are not reached, and runs `joined(event, time)` in the same
   * transaction, only when reserved: `event` is the event as read for this attempt, so a ticket
   * keeps the price in force at the moment of purchase, and `time` the session's start. On a date
   * with sessions the seat is a session's (sessionChoice: the one at `time`, or the only one), and
   * capacityPerDate bounds that session alone. The database decides the limits and that the event
   * is unchanged since it was read (conditional UPDATEs: the event's on its version, the date's or
   * session's on its row); the date and session are of that version. When nothing changed, a
   * fresh read says why; an update in between is tried again, up to RESERVE_ATTEMPTS times (then
   * 503, retry). A sale changes neither the version nor announces anything (no webhook): only
   * ticketsAvailable and, for an event with a capacity, the ETag.
   */
  async reserve(
    eventId: string,
    date: string,
    time: string | undefined,
    joined: (event: SpecialEvent, time: string | null) => readonly SqlStatement[],
  ): Promise<TicketReservation> {
    let event = await this.store.find(eventId);
    for (let attempt = 0; attempt < RESERVE_ATTEMPTS; attempt++) {
      if (!event) return { outcome: 'no-event' };
      const dates = indexedDates(event.dates);
      if (!dates.includes(date)) return { outcome: 'not-a-date', dates };
      const choice = sessionChoice(event.dates, date, time);
      if (choice.kind === 'time-required' || choice.kind === 'unknown-time') {
        return { outcome: choice.kind, times: choice.times };
      }
      const seat: SeatOf =
        choice.kind === 'session'
          ? { date, time: choice.session.time, item: choice.item }
          : { date, time: null, item: null };
      // A date or session sold out as read is refused without a write: its tickets sold never go down.
      if (event.capacityPerDate !== null && dateFull(event, await this.soldOf(eventId, seat))) {
        return { outcome: 'date-sold-out', date, time: seat.time, capacityPerDate: event.capacityPerDate };
      }
      if (await this.take(event, seat, joined(event, seat.time)))
        return { outcome: 'reserved', event, time: seat.time };
      const after = await this.store.find(eventId);
      if (after && after.version === event.version) {
        if (after.capacity !== null && after.ticketsSold >= after.capacity) {
          return { outcome: 'sold-out', capacity: after.capacity };
        }
        if (after.capacityPerDate !== null && dateFull(after, await this.soldOf(eventId, seat))) {
          return { outcome: 'date-sold-out', date, time: seat.time, capacityPerDate: after.capacityPerDate };
        }
      }
      event = after;
    }
    throw new SpecialEventRefusal('busy', {});
  }

  private soldOf(eventId: string, seat: SeatOf): Promise<number> {
    return seat.item === null ? this.store.soldOn(eventId, seat.date) : this.store.soldAt(eventId, seat.item);
  }

  /**
   * Takes one seat of `event` (as read) on the seat's date or session and runs `joined` with it:
   * true, or false (nothing ran): only while the event still exists at the version read, the date
   * (or session) is one of its own, its capacity, if any, is not reached, and neither is its
   * capacityPerDate on that date or session. On MySQL/MariaDB an instance takes one seat of an
   * event at a time (Capacity.inTurn).
   */
  take(event: SpecialEvent, seat: SeatOf, joined: readonly SqlStatement[]): Promise<boolean> {
    const also =
      seat.item === null
        ? {
            sql: TAKE_DATE_SEAT_SQL,
            parameters: [seat.date, event.eventId, event.capacityPerDate, event.capacityPerDate],
          }
        : {
            sql: TAKE_SESSION_SEAT_SQL,
            parameters: [event.eventId, seat.item, event.capacityPerDate, event.capacityPerDate],
          };
    return this.capacity.take(
      {
        pool: EVENT_SEATS,
        key: event.eventId,
        parameters: [event.version],
        asRead: { limit: event.capacity, taken: event.ticketsSold },
        also: [also],
      },
      joined,
    );
  }

  /**
   * Gives one seat of event `eventId` back when `cancel` (a ticket's conditional UPDATE) changes a
   * row, in the same transaction, and the seat of the ticket's date (`time` null) or session with
   * it, so that capacityPerDate sells it again: whether it did. An event deleted since has no row
   * to give to; a ticket sold with no time on a date that has sessions now was counted on its date,
   * and is given back there.
   */
  giveBack(eventId: string, cancel: SqlStatement, date: string, time: string | null): Promise<boolean> {
    const seat =
      time === null
        ? { sql: GIVE_DATE_SEAT_SQL, parameters: [date, eventId] }
        : { sql: GIVE_SESSION_SEAT_SQL, parameters: [eventId, `${date}T${time}`] };
    return this.capacity.giveBack(EVENT_SEATS, eventId, cancel, [seat]);
  }

  /** Runs `work` in the event's turn with this instance's seat transactions (MySQL/MariaDB; SQLite at once). */
  inTurn<T>(eventId: string, work: () => Promise<T>): Promise<T> {
    return this.capacity.inTurn(EVENT_SEATS, eventId, work);
  }
}
