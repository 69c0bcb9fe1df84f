import { givePlacesSql, placesLeft, takePlacesParameters, takePlacesSql } from '../capacity/capacity-pool.js';
import type { PlaceClaim } from '../capacity/place-claim.js';
import type { SqlStatement } from '../database/sql.js';
import { indexedDates } from '../domain/calendar-dates.js';
import { sessionChoice } from '../domain/event-sessions.js';
import type { SpecialEvent } from './special-event.entity.js';
import type { SpecialEventsRepository } from './special-events.repository.js';
import { EVENT_SEATS } from './special-events.sql.js';

/**
 * Several seats of a date: its row's tickets sold grow by the count while the event's
 * capacityPerDate (as read with the version the claim's EVENT_SEATS update requires; NULL: no
 * limit) leaves room for all of them. Parameters: count, date, eventId, capacityPerDate, count,
 * capacityPerDate.
 */
export const TAKE_DATE_SEATS_SQL =
  'UPDATE special_event_dates SET tickets_sold = tickets_sold + ? ' +
  'WHERE event_date = ? AND event_id = ? AND (? IS NULL OR tickets_sold + ? <= ?)';

/** Several seats of a date given back. Parameters: count, date, eventId, count. */
export const GIVE_DATE_SEATS_SQL =
  'UPDATE special_event_dates SET tickets_sold = tickets_sold - ? WHERE event_date = ? AND event_id = ? AND tickets_sold >= ?';

/**
 * Several seats of a session, as TAKE_DATE_SEATS_SQL takes a date's: against capacityPerDate,
 * which bounds each session of a date. Parameters: count, eventId, session item, capacityPerDate,
 * count, capacityPerDate.
 */
export const TAKE_SESSION_SEATS_SQL =
  'UPDATE special_event_sessions SET tickets_sold = tickets_sold + ? ' +
  'WHERE event_id = ? AND session = ? AND (? IS NULL OR tickets_sold + ? <= ?)';

/** Several seats of a session given back. Parameters: count, eventId, session item, count. */
export const GIVE_SESSION_SEATS_SQL =
  'UPDATE special_event_sessions SET tickets_sold = tickets_sold - ? WHERE event_id = ? AND session = ? AND tickets_sold >= ?';

const TAKE_SEATS_SQL = takePlacesSql(EVENT_SEATS);
const GIVE_SEATS_SQL = givePlacesSql(EVENT_SEATS);

/** What a claim of several seats found (EventSeatClaims.claim). */
export type SeatClaimOutcome =
  /** `time`: the session's start (`HH:MM`), or null for a date without sessions. */
  | {
      readonly outcome: 'claimable';
      readonly claim: PlaceClaim;
      readonly event: SpecialEvent;
      readonly time: string | null;
    }
  | { readonly outcome: 'no-event' }
  | { readonly outcome: 'not-a-date'; readonly dates: readonly string[] }
  /** A date with several sessions and no time given, or a time that is none of its sessions: its sessions' times. */
  | { readonly outcome: 'time-required' | 'unknown-time'; readonly times: readonly string[] }
  | { readonly outcome: 'sold-out'; readonly capacity: number; readonly left: number }
  | {
      readonly outcome: 'date-sold-out';
      readonly date: string;
      readonly capacityPerDate: number;
      readonly left: number;
    };

/**
 * Seats of special events asked several at a time, for a transaction that takes other places too
 * (an order of several lines, Capacity.takeAll): the same two bounds as EventSeats takes one seat
 * under (the event's capacity at the version read, the date's capacityPerDate), decided by the
 * database in the same conditional UPDATEs, each growing by the count.
 */
export class EventSeatClaims {
  constructor(private readonly store: SpecialEventsRepository) {}

  /**
   * The claim of `count` seats of event `eventId` on `date` (one of its ISO dates) and, on a date
   * with sessions, of its session at `time` (sessionChoice, as a single sale chooses), or why not
   * as read: no such event, not one of its dates, no such session, or fewer seats left than asked.
   * The event as read comes with it: its price is the one in force.
   */
  async claim(eventId: string, date: string, time: string | undefined, count: number): Promise<SeatClaimOutcome> {
    const event = await this.store.find(eventId);
    if (event === null) return { outcome: 'no-event' };
    const dates = indexedDates(event.dates);
    if (!dates.includes(date)) return { outcome: 'not-a-date', dates };
    const choice = sessionChoice(event.dates, date, time);
    if (choice.kind === 'time-required' || choice.kind === 'unknown-time') {
      return { outcome: choice.kind, times: choice.times };
    }
    const session = choice.kind === 'session' ? choice : null;
    const eventLeft = placesLeft(event.capacity, event.ticketsSold);
    if (event.capacity !== null && eventLeft !== undefined && eventLeft < count) {
      return { outcome: 'sold-out', capacity: event.capacity, left: eventLeft };
    }
    let dateLeft: number | undefined;
    if (event.capacityPerDate !== null) {
      const sold =
        session === null ? await this.store.soldOn(eventId, date) : await this.store.soldAt(eventId, session.item);
      dateLeft = placesLeft(event.capacityPerDate, sold) ?? 0;
      if (dateLeft < count) {
        return { outcome: 'date-sold-out', date, capacityPerDate: event.capacityPerDate, left: dateLeft };
      }
    }
    const bounds = [eventLeft, dateLeft].filter((left) => left !== undefined);
    const claim: PlaceClaim = {
      row: { pool: EVENT_SEATS, key: eventId },
      guards: [
        { sql: TAKE_SEATS_SQL, parameters: takePlacesParameters(EVENT_SEATS, eventId, [event.version], count) },
        session === null
          ? {
              sql: TAKE_DATE_SEATS_SQL,
              parameters: [count, date, eventId, event.capacityPerDate, count, event.capacityPerDate],
            }
          : {
              sql: TAKE_SESSION_SEATS_SQL,
              parameters: [count, eventId, session.item, event.capacityPerDate, count, event.capacityPerDate],
            },
      ],
      stamp: `${event.version}`,
      left: bounds.length === 0 ? null : Math.min(...bounds),
    };
    return { outcome: 'claimable', claim, event, time: session === null ? null : session.session.time };
  }

  /**
   * What gives `count` seats of the event on `date` back, for the transaction that cancels their
   * tickets: the event's, and the date's (`time` null) or the session's, as a single cancel gives
   * back (EventSeats.giveBack). An event deleted since has no row to give to.
   */
  release(eventId: string, date: string, time: string | null, count: number): SqlStatement[] {
    return [
      { sql: GIVE_SEATS_SQL, parameters: [count, eventId, count] },
      time === null
        ? { sql: GIVE_DATE_SEATS_SQL, parameters: [count, date, eventId, count] }
        : { sql: GIVE_SESSION_SEATS_SQL, parameters: [count, eventId, `${date}T${time}`, count] },
    ];
  }
}
