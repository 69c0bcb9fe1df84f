import { isoDatePart } from './calendar-dates.js';

/**
 * Sessions: a date item written `YYYY-MM-DDTHH:MM` (no seconds, no offset) starts at that local
 * time in the museum's time zone (MUSEUM_TIME_ZONE), on that local date. Every other ISO form
 * (a bare date, a date-time with seconds or with an offset or `Z`) keeps its meaning: the date
 * part as written, all day.
 */
const SESSION = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})$/;

/** A session: its local date `YYYY-MM-DD` and start time `HH:MM`. */
export interface Session {
  readonly date: string;
  readonly time: string;
}

/** The session `item` writes, or null when it is not in the session form or names no real date or time. */
export function sessionOf(item: string): Session | null {
  const match = SESSION.exec(item);
  if (!match || timeProblem(Number(match[2]), Number(match[3])) !== null) return null;
  const date = isoDatePart(item);
  return date === null ? null : { date, time: `${match[2]}:${match[3]}` };
}

/**
 * Why `item`, written in the session form, names no time of day (`25:00`, `12:60`), or null: the
 * session form with an impossible time is refused rather than stored as free text.
 */
export function sessionTimeProblem(item: string): string | null {
  const match = SESSION.exec(item);
  return match ? timeProblem(Number(match[2]), Number(match[3])) : null;
}

function timeProblem(hour: number, minute: number): string | null {
  return hour > 23 || minute > 59 ? 'has no such time of day: HH:MM runs from 00:00 to 23:59' : null;
}

/** An event's days, as a calendar shows them: the start times of each date's sessions, and the dates held all day. */
export interface EventDays {
  /** Per local date, its sessions' start times (`HH:MM`), ascending, each once. */
  readonly sessions: ReadonlyMap<string, readonly string[]>;
  /** The dates of ISO items that are not sessions (a bare date, or a date-time with an offset). */
  readonly allDay: ReadonlySet<string>;
}

/** The sessions and all-day dates of `dates` (an event's date items). */
export function eventDays(dates: readonly string[]): EventDays {
  const sessions = new Map<string, string[]>();
  const allDay = new Set<string>();
  for (const item of dates) {
    const session = sessionOf(item);
    if (session === null) {
      const date = isoDatePart(item);
      if (date !== null) allDay.add(date);
      continue;
    }
    const times = sessions.get(session.date);
    if (times === undefined) sessions.set(session.date, [session.time]);
    else if (!times.includes(session.time)) times.push(session.time);
  }
  for (const times of sessions.values()) times.sort();
  return { sessions, allDay };
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC at `instant`, in milliseconds (east positive). */
function offsetAt(instant: number, timeZone: string): number {
  let format = offsetFormats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    offsetFormats.set(timeZone, format);
  }
  const part: Record<string, number> = {};
  for (const { type, value } of format.formatToParts(instant)) part[type] = Number(value);
  const local = Date.UTC(part.year, part.month - 1, part.day, part.hour, part.minute, part.second);
  return local - Math.floor(instant / 1000) * 1000;
}

const DAY_MS = 86_400_000;

/**
 * The instant (milliseconds since the epoch) of a session's start: its local date and time in
 * `timeZone`, as RFC 5545 (3.3.5) reads a local time with a TZID: a time that occurs twice (the
 * hour clocks go back) is the first of the two, and one skipped by clocks going forward is read
 * with the offset before the change (02:30 becomes 03:30).
 */
export function sessionStart(session: Session, timeZone: string): number {
  const [year, month, day] = session.date.split('-').map(Number);
  const [hour, minute] = session.time.split(':').map(Number);
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  // Clocks change at most once a day: the offsets a day before and after are the two candidates.
  const before = offsetAt(wall - DAY_MS, timeZone);
  const after = offsetAt(wall + DAY_MS, timeZone);
  const valid = [wall - before, wall - after].filter(
    (instant, i) => offsetAt(instant, timeZone) === (i === 0 ? before : after),
  );
  return valid.length === 0 ? wall - before : Math.min(...valid);
}

/** The session items of `dates` (an event's date items), once each, in stored order: the keys of its session seats. */
export function sessionItems(dates: readonly string[]): string[] {
  // Most events have no session: the length-and-`T` test spares them the pattern and the set.
  if (!dates.some(mayBeSession)) return [];
  const items = new Set<string>();
  for (const item of dates) if (mayBeSession(item) && sessionOf(item) !== null) items.add(item);
  return [...items];
}

/** Whether `item` has the session form's length and `T`: cheaper than SESSION, and never false for a session. */
const mayBeSession = (item: string): boolean => item.length === 16 && item.charCodeAt(10) === 84;

/** eventDays' answers by array: an event's `dates` array is never changed once made, and every sale asks. */
const daysOf = new WeakMap<readonly string[], EventDays>();

/** Which of an event's date items a ticket for one date (and maybe a time) is for (sessionChoice). */
export type SessionChoice =
  | { readonly kind: 'all-day' }
  | { readonly kind: 'session'; readonly session: Session; readonly item: string }
  | { readonly kind: 'time-required'; readonly times: readonly string[] }
  | { readonly kind: 'unknown-time'; readonly times: readonly string[] };

/**
 * What a ticket for `date` (one of the event's ISO dates) at `time` (`HH:MM`, or undefined) is
 * for. On a date with sessions, a session: the one at `time`; without a time, the only one
 * (`time-required` when there are several); a time that is none of them is `unknown-time`. On a
 * date without sessions, the date itself, all day, and any time is `unknown-time` (no times).
 * Other ISO items of a date with sessions sell nothing of their own: its tickets are for its
 * sessions.
 */
export function sessionChoice(dates: readonly string[], date: string, time: string | undefined): SessionChoice {
  // Most events have no session: a sale of theirs looks no further than each item's shape.
  if (time === undefined && !dates.some(mayBeSession)) return { kind: 'all-day' };
  let days = daysOf.get(dates);
  if (days === undefined) {
    days = eventDays(dates);
    daysOf.set(dates, days);
  }
  const times = days.sessions.get(date) ?? [];
  if (times.length === 0) return time === undefined ? { kind: 'all-day' } : { kind: 'unknown-time', times };
  const chosen = time ?? (times.length === 1 ? times[0] : undefined);
  if (chosen === undefined) return { kind: 'time-required', times };
  if (!times.includes(chosen)) return { kind: 'unknown-time', times };
  return { kind: 'session', session: { date, time: chosen }, item: `${date}T${chosen}` };
}
