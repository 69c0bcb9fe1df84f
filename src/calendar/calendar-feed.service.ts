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
 * The feed of the events in a date range, built from what SpecialEventsModule exports: its list,
 * page by page along the cursors, exactly as a client would read it (the range is validated
 * there, so the feed refuses what the list refuses), and the module's own stamps.
 */
@Injectable()
export class CalendarFeedService {
  private readonly turns = new FeedTurns(FEEDS_AT_ONCE);
  private readonly share = new LoopShare(SLICE_MS);

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
   * once `signal` aborts: the build stops at its next slice.
   */
  async feed(range: FeedRange, isCurrent: (etag: string) => boolean, signal: AbortSignal): Promise<FeedOutcome> {
    if (range.startDate !== undefined && range.endDate !== undefined && range.startDate > range.endDate) {
      // The list's own refusal (400), before any query, so that no tag answers a range it refuses.
      await this.events.list({ ...range, limit: 1 });
    }
    const version = await this.stamps.version();
    const etag = feedEtag(range, version, this.timeZone);
    if (isCurrent(etag)) return { kind: 'not-modified', etag };
    const release = await this.turns.take(signal);
    if (release === undefined) return { kind: 'abandoned' };
    let built: BuiltFeed | undefined;
    try {
      built = await buildFeed(
        range,
        {
          readPage: (cursor) => this.events.list({ ...range, limit: FEED_PAGE_SIZE, cursor }),
          readStamps: (eventIds) => this.stamps.read(eventIds),
          pause: async () => (await this.share.pause(), !signal.aborted),
        },
        { cap: FEED_EVENT_CAP, maxOctets: FEED_MAX_OCTETS, stampless: version.latest, timeZone: this.timeZone },
      );
    } finally {
      if (built === undefined) release();
    }
    return built === undefined ? { kind: 'abandoned' } : { kind: 'feed', etag, release, ...built };
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
