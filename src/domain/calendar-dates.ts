/**
 * Calendar dates, the domain kernel every feature shares: what the date index (special_event_dates)
 * holds and what a date filter matches.
 * Which of an event's free-text `dates` are ISO 8601 dates, the ones a date-range list matches and
 * orders by: `YYYY-MM-DD`, or a longer ISO 8601 date-time (`2026-12-01T18:30`, with seconds,
 * fractions and an offset or `Z`) whose date part then counts as written. The date must exist in
 * the calendar (`2026-02-30` is free text). Anything else is free text: stored and returned, never
 * matched by a date filter.
 */
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/** The `YYYY-MM-DD` part of `text` when it is an ISO date or date-time, else null. */
export function isoDatePart(text: string): string | null {
  const match = ISO_DATE_TIME.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return text.slice(0, 10);
}

/** True for a `YYYY-MM-DD` that exists in the calendar (the list's `startDate`/`endDate`). */
export function isCalendarDate(text: string): boolean {
  return text.length === 10 && isoDatePart(text) === text;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** indexedDates' answers by array: a write asks twice (the order key, then the index rows). */
const indexed = new WeakMap<readonly string[], readonly string[]>();

/**
 * The distinct ISO dates of `dates`, ascending: the rows of the event's date index. An event's
 * `dates` array is never changed once made (an update makes a new event), so the answer for one
 * array is computed once.
 */
export function indexedDates(dates: readonly string[]): readonly string[] {
  let found = indexed.get(dates);
  if (found === undefined) {
    const distinct = new Set<string>();
    for (const text of dates) {
      const date = isoDatePart(text);
      if (date !== null) distinct.add(date);
    }
    found = [...distinct].sort();
    indexed.set(dates, found);
  }
  return found;
}

/**
 * The order key of an event in an unfiltered list: its earliest ISO date, or NO_DATE, which sorts
 * after every date (in binary collation `~` comes after the digits), so that events without an
 * ISO date come last, ordered by eventId.
 */
export const NO_DATE = '~';

export function sortDateOf(indexed: readonly string[]): string {
  return indexed[0] ?? NO_DATE;
}
