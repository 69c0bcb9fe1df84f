/**
 * The calendar arithmetic of opening hours, without a database: which weekday a date is, the dates
 * of the horizon a list may look at, and what a day's hours are once the week and the date's
 * exception are known.
 */

/** `HH:mm`, 24-hour: 00:00 to 23:59 (the Museum API's pattern, its colon required). */
export const TIME_PATTERN = /^(?:[01][0-9]|2[0-3]):[0-5][0-9]$/;

/**
 * How many days from `startDate` (itself included) a list looks at. Bounds every list: a week
 * with no open day, or a `page` far beyond the open days, costs at most this many days of work.
 */
export const HOURS_HORIZON_DAYS = 366;

/** The last date the service writes (`YYYY-MM-DD` has four digits of year). */
const LAST_DATE = '9999-12-31';

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** A day's hours; `capacity` null: no limit on general admission; `slots` absent: no time slots. */
export interface DayHours {
  readonly timeOpen: string;
  readonly timeClose: string;
  readonly capacity: number | null;
  readonly slots?: SlotGrid;
}

/**
 * A day's general admission by time slot: a slot starts at timeOpen and every `minutes` after it,
 * the last starting before timeClose; each admits up to `capacity` tickets.
 */
export interface SlotGrid {
  readonly minutes: number;
  readonly capacity: number;
}

export const SLOT_MINUTES = { min: 5, max: 240 } as const;
export const SLOT_CAPACITY_MAX = 1_000_000;

const minutesOf = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
const timeOfMinutes = (minutes: number): string =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** The start times (`HH:MM`, ascending) of the day's slots: none for a day without slots. */
export function slotTimes(hours: Pick<DayHours, 'timeOpen' | 'timeClose' | 'slots'>): string[] {
  if (hours.slots === undefined) return [];
  const times: string[] = [];
  const close = minutesOf(hours.timeClose);
  for (let start = minutesOf(hours.timeOpen); start < close; start += hours.slots.minutes) {
    times.push(timeOfMinutes(start));
  }
  return times;
}

/** A date's exception: closed, or hours of its own. */
export type DayException = { readonly closed: true } | ({ readonly closed: false } & DayHours);

const MS_PER_DAY = 86_400_000;

function epochDay(date: string): number {
  // setUTCFullYear, not Date.UTC: Date.UTC reads the years 0-99 as 1900-1999.
  const instant = new Date(0);
  instant.setUTCFullYear(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
  return instant.getTime() / MS_PER_DAY;
}

function dateOfEpochDay(day: number): string {
  const instant = new Date(day * MS_PER_DAY);
  const year = String(instant.getUTCFullYear()).padStart(4, '0');
  const month = String(instant.getUTCMonth() + 1).padStart(2, '0');
  const dayOfMonth = String(instant.getUTCDate()).padStart(2, '0');
  return `${year}-${month}-${dayOfMonth}`;
}

/** ISO weekday of a `YYYY-MM-DD` date: 1 = Monday … 7 = Sunday. */
export function isoWeekday(date: string): number {
  // 1970-01-01 was a Thursday (4).
  return ((((Math.floor(epochDay(date)) + 3) % 7) + 7) % 7) + 1;
}

/** `count` consecutive dates from `startDate`, stopping at 9999-12-31. */
export function datesFrom(startDate: string, count: number): string[] {
  const first = epochDay(startDate);
  const last = epochDay(LAST_DATE);
  const dates: string[] = [];
  for (let day = first; day < first + count && day <= last; day++) dates.push(dateOfEpochDay(day));
  return dates;
}

/** The hours of `date`: its exception's when it has one, else its weekday's; null when closed. */
export function hoursOf(
  date: string,
  week: ReadonlyMap<number, DayHours>,
  exceptions: ReadonlyMap<string, DayException>,
): DayHours | null {
  const exception = exceptions.get(date);
  if (exception !== undefined) return exception.closed ? null : exception;
  return week.get(isoWeekday(date)) ?? null;
}

/**
 * The first `wanted` open days among the `count` days from `startDate` (stopping at 9999-12-31),
 * with their hours, in date order: what hoursOf says of each day, without making a date string
 * for each day looked at (a list at the horizon's end looked at 366 of them, per request).
 */
export function openDaysFrom(
  startDate: string,
  count: number,
  week: ReadonlyMap<number, DayHours>,
  exceptions: ReadonlyMap<string, DayException>,
  wanted: number,
): (DayHours & { date: string })[] {
  const first = epochDay(startDate);
  const last = Math.min(first + count - 1, epochDay(LAST_DATE));
  const byDay = new Map<number, DayException>();
  for (const [date, exception] of exceptions) byDay.set(epochDay(date), exception);
  const firstWeekday = isoWeekday(startDate);
  const open: (DayHours & { date: string })[] = [];
  for (let day = first; day <= last && open.length < wanted; day++) {
    const exception = byDay.get(day);
    const hours =
      exception === undefined
        ? week.get(((firstWeekday - 1 + (day - first)) % 7) + 1)
        : exception.closed
          ? undefined
          : exception;
    if (hours !== undefined) open.push({ date: dateOfEpochDay(day), ...hours });
  }
  return open;
}

/** The last of the `count` days from `startDate` (at most 9999-12-31). */
export function lastDateOf(startDate: string, count: number): string {
  return dateOfEpochDay(Math.min(epochDay(startDate) + count - 1, epochDay(LAST_DATE)));
}
