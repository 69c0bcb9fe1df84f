import type { Capacity } from '../capacity/capacity.js';
import type { SqlStatement } from '../database/sql.js';
import { indexedDates } from '../domain/calendar-dates.js';
import { dateFull } from './date-seats.js';
import type { SpecialEvent } from './special-event.entity.js';
import type { SpecialEventsRepository } from './special-events.repository.js';
import { SpecialEventRefusal } from './special-events.refusals.js';
import { EVENT_SEATS, TAKE_DATE_SEAT_SQL } from './special-events.sql.js';

/**
 * Attempts of a reservation whose event was updated between its read and its conditional write
 * (sales alone never move the version, so only a storm of updates exhausts them: 503, retry).
 */
const RESERVE_ATTEMPTS = 10;

/** What a reservation did (EventSeats.reserve). */
export type TicketReservation =
  | { readonly outcome: 'reserved'; readonly event: SpecialEvent }
  | { readonly outcome: 'no-event' }
  | { readonly outcome: 'not-a-date'; readonly dates: readonly string[] }
  | { readonly outcome: 'sold-out'; readonly capacity: number }
  | { readonly outcome: 'date-sold-out'; readonly date: string; readonly capacityPerDate: number };

/**
 * The seats of special events: a capacity pool (EVENT_SEATS) whose row is the event's, taken
 * through Capacity, so that the database decides each seat with one conditional UPDATE and the
 * statements that go with it (a ticket row) commit with it or not at all; in the same
 * transaction, a second conditional UPDATE takes the seat of the date (TAKE_DATE_SEAT_SQL,
 * against capacityPerDate), so both bounds hold together or the sale is undone.
 */
export class EventSeats {
  constructor(
    private readonly capacity: Capacity,
    private readonly store: SpecialEventsRepository,
  ) {}

  /**
   * Takes one seat of event `eventId` on `date` (one of its ISO dates) when its capacity and its
   * capacityPerDate (if any) are not reached, and runs `joined(event)` in the same transaction,
   * only when reserved: `event` is the event as read for this attempt, so a ticket keeps the price
   * in force at the moment of purchase. The database decides the limits and that the event is
   * unchanged since it was read (conditional UPDATEs: the event's on its version, the date's on
   * its row); the date is one of the ISO dates of that version. When nothing changed, a fresh read
   * says why; an update in between is tried again, up to RESERVE_ATTEMPTS times (then 503, retry).
   * A sale changes neither the version nor announces anything (no webhook): only ticketsAvailable
   * and, for an event with a capacity, the ETag.
   */
  async reserve(
    eventId: string,
    date: string,
    joined: (event: SpecialEvent) => readonly SqlStatement[],
  ): Promise<TicketReservation> {
    let event = await this.store.find(eventId);
    for (let attempt = 0; attempt < RESERVE_ATTEMPTS; attempt++) {
      if (!event) return { outcome: 'no-event' };
      const dates = indexedDates(event.dates);
      if (!dates.includes(date)) return { outcome: 'not-a-date', dates };
      // A date sold out as read is refused without a write: its tickets sold never go down.
      if (event.capacityPerDate !== null && dateFull(event, await this.store.soldOn(eventId, date))) {
        return { outcome: 'date-sold-out', date, capacityPerDate: event.capacityPerDate };
      }
      if (await this.take(event, date, joined(event))) return { outcome: 'reserved', event };
      const after = await this.store.find(eventId);
      if (after && after.version === event.version) {
        if (after.capacity !== null && after.ticketsSold >= after.capacity) {
          return { outcome: 'sold-out', capacity: after.capacity };
        }
        if (after.capacityPerDate !== null && dateFull(after, await this.store.soldOn(eventId, date))) {
          return { outcome: 'date-sold-out', date, capacityPerDate: after.capacityPerDate };
        }
      }
      event = after;
    }
    throw new SpecialEventRefusal('busy', {});
  }

  /**
   * Takes one seat of `event` (as read) on `date` and runs `joined` with it: true, or false
   * (nothing ran): only while the event still exists at the version read, `date` is one of its ISO
   * dates, its capacity, if any, is not reached, and neither is its capacityPerDate on `date`. On
   * MySQL/MariaDB an instance takes one seat of an event at a time (Capacity.inTurn).
   */
  take(event: SpecialEvent, date: string, joined: readonly SqlStatement[]): Promise<boolean> {
    return this.capacity.take(
      {
        pool: EVENT_SEATS,
        key: event.eventId,
        parameters: [event.version],
        asRead: { limit: event.capacity, taken: event.ticketsSold },
        also: [
          {
            sql: TAKE_DATE_SEAT_SQL,
            parameters: [date, event.eventId, event.capacityPerDate, event.capacityPerDate],
          },
        ],
      },
      joined,
    );
  }

  /** Runs `work` in the event's turn with this instance's seat transactions (MySQL/MariaDB; SQLite at once). */
  inTurn<T>(eventId: string, work: () => Promise<T>): Promise<T> {
    return this.capacity.inTurn(EVENT_SEATS, eventId, work);
  }
}
