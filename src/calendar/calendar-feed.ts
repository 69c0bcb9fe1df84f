import { createHash } from 'node:crypto';
import { indexedDates } from '../database/event-dates.js';
import type { SpecialEvent } from '../special-events/special-event.entity.js';
import { contentLine, CRLF, escapeText } from './calendar-text.js';

/** The most events one feed reads (a hundred list pages); docs/api.md says what happens beyond. */
export const FEED_EVENT_CAP = 10_000;

/** The list's largest page: the feed reads the list as any client would, following its cursor. */
export const FEED_PAGE_SIZE = 100;

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

/** The events of a feed, each once, with when its current version was written (epoch ms). */
export interface CollectedEvents {
  readonly events: readonly SpecialEvent[];
  readonly modifiedAt: ReadonlyMap<string, number>;
  /** True when events beyond `cap` were left out. */
  readonly truncated: boolean;
}

/**
 * Reads pages (`readPage(cursor)`, from no cursor to the last page) until there is no next page or
 * `cap` events are read, and the stamps of each page's events (`readStamps`, one call per page).
 * An event met twice (its dates changed while the pages were read) is kept once, as last seen.
 */
export async function collectEvents(
  readPage: (cursor: string | undefined) => Promise<FeedPage>,
  readStamps: (eventIds: readonly string[]) => Promise<ReadonlyMap<string, number>>,
  cap: number = FEED_EVENT_CAP,
): Promise<CollectedEvents> {
  const events = new Map<string, SpecialEvent>();
  const modifiedAt = new Map<string, number>();
  let read = 0;
  let truncated = false;
  let cursor: string | undefined;
  do {
    const page = await readPage(cursor);
    const taken = page.events.slice(0, cap - read);
    read += taken.length;
    for (const event of taken) events.set(event.eventId, event);
    if (taken.length > 0) {
      for (const [eventId, at] of await readStamps(taken.map((event) => event.eventId))) modifiedAt.set(eventId, at);
    }
    cursor = page.nextCursor;
    if (read >= cap) {
      truncated = taken.length < page.events.length || cursor !== undefined;
      break;
    }
  } while (cursor !== undefined);
  return { events: [...events.values()], modifiedAt, truncated };
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

function withinRange(date: string, range: FeedRange): boolean {
  return (
    (range.startDate === undefined || date >= range.startDate) && (range.endDate === undefined || date <= range.endDate)
  );
}

/** The rendered feed: its bytes (UTF-8) and their strong entity tag. */
export interface RenderedFeed {
  readonly body: Buffer;
  readonly etag: string;
}

/** One VEVENT's content lines, each ending in CRLF. */
function vevent(date: string, event: SpecialEvent, stamp: string): string {
  return [
    'BEGIN:VEVENT',
    contentLine('UID', `${event.eventId}-${basicDate(date)}@${UID_DOMAIN}`),
    `DTSTAMP:${stamp}`,
    `DTSTART;VALUE=DATE:${basicDate(date)}`,
    `DTEND;VALUE=DATE:${nextDay(date)}`,
    contentLine('SUMMARY', escapeText(event.name)),
    contentLine('LOCATION', escapeText(event.location)),
    contentLine('DESCRIPTION', escapeText(event.eventDescription)),
    `LAST-MODIFIED:${stamp}`,
    'END:VEVENT',
    '',
  ].join(CRLF);
}

/**
 * The VCALENDAR of `collected`: one all-day VEVENT per ISO date of each event within `range`,
 * ordered by date then eventId so that the same events always give the same bytes (and ETag),
 * up to `maxOctets` of VEVENTs. An event without a stamp is stamped `generatedAt`. Events with
 * no ISO date at all are counted in X-MUSEUM-SKIPPED-EVENTS.
 */
export function renderFeed(
  collected: CollectedEvents,
  range: FeedRange,
  generatedAt: number,
  maxOctets: number = FEED_MAX_OCTETS,
): RenderedFeed {
  // The order key: the date, then the eventId (fixed lengths, so plain string order); an event
  // has each date once, so no two keys are equal.
  const occurrences: { key: string; date: string; event: SpecialEvent }[] = [];
  let skipped = 0;
  for (const event of collected.events) {
    const dates = indexedDates(event.dates);
    if (dates.length === 0) skipped++;
    for (const date of dates) {
      if (withinRange(date, range)) occurrences.push({ key: `${date} ${event.eventId}`, date, event });
    }
  }
  occurrences.sort((a, b) => (a.key < b.key ? -1 : 1));
  let truncated = collected.truncated ? `EVENTS=${FEED_EVENT_CAP}` : undefined;
  const vevents: string[] = [];
  let octets = 0;
  for (const { date, event } of occurrences) {
    const text = vevent(date, event, utcDateTime(collected.modifiedAt.get(event.eventId) ?? generatedAt));
    octets += Buffer.byteLength(text, 'utf8');
    if (octets > maxOctets) {
      truncated = `OCTETS=${maxOctets}`;
      break;
    }
    vevents.push(text);
  }
  const head = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    contentLine('PRODID', PRODUCT_ID),
    'CALSCALE:GREGORIAN',
    contentLine('X-WR-CALNAME', escapeText(CALENDAR_NAME)),
    `${SKIPPED_PROPERTY}:${skipped}`,
    ...(truncated === undefined ? [] : [`${TRUNCATED_PROPERTY}:${truncated}`]),
    '',
  ].join(CRLF);
  const body = Buffer.from(`${head}${vevents.join('')}END:VCALENDAR${CRLF}`, 'utf8');
  return { body, etag: `"${createHash('sha256').update(body).digest().subarray(0, 16).toString('base64url')}"` };
}
