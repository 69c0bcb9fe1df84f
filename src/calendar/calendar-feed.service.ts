import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { AppConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/config.module.js';
import { SpecialEventsService } from '../special-events/special-events.service.js';
import { CalendarEventStamps, type StampsVersion } from './calendar.repository.js';
import {
  FEED_EVENT_CAP,
  FEED_MAX_OCTETS,
  FEED_PAGE_SIZE,
  FEEDS_AT_ONCE,
  PRODUCT_ID,
  type FeedRange,
} from './calendar-feed.js';
import { type BuiltFeed, buildFeed } from './feed-builder.js';
import { FeedTurns, LoopShare } from './feed-turns.js';

/** What a feed request comes to. */
export type FeedOutcome =
  /** `release` gives the feed's turn back: call it once the feed is sent (or given up). */
  | ({ readonly kind: 'feed'; readonly etag: string; readonly release: () => void } & BuiltFeed)
  | { readonly kind: 'not-modified'; readonly etag: string }
  /** The client went away while the feed was built: nothing is left to answer. */
  | { readonly kind: 'abandoned' };

/**
 * The most time the feeds' work, all feeds together, holds the event loop before it lets other
 * requests in (a list page read on SQLite, which is synchronous, is the one step longer than a VEVENT).
 */
const SLICE_MS = 10;

/** The rendering's version, in every tag: raise it when the same events come to give other bytes. */
const FEED_FORMAT = 3;

/**
 * One build of a feed and the requests it answers: every request for the same entity tag while it
 * is built or sent joins it instead of building the same bytes again (the tag decides the bytes).
 * It holds one turn of FeedTurns from the build's start until its last request is sent; its chunks
 * go back to the pool only once every request that took them has finished sending them.
 */
interface SharedFeed {
  built?: Promise<BuiltFeed | undefined>;
  /** Aborted once every request that joined has gone away: the build then stops. */
  readonly gone: AbortController;
  /** Requests that joined and have neither gone away nor received the feed yet. */
  waiting: number;
  /** Requests that joined and have not released it yet. */
  users: number;
  /** Requests that joined, and those of them whose response finished (each handed the chunks to the OS). */
  joined: number;
  recycled: number;
  /** The turn, once taken; given back when the last request releases the feed. */
  releaseTurn?: () => void;
}

/**
 * The feed of the events in a date range, built from what SpecialEventsModule exports: its list,
 * page by page along the cursors, exactly as a client would read it (the range is validated
 * there, so the feed refuses what the list refuses), and the module's own stamps.
 */
@Injectable()
export class CalendarFeedService {
  private readonly turns = new FeedTurns(FEEDS_AT_ONCE);
  private readonly share = new LoopShare(SLICE_MS);
  /** The feeds being built or sent, by entity tag. */
  private readonly shared = new Map<string, SharedFeed>();

  constructor(
    private readonly events: SpecialEventsService,
    private readonly stamps: CalendarEventStamps,
    @InjectConfig() config: AppConfig,
  ) {
    this.timeZone = config.museum.timeZone;
  }

  /** Where sessions' local times are (MUSEUM_TIME_ZONE): a part of every tag, as it decides their instants. */
  private readonly timeZone: string;

  /**
   * The feed, or `not-modified` when `isCurrent` accepts its entity tag: that tag comes from the
   * stamps alone (one aggregate query), so a revalidation reads and renders no event. `abandoned`
   * once `signal` aborts: the build stops at its next slice, unless another request still waits
   * for the same feed. Requests for the same tag at the same time share one build and its bytes.
   */
  async feed(range: FeedRange, isCurrent: (etag: string) => boolean, signal: AbortSignal): Promise<FeedOutcome> {
    if (range.startDate !== undefined && range.endDate !== undefined && range.startDate > range.endDate) {
      // The list's own refusal (400), before any query, so that no tag answers a range it refuses.
      await this.events.list({ ...range, limit: 1 });
    }
    const version = await this.stamps.version();
    const etag = feedEtag(range, version, this.timeZone);
    if (isCurrent(etag)) return { kind: 'not-modified', etag };
    for (;;) {
      if (signal.aborted) return { kind: 'abandoned' };
      const shared = this.shared.get(etag) ?? this.start(etag, range, version);
      shared.users++;
      shared.joined++;
      shared.waiting++;
      const goneAway = (): void => {
        if (--shared.waiting === 0) shared.gone.abort();
      };
      signal.addEventListener('abort', goneAway, { once: true });
      let built: BuiltFeed | undefined;
      try {
        built = await shared.built;
      } catch (error) {
        shared.joined--;
        this.leave(etag, shared);
        throw error;
      } finally {
        signal.removeEventListener('abort', goneAway);
      }
      if (built !== undefined && !signal.aborted) return this.answer(etag, shared, built);
      // Gone away, or the build stopped (every other request had gone away just before this one
      // joined: it tries again). It took no chunk.
      shared.joined--;
      this.leave(etag, shared);
    }
  }

  /** A new build of the feed of `etag`, which the requests for it join. */
  private start(etag: string, range: FeedRange, version: StampsVersion): SharedFeed {
    const shared: SharedFeed = { gone: new AbortController(), waiting: 0, users: 0, joined: 0, recycled: 0 };
    this.shared.set(etag, shared);
    shared.built = this.build(etag, range, version, shared);
    return shared;
  }

  /**
   * Builds the feed in a turn of its own. A build that stopped or failed is forgotten at once, so
   * that a request coming after it starts a new one rather than joining it.
   */
  private async build(
    etag: string,
    range: FeedRange,
    version: StampsVersion,
    shared: SharedFeed,
  ): Promise<BuiltFeed | undefined> {
    let built: BuiltFeed | undefined;
    try {
      const signal = shared.gone.signal;
      shared.releaseTurn = await this.turns.take(signal);
      if (shared.releaseTurn === undefined) return undefined;
      built = await buildFeed(
        range,
        {
          readPage: (cursor) => this.events.list({ ...range, limit: FEED_PAGE_SIZE, cursor }),
          readStamps: (eventIds) => this.stamps.read(eventIds),
          pause: async () => (await this.share.pause(), !signal.aborted),
        },
        { cap: FEED_EVENT_CAP, maxOctets: FEED_MAX_OCTETS, stampless: version.latest, timeZone: this.timeZone },
      );
      return built;
    } finally {
      if (built === undefined && this.shared.get(etag) === shared) this.shared.delete(etag);
    }
  }

  /** One request's view of a built feed: its own release and recycle, each counted once. */
  private answer(etag: string, shared: SharedFeed, built: BuiltFeed): FeedOutcome {
    let released = false;
    let recycled = false;
    return {
      kind: 'feed',
      etag,
      chunks: built.chunks,
      octets: built.octets,
      release: () => {
        if (released) return;
        released = true;
        this.leave(etag, shared);
      },
      recycle: () => {
        if (recycled) return;
        recycled = true;
        shared.recycled++;
        this.recycleIfDone(shared, built);
      },
    };
  }

  /**
   * Between two writes of a feed's chunks: the same share of the event loop's turn as the builds
   * (SLICE_MS for all feeds together), then the next turn.
   */
  async pause(): Promise<void> {
    await this.share.pause();
  }

  /** A request is done with the feed (sent, or given up); the last one gives the turn back. */
  private leave(etag: string, shared: SharedFeed): void {
    shared.users--;
    if (shared.users > 0) return;
    if (this.shared.get(etag) === shared) this.shared.delete(etag);
    shared.releaseTurn?.();
    shared.releaseTurn = () => {};
    void shared.built?.then(
      (built) => built !== undefined && this.recycleIfDone(shared, built),
      () => {},
    );
  }

  /**
   * The chunks go back to the pool once no request joins any more and every one that joined
   * finished its response. A request whose socket closed with writes pending never recycles: the
   * socket may still hold the chunks, and they are then left to the garbage collector.
   */
  private recycleIfDone(shared: SharedFeed, built: BuiltFeed): void {
    if (shared.users === 0 && shared.recycled === shared.joined) {
      shared.recycled = Number.NaN;
      built.recycle();
    }
  }
}

/**
 * The feed's strong entity tag, from what decides its bytes: the range, the bounds and the format,
 * and the stamps of all events (every create, update and delete changes them, in the event's own
 * transaction). Any change to any event changes every range's tag: a revalidation then costs one
 * build, never a stale calendar. The tag is read before the events, so a feed built while events
 * change carries the older tag, and the next revalidation fetches it again.
 */
function feedEtag(range: FeedRange, version: StampsVersion, timeZone: string): string {
  const inputs = [
    FEED_FORMAT,
    PRODUCT_ID,
    FEED_EVENT_CAP,
    FEED_MAX_OCTETS,
    timeZone,
    range.startDate ?? '',
    range.endDate ?? '',
  ];
  const digest = createHash('sha256')
    .update(JSON.stringify([...inputs, version.count, version.latest, version.sum]))
    .digest();
  return `"${digest.subarray(0, 16).toString('base64url')}"`;
}
