import { indexedDates } from '../domain/calendar-dates.js';
import { eventDays, sessionStart } from '../domain/event-sessions.js';
import type { SpecialEvent } from '../special-events/special-event.entity.js';
import {
  FEED_EVENT_CAP,
  FEED_MAX_OCTETS,
  FEEDS_AT_ONCE,
  FEED_TAIL,
  type FeedPage,
  type EventText,
  type FeedRange,
  type Vevent,
  eventText,
  feedHead,
  vevent,
  withinRange,
} from './calendar-feed.js';
import { BufferPool } from './buffer-pool.js';
import { OccurrenceHeap } from './occurrence-heap.js';

/** The feed's bytes, in chunks of about CHUNK_OCTETS (the last ones shorter). */
export interface BuiltFeed {
  readonly chunks: readonly Buffer[];
  readonly octets: number;
  /**
   * Gives the chunks' memory to the next feed. Only once nothing reads them any more: for a
   * response, once it finished (every chunk handed to the operating system); never after a
   * socket closed with writes pending, whose chunks the socket may still hold.
   */
  readonly recycle: () => void;
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
  /** The museum's time zone (MUSEUM_TIME_ZONE): where a session's local start time is. */
  readonly timeZone?: string;
}

/** The size of the Buffers the VEVENTs are written into (one socket write each). */
const CHUNK_OCTETS = 64 * 1024;
const SLAB_OCTETS = 256 * 1024;

/** The chunks of the feeds being built and sent at once (FEEDS_AT_ONCE of 16 MiB), and their slabs. */
const CHUNKS = new BufferPool(CHUNK_OCTETS, (FEEDS_AT_ONCE * FEED_MAX_OCTETS) / CHUNK_OCTETS);
const SLABS = new BufferPool(SLAB_OCTETS, (FEEDS_AT_ONCE * FEED_MAX_OCTETS) / SLAB_OCTETS);

/**
 * The VCALENDAR of the events the list gives for `range`: per ISO date in the range, one all-day
 * VEVENT, or when the event has sessions that date (`YYYY-MM-DDTHH:MM` items) one timed VEVENT
 * per session instead (and the all-day one too if another item holds the date all day), ordered by
 * date, eventId, then time, up to `cap` events and `maxOctets` of VEVENTs (the later
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
  const slabs = new OctetSlabs();
  try {
    return await build(range, sources, limits, slabs);
  } finally {
    // Every event's text is rendered or dropped by now: nothing reads the slabs again.
    slabs.recycle();
  }
}

async function build(
  range: FeedRange,
  sources: FeedSources,
  limits: FeedLimits,
  slabs: OctetSlabs,
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
      if (!output.add(vevent(next.date, next.text, next.session), limits.maxOctets)) {
        full = true;
        truncated = `OCTETS=${limits.maxOctets}`;
        waiting.clear();
        break;
      }
      if (!(await sources.pause())) return false;
    }
    return true;
  };
  const abandon = (): undefined => {
    output.recycle();
    return undefined;
  };

  do {
    const page = await sources.readPage(cursor);
    if (!(await sources.pause())) return abandon();
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
      // Only an event with an item of a session's length (16) pays for telling sessions from all-day dates.
      const days = event.dates.some((item) => item.length === 16) ? eventDays(event.dates) : undefined;
      for (const date of dates) {
        if (!withinRange(date, range)) continue;
        text ??= eventText(event, stamp, slabs.take);
        const key = orderKey(date, event.eventId);
        const times = days?.sessions.get(date);
        if (times === undefined || days?.allDay.has(date)) waiting.push({ key, date, text });
        for (const time of times ?? []) {
          const start = sessionStart({ date, time }, limits.timeZone ?? 'UTC');
          const end = event.durationMinutes === null ? undefined : start + event.durationMinutes * 60_000;
          waiting.push({ key: `${key} ${time}`, date, text, session: { time, start, end } });
        }
      }
    }
    cursor = page.nextCursor;
    if (read >= limits.cap) {
      if (taken.length < page.events.length || cursor !== undefined) truncated ??= `EVENTS=${limits.cap}`;
      cursor = undefined;
    }
    const last = taken.at(-1);
    if (!full && cursor !== undefined && last !== undefined) {
      if (!(await renderUpTo(frontierOf(last, range)))) return abandon();
    }
    // Cut at the size bound: nothing more is rendered, and the events without an ISO date (last
    // in the list) are not read on for, so their count is left out of the head.
    if (full) cursor = undefined;
  } while (cursor !== undefined);
  if (!full && !(await renderUpTo(undefined))) return abandon();
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

/**
 * The octets of the events' shared lines, for as long as the feed is built: views of slabs of
 * SLAB_OCTETS (from SLABS), so that thousands of events make a few allocations, outside the
 * JavaScript heap, and none once the pool holds slabs.
 */
class OctetSlabs {
  private readonly slabs: Buffer[] = [];
  private slab: Buffer = Buffer.alloc(0);
  private used = 0;

  /** A view of `octets` not yet written (the caller fills all of it). */
  readonly take = (octets: number): Buffer => {
    if (octets > this.slab.length - this.used) {
      if (octets > SLAB_OCTETS / 4) return Buffer.allocUnsafe(octets);
      this.slab = SLABS.take();
      this.slabs.push(this.slab);
      this.used = 0;
    }
    this.used += octets;
    return this.slab.subarray(this.used - octets, this.used);
  };

  recycle(): void {
    SLABS.give(this.slabs.splice(0));
    this.slab = Buffer.alloc(0);
  }
}

/**
 * The VEVENTs written straight into Buffers of CHUNK_OCTETS (from CHUNKS; a larger one of its own
 * for a VEVENT that needs it), and their total, bounded. A VEVENT that does not fit what is left
 * of a chunk starts the next one.
 */
class ChunkWriter {
  private readonly chunks: Buffer[] = [];
  private readonly whole: Buffer[] = [];
  private chunk: Buffer = Buffer.alloc(0);
  private used = 0;
  private octets = 0;

  /** Adds the VEVENT, or false when it would take the total past `maxOctets` (it is then left out). */
  add(event: Vevent, maxOctets: number): boolean {
    if (this.octets + event.octets > maxOctets) return false;
    this.octets += event.octets;
    if (event.octets > this.chunk.length - this.used) {
      this.seal();
      this.chunk = event.octets > CHUNK_OCTETS ? Buffer.allocUnsafe(event.octets) : CHUNKS.take();
      this.whole.push(this.chunk);
    }
    // The head and tail are ASCII: latin1 writes them a byte per character, without UTF-8's checks.
    this.used += this.chunk.write(event.head, this.used, 'latin1');
    this.used += event.lines.copy(this.chunk, this.used);
    this.used += this.chunk.write(event.tail, this.used, 'latin1');
    return true;
  }

  finish(head: string, tail: string): BuiltFeed {
    this.seal();
    const first = Buffer.from(head, 'utf8');
    const last = Buffer.from(tail, 'utf8');
    return {
      chunks: [first, ...this.chunks, last],
      octets: first.length + this.octets + last.length,
      recycle: () => this.recycle(),
    };
  }

  recycle(): void {
    CHUNKS.give(this.whole.splice(0));
  }

  private seal(): void {
    if (this.used > 0) this.chunks.push(this.chunk.subarray(0, this.used));
    this.chunk = Buffer.alloc(0);
    this.used = 0;
  }
}
