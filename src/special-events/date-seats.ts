import { isFull, placesLeft } from '../capacity/capacity-pool.js';
import { isoDatePart } from '../domain/calendar-dates.js';
import type { SpecialEvent } from './special-event.entity.js';

/*
 * Seats per date: an event's capacityPerDate bounds the tickets of each of its ISO dates (the
 * sessions of one date share that date's seats), as well as its capacity over all dates.
 */

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
 * the tickets sold on its date (`sold`, by `YYYY-MM-DD`; absent: none) and what is left of them.
 */
export function availabilityOf(event: SpecialEvent, sold: ReadonlyMap<string, number>): DateAvailability[] {
  const eventLeft = placesLeft(event.capacity, event.ticketsSold);
  const seen = new Set<string>();
  const answer: DateAvailability[] = [];
  for (const item of event.dates) {
    const date = isoDatePart(item);
    if (date === null || seen.has(item)) continue;
    seen.add(item);
    const ticketsSold = sold.get(date) ?? 0;
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
 * The first of `dates` (ISO dates, ascending) whose tickets sold exceed `capacityPerDate`, with
 * them, or null (also without a limit): a limit below them is refused.
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
