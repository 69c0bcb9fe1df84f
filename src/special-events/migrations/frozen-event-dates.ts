/**
 * The date index's rules as migration 1764000000000 backfilled them: a frozen copy of
 * domain/calendar-dates.ts, so that a migration computes what it computed the day it shipped,
 * whatever the domain later becomes. A spec checks the
 * copy still agrees with the domain's rules; if they ever part, a new migration carries the new
 * rule and this copy stays as it is.
 */
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function isoDatePart(text: string): string | null {
  const match = ISO_DATE_TIME.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return text.slice(0, 10);
}

/** The distinct ISO dates of `dates`, ascending: the rows of an event's date index. */
export function indexedDates(dates: readonly string[]): readonly string[] {
  const distinct = new Set<string>();
  for (const text of dates) {
    const date = isoDatePart(text);
    if (date !== null) distinct.add(date);
  }
  return [...distinct].sort();
}

/** An event's unfiltered order key: its earliest ISO date, or `~` (after every date). */
export function sortDateOf(indexed: readonly string[]): string {
  return indexed[0] ?? '~';
}
