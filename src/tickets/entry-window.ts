import { sessionStart } from '../domain/event-sessions.js';

/** When a timed ticket's entry ends (entryAt): the day's close, a session's length, or nothing (the day's end). */
export type EntryEnd =
  | { readonly kind: 'close'; readonly time: string }
  | { readonly kind: 'duration'; readonly minutes: number }
  | { readonly kind: 'day' };

/** Whether a timed ticket admits now, and when its entry opens or closed when not. */
export type EntryCheck =
  | { readonly kind: 'open' }
  | { readonly kind: 'too-early'; readonly time: string; readonly opensAt: string }
  | { readonly kind: 'closed'; readonly time: string; readonly closedAt: string };

const MINUTE = 60_000;
const wallClocks = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock time `HH:MM` of `instant` in `timeZone`. */
function wallClock(instant: number, timeZone: string): string {
  let format = wallClocks.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    wallClocks.set(timeZone, format);
  }
  return format.format(instant);
}

/**
 * Whether a ticket for `date` at `time` (`HH:MM`, the museum's local time in `timeZone`) admits at
 * `now`: from `earlyMinutes` before its time until its end (exclusive), worked out as instants, so
 * a day when clocks change still counts real minutes. Before, `too-early` says when entry opens;
 * from the end on, `closed` says when it closed. The date is the caller's to check (today).
 */
export function entryAt(
  now: number,
  timeZone: string,
  ticket: { readonly date: string; readonly time: string },
  earlyMinutes: number,
  end: EntryEnd,
): EntryCheck {
  const start = sessionStart(ticket, timeZone);
  const opens = start - earlyMinutes * MINUTE;
  if (now < opens) return { kind: 'too-early', time: ticket.time, opensAt: wallClock(opens, timeZone) };
  let closes: number | null = null;
  if (end.kind === 'duration') closes = start + end.minutes * MINUTE;
  else if (end.kind === 'close') closes = sessionStart({ date: ticket.date, time: end.time }, timeZone);
  if (closes !== null && now >= closes) {
    return { kind: 'closed', time: ticket.time, closedAt: wallClock(closes, timeZone) };
  }
  return { kind: 'open' };
}
