/**
 * The date rules of EventDatesAndVersion1764000000000's backfill, as they were when it was
 * written: a migration must fill a database the same way whenever it runs, so it does not follow
 * later changes of src/special-events/event-dates.ts (and database/ does not import feature
 * folders). event-dates-backfill.spec.ts in special-events/ checks that the two still agree.
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

/** The distinct ISO dates of `dates`, ascending. */
export function backfillDates(dates: readonly string[]): string[] {
  const found = new Set<string>();
  for (const text of dates) {
    const date = isoDatePart(text);
    if (date !== null) found.add(date);
  }
  return [...found].sort();
}

/** The earliest of them, or `~` (after every date in binary order) without one. */
export function backfillSortDate(indexed: readonly string[]): string {
  return indexed[0] ?? '~';
}
