import type { Capacity } from '../capacity/capacity.js';
import type { SqlStatement } from '../database/sql.js';
import type { SpecialEvent } from './special-event.entity.js';
import { EVENT_SEATS } from './special-events.sql.js';

/**
 * The seats of special events: a capacity pool (EVENT_SEATS) whose row is the event's, taken
 * through Capacity, so that the database decides each seat with one conditional UPDATE and the
 * statements that go with it (a ticket row) commit with it or not at all.
 */
export class EventSeats {
  constructor(private readonly capacity: Capacity) {}

  /**
   * Takes one seat of `event` (as read) on `date` and runs `joined` with it: true, or false
   * (nothing ran): only while the event still exists at the version read, `date` is one of its ISO
   * dates and its capacity, if any, is not reached. On MySQL/MariaDB an instance takes one seat of
   * an event at a time (Capacity.inTurn).
   */
  take(event: SpecialEvent, date: string, joined: readonly SqlStatement[]): Promise<boolean> {
    return this.capacity.take(
      {
        pool: EVENT_SEATS,
        key: event.eventId,
        parameters: [event.version, event.eventId, date],
        asRead: { limit: event.capacity, taken: event.ticketsSold },
      },
      joined,
    );
  }

  /**
   * Gives one seat of event `eventId` back when `cancel` (a ticket's conditional UPDATE) changes a
   * row, in the same transaction: whether it did. An event deleted since has no row to give to.
   */
  giveBack(eventId: string, cancel: SqlStatement): Promise<boolean> {
    return this.capacity.giveBack(EVENT_SEATS, eventId, cancel);
  }

  /** Runs `work` in the event's turn with this instance's seat transactions (MySQL/MariaDB; SQLite at once). */
  inTurn<T>(eventId: string, work: () => Promise<T>): Promise<T> {
    return this.capacity.inTurn(EVENT_SEATS, eventId, work);
  }
}
