import type { SpecialEvent } from '../special-events/special-event.entity.js';
import { contentLine, CRLF, escapeText, foldedLines } from './calendar-text.js';

/** The most events one feed reads (400 list pages); docs/api.md says what happens beyond. */
export const FEED_EVENT_CAP = 10_000;

/**
 * The feed reads the list as any client would, following its cursor, a page of this many events
 * at a time: on SQLite a page is read synchronously, and 100 events of 5,000 characters held the
 * event loop longer than the rest of a slice.
 */
export const FEED_PAGE_SIZE = 25;

/**
 * The part of every UID after the `@`: the same whichever host or instance serves the feed, so
 * that a calendar application that subscribed through two addresses sees one event, not two.
 */
export const UID_DOMAIN = 'museum-special-events';

export const PRODUCT_ID = '-//Museum//Special Events Calendar Feed 1.0//EN';
export const CALENDAR_NAME = 'Museum special events';
/** How many listed events had no ISO date and so no VEVENT: an extension property (RFC 5545, 3.8.8.2). */
export const SKIPPED_PROPERTY = 'X-MUSEUM-SKIPPED-EVENTS';
/**
 * The most octets of VEVENTs one feed holds. 10,000 events of 500 dates and 5,000-character
 * descriptions would make gigabytes; the feed stops at a size a calendar application can still
 * read, keeping the earliest days.
 */
export const FEED_MAX_OCTETS = 16 * 1024 * 1024;

/** How many feeds are built (and held, up to FEED_MAX_OCTETS each) at once; the others wait their turn. */
export const FEEDS_AT_ONCE = 4;

/**
 * Present when the feed was cut short: `EVENTS=10000` when more events matched than the feed
 * reads, `OCTETS=16777216` when the VEVENTs reached FEED_MAX_OCTETS (the later days left out).
 */
export const TRUNCATED_PROPERTY = 'X-MUSEUM-TRUNCATED';

/** The date range asked for, `YYYY-MM-DD` each, validated; either may be absent. */
export interface FeedRange {
  readonly startDate?: string;
  readonly endDate?: string;
}

/** One page of the list, as the feed reads it. */
export interface FeedPage {
  readonly events: readonly SpecialEvent[];
  readonly nextCursor?: string;
}

/** `YYYYMMDD` of a `YYYY-MM-DD`. */
function basicDate(date: string): string {
  return date.replaceAll('-', '');
}

/** The `YYYYMMDD` of the day after a `YYYY-MM-DD` (DTEND of an all-day event is exclusive). */
function nextDay(date: string): string {
  const [year, month, day] = date.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, day + 1)).toISOString().slice(0, 10).replaceAll('-', '');
}

/** A UTC DATE-TIME, `YYYYMMDDTHHMMSSZ`, of epoch milliseconds (fractions dropped). */
export function utcDateTime(epochMs: number): string {
  return new Date(epochMs)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

export function withinRange(date: string, range: FeedRange): boolean {
  return (
    (range.startDate === undefined || date >= range.startDate) && (range.endDate === undefined || date <= range.endDate)
  );
}

/**
 * What every VEVENT of one event shares, rendered once for all its dates: the SUMMARY, LOCATION
 * and DESCRIPTION lines (escaped and folded: most of a VEVENT's bytes and of its rendering time)
 * as UTF-8 octets, and the stamp as a DATE-TIME. Octets, not a string: an event waits for its
 * later dates while the feed is built, and text kept that long in the JavaScript heap is copied by
 * every young-generation collection and then moved to the old one, which the feeds' churn made
 * collect every second, holding the event loop.
 */
export interface EventText {
  readonly eventId: string;
  readonly lines: Buffer;
  readonly stamp: string;
}

/** The event's shared lines, written into the Buffer `take` gives (a view of a feed's slab). */
export function eventText(event: SpecialEvent, stampMs: number, take: (octets: number) => Buffer): EventText {
  const lines = foldedLines(
    [
      `SUMMARY:${escapeText(event.name)}`,
      `LOCATION:${escapeText(event.location)}`,
      `DESCRIPTION:${escapeText(event.eventDescription)}`,
    ],
    take,
  );
  return { eventId: event.eventId, lines, stamp: utcDateTime(stampMs) };
}

/** One VEVENT: the ASCII lines before the event's shared ones, those, the ASCII lines after, and its size in octets. */
export interface Vevent {
  readonly head: string;
  readonly lines: Buffer;
  readonly tail: string;
  readonly octets: number;
}

/**
 * A session's times: its start `HH:MM` (local, part of its UID) and its start and end as instants
 * (epoch ms; the end only when the event has a duration).
 */
export interface SessionTimes {
  readonly time: string;
  readonly start: number;
  readonly end?: number;
}

/**
 * One VEVENT: all day on `date`, or with `session` from its start (to its end, when known) in UTC,
 * which every calendar application reads without a VTIMEZONE. Without an end the session is an
 * instant (RFC 5545, 3.6.1). A session's UID carries its time, so that two sessions of one day are
 * two entries, and an all-day entry's UID stays what it always was.
 */
export function vevent(date: string, text: EventText, session?: SessionTimes): Vevent {
  const when =
    session === undefined
      ? [
          contentLine('UID', `${text.eventId}-${basicDate(date)}@${UID_DOMAIN}`),
          `DTSTAMP:${text.stamp}`,
          `DTSTART;VALUE=DATE:${basicDate(date)}`,
          `DTEND;VALUE=DATE:${nextDay(date)}`,
        ]
      : [
          contentLine('UID', `${text.eventId}-${basicDate(date)}T${session.time.replace(':', '')}@${UID_DOMAIN}`),
          `DTSTAMP:${text.stamp}`,
          `DTSTART:${utcDateTime(session.start)}`,
          ...(session.end === undefined ? [] : [`DTEND:${utcDateTime(session.end)}`]),
        ];
  const head = ['BEGIN:VEVENT', ...when, ''].join(CRLF);
  const tail = `LAST-MODIFIED:${text.stamp}${CRLF}END:VEVENT${CRLF}`;
  return { head, lines: text.lines, tail, octets: head.length + text.lines.length + tail.length };
}

/** The VCALENDAR's head: its properties, with the counts only the whole feed knows (skipped: unknown when undefined). */
export function feedHead(skipped: number | undefined, truncated: string | undefined): string {
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    contentLine('PRODID', PRODUCT_ID),
    'CALSCALE:GREGORIAN',
    contentLine('X-WR-CALNAME', escapeText(CALENDAR_NAME)),
    ...(skipped === undefined ? [] : [`${SKIPPED_PROPERTY}:${skipped}`]),
    ...(truncated === undefined ? [] : [`${TRUNCATED_PROPERTY}:${truncated}`]),
    '',
  ].join(CRLF);
}

export const FEED_TAIL = `END:VCALENDAR${CRLF}`;
