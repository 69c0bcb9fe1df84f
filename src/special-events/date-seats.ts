import { isFull, placesLeft } from '../capacity/capacity-pool.js';
import { indexedDates, isoDatePart } from '../domain/calendar-dates.js';
import { sessionItems, sessionOf } from '../domain/event-sessions.js';
import type { SpecialEvent } from './special-event.entity.js';

/*
 * Seats per date: an event's capacityPerDate bounds the tickets of each of its date items, as well
 * as its capacity over all dates. A session (`YYYY-MM-DDTHH:MM`) has seats of its own, so two
 * sessions on one day are bounded separately; the other ISO items of one date (a bare date, a
 * date-time with an offset) share that date's seats. The seats are counted under a key: the
 * session item itself, or the date `YYYY-MM-DD`.
 */

/** The key an item's seats are counted under: the session as written, else its ISO date (null: free text). */
export function seatKeyOf(item: string): string | null {
  return sessionOf(item) === null ? isoDatePart(item) : item;
}

/** Every seat key of an event's date items: its ISO dates, then its sessions. */
export function seatKeys(dates: readonly string[]): string[] {
  return [...indexedDates(dates), ...sessionItems(dates)];
}

/** One date item's seats, as GET /special-events/{eventId}/availability answers them. */
export interface DateAvailability {
  /** The date item as stored. */
  readonly date: string;
  readonly ticketsSold?: number;
  /** What a buyer can still get for the date: the smaller of its seats left and the event's; null without either limit. */
  readonly ticketsAvailable: number | null;
}

/**
 * Each ISO date item of the event, in stored order and once each (free text sells no ticket), with
 * the tickets sold under its seat key (`sold`; absent: none) and what is left of them.
 */
export function availabilityOf(event: SpecialEvent, sold: ReadonlyMap<string, number>): DateAvailability[] {
  const eventLeft = placesLeft(event.capacity, event.ticketsSold);
  const seen = new Set<string>();
  const answer: DateAvailability[] = [];
  for (const item of event.dates) {
    const key = seatKeyOf(item);
    if (key === null || seen.has(item)) continue;
    seen.add(item);
    const ticketsSold = sold.get(key) ?? 0;
    const dateLeft = placesLeft(event.capacityPerDate, ticketsSold);
    const left = [eventLeft, dateLeft].filter((value) => value !== undefined);
    answer.push({ date: item, ticketsSold, ticketsAvailable: left.length === 0 ? null : Math.min(...left) });
  }
  return answer;
}

/** What an anonymous reader sees (public read): what is left, not what was sold. */
export function publicAvailability(dates: readonly DateAvailability[]): DateAvailability[] {
  return dates.map(({ date, ticketsAvailable }) => ({ date, ticketsAvailable }));
}

/**
 * The first of `dates` (seat keys: ISO dates, sessions) whose tickets sold exceed `capacityPerDate`,
 * with them, or null (also without a limit): a limit below them is refused.
 */
export function dateOverLimit(
  dates: readonly string[],
  capacityPerDate: number | null,
  sold: ReadonlyMap<string, number>,
): { readonly date: string; readonly sold: number } | null {
  if (capacityPerDate === null) return null;
  for (const date of dates) {
    const count = sold.get(date) ?? 0;
    if (count > capacityPerDate) return { date, sold: count };
  }
  return null;
}

/** Whether the date's seats are all sold, as read. */
export function dateFull(event: SpecialEvent, soldOnDate: number): boolean {
  return isFull(event.capacityPerDate, soldOnDate);
}
