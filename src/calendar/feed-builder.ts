import { indexedDates } from '../domain/calendar-dates.js';
import type { SpecialEvent } from '../special-events/special-event.entity.js';
import {
  FEED_EVENT_CAP,
  FEED_MAX_OCTETS,
  FEED_TAIL,
  type FeedPage,
  type EventText,
  type FeedRange,
  eventText,
  feedHead,
  vevent,
  withinRange,
} from './calendar-feed.js';
import { OccurrenceHeap } from './occurrence-heap.js';

/** The feed's bytes, in chunks of about CHUNK_OCTETS (the last ones shorter). */
export interface BuiltFeed {
  readonly chunks: readonly Buffer[];
  readonly octets: number;
}

export interface FeedSources {
  /** The list's pages in order, from no cursor to the last page. */
  readonly readPage: (cursor: string | undefined) => Promise<FeedPage>;
  /** When these events' current versions were written (epoch ms); an event without one is absent. */
  readonly readStamps: (eventIds: readonly string[]) => Promise<ReadonlyMap<string, number>>;
  /**
   * Called between slices of the work, so that the event loop serves other requests meanwhile;
   * false when the feed is no longer wanted (its client went away): the build then stops.
   */
  readonly pause: () => Promise<boolean>;
}

export interface FeedLimits {
  readonly cap: number;
  readonly maxOctets: number;
  /** The stamp of an event without one: a time the feed's validator covers, so the bytes follow it. */
  readonly stampless: number;
}

/** The size the VEVENTs are gathered to before they become one Buffer (and one socket write). */
const CHUNK_OCTETS = 64 * 1024;

/**
 * The VCALENDAR of the events the list gives for `range`: one all-day VEVENT per ISO date in the
 * range, ordered by date then eventId, up to `cap` events and `maxOctets` of VEVENTs (the later
 * days left out, and the list read no further), events with no ISO date counted in
 * X-MUSEUM-SKIPPED-EVENTS (left out when the feed is cut at `maxOctets`).
 *
 * It never holds the whole list: the list comes in its order (each event at its first date in
 * the range, then eventId), so once a page is read, no later event has a day before that page's
 * last event's first one, and every waiting day up to there is rendered and its event let go. Only
 * the events with days still to come wait, in a heap. The bytes are kept (at most `maxOctets` and
 * the head) because the head's counts are known only at the end. An event met twice (its dates
 * changed while the pages were read) is kept once, as first seen. Undefined when `pause` said stop.
 */
export async function buildFeed(
  range: FeedRange,
  sources: FeedSources,
  limits: FeedLimits = { cap: FEED_EVENT_CAP, maxOctets: FEED_MAX_OCTETS, stampless: 0 },
): Promise<BuiltFeed | undefined> {
  const seen = new Set<string>();
  const waiting = new OccurrenceHeap();
  const output = new ChunkWriter();
  let read = 0;
  let skipped = 0;
  let truncated: string | undefined;
  let full = false;
  let cursor: string | undefined;

  /** Renders every waiting day up to `frontier` (an order key; none when every page is read). */
  const renderUpTo = async (frontier: string | undefined): Promise<boolean> => {
    for (let next = waiting.peek(); next !== undefined; next = waiting.peek()) {
      if (frontier !== undefined && next.key > frontier) break;
      waiting.pop();
      const rendered = vevent(next.date, next.text);
      if (!output.add(rendered.text, rendered.octets, limits.maxOctets)) {
        full = true;
        truncated = `OCTETS=${limits.maxOctets}`;
        waiting.clear();
        break;
      }
      if (!(await sources.pause())) return false;
    }
    return true;
  };

  do {
    const page = await sources.readPage(cursor);
    if (!(await sources.pause())) return undefined;
    const taken = page.events.slice(0, limits.cap - read);
    read += taken.length;
    const fresh = taken.filter((event) => !seen.has(event.eventId));
    for (const event of fresh) seen.add(event.eventId);
    const stamps = fresh.length === 0 ? new Map<string, number>() : await sources.readStamps(fresh.map(idOf));
    for (const event of fresh) {
      const dates = indexedDates(event.dates);
      if (dates.length === 0) skipped++;
      const stamp = stamps.get(event.eventId) ?? limits.stampless;
      let text: EventText | undefined;
      for (const date of dates) {
        if (!withinRange(date, range)) continue;
        text ??= eventText(event, stamp);
        waiting.push({ key: orderKey(date, event.eventId), date, text });
      }
    }
    cursor = page.nextCursor;
    if (read >= limits.cap) {
      if (taken.length < page.events.length || cursor !== undefined) truncated ??= `EVENTS=${limits.cap}`;
      cursor = undefined;
    }
    const last = taken.at(-1);
    if (!full && cursor !== undefined && last !== undefined) {
      if (!(await renderUpTo(frontierOf(last, range)))) return undefined;
    }
    // Cut at the size bound: nothing more is rendered, and the events without an ISO date (last
    // in the list) are not read on for, so their count is left out of the head.
    if (full) cursor = undefined;
  } while (cursor !== undefined);
  if (!full && !(await renderUpTo(undefined))) return undefined;
  return output.finish(feedHead(full ? undefined : skipped, truncated), FEED_TAIL);
}

function idOf(event: SpecialEvent): string {
  return event.eventId;
}

/** The order of the feed: the date, then the eventId (fixed lengths, so plain string order). */
function orderKey(date: string, eventId: string): string {
  return `${date} ${eventId}`;
}

/**
 * The key no later list event's days come before: the event's first date in the range (the list's
 * own order key) and its id. An event without an ISO date comes after all dated ones (`~`).
 */
function frontierOf(event: SpecialEvent, range: FeedRange): string {
  const first = indexedDates(event.dates).find((date) => withinRange(date, range));
  return orderKey(first ?? '~', event.eventId);
}

/** The VEVENTs' text gathered into Buffers of about CHUNK_OCTETS, and their total, bounded. */
class ChunkWriter {
  private readonly chunks: Buffer[] = [];
  private pending: string[] = [];
  private pendingOctets = 0;
  private octets = 0;

  /** Adds the text of `size` octets, or false when it would take the total past `maxOctets` (it is then left out). */
  add(text: string, size: number, maxOctets: number): boolean {
    if (this.octets + size > maxOctets) return false;
    this.octets += size;
    this.pending.push(text);
    this.pendingOctets += size;
    if (this.pendingOctets >= CHUNK_OCTETS) this.flush();
    return true;
  }

  finish(head: string, tail: string): BuiltFeed {
    this.flush();
    const first = Buffer.from(head, 'utf8');
    const last = Buffer.from(tail, 'utf8');
    return { chunks: [first, ...this.chunks, last], octets: first.length + this.octets + last.length };
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    this.chunks.push(Buffer.from(this.pending.join(''), 'utf8'));
    this.pending = [];
    this.pendingOctets = 0;
  }
}
