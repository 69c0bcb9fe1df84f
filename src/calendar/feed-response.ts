import { applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiProduces, ApiResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import { ifNoneMatchFound } from '../common/http/entity-tags.js';
import type { FeedRange } from './calendar-feed.js';
import type { CalendarFeedService } from './calendar-feed.service.js';

export const CALENDAR_CONTENT_TYPE = 'text/calendar; charset=utf-8';

/**
 * `private`: the feed is behind credentials or a secret URL, so no shared cache may keep it.
 * `no-cache`: a client may keep it but asks again each time, and If-None-Match makes that a 304
 * without a body while nothing changed; a stale calendar is worse than a cheap revalidation.
 */
export const FEED_CACHE_CONTROL = 'private, no-cache';

const FEED_HEADERS = {
  ETag: {
    description:
      'Strong entity tag of the feed (a hash of its range and of the stamps of all events): send it back in If-None-Match.',
    required: true,
    schema: { type: 'string' },
  },
  'Cache-Control': {
    description: `Always \`${FEED_CACHE_CONTROL}\`: kept by the client only, and revalidated before each use.`,
    required: true,
    schema: { type: 'string' },
  },
} as const;

/** The OpenAPI description of a feed's 200 and 304, and of its If-None-Match. */
export function ApiFeedResponses(): MethodDecorator {
  return applyDecorators(
    ApiProduces('text/calendar'),
    ApiHeader({
      name: 'If-None-Match',
      required: false,
      description: 'The ETag of a feed read before: 304 while the feed is still the same.',
    }),
    ApiOkResponse({
      description:
        'An RFC 5545 VCALENDAR (UTF-8, CRLF line breaks, lines folded at 75 octets): one all-day VEVENT per ISO date ' +
        'of each event in the range. `X-MUSEUM-SKIPPED-EVENTS` counts the events left out for having no ISO date ' +
        '(absent from a feed cut at its size bound, `X-MUSEUM-TRUNCATED:OCTETS=…`).',
      content: { 'text/calendar': { schema: { type: 'string' } } },
      headers: FEED_HEADERS,
    }),
    ApiResponse({
      status: 304,
      description: 'Not modified: the If-None-Match tag is the feed as it is now. No body.',
      headers: FEED_HEADERS,
    }),
  );
}

/**
 * Answers a feed request: a 304 when If-None-Match names the current tag (decided here: see
 * SpecialEventsController.get), else the feed, written chunk by chunk as the client takes it.
 * `cacheControl` replaces FEED_CACHE_CONTROL for an anonymous public read.
 */
export async function sendFeed(
  feeds: CalendarFeedService,
  range: FeedRange,
  ifNoneMatch: string | undefined,
  response: Response,
  cacheControl: string = FEED_CACHE_CONTROL,
): Promise<void> {
  const gone = new AbortController();
  const onClose = (): void => gone.abort();
  response.once('close', onClose);
  const outcome = await feeds.feed(
    range,
    (etag) => ifNoneMatch !== undefined && ifNoneMatchFound(ifNoneMatch, etag),
    gone.signal,
  );
  if (outcome.kind === 'abandoned') return;
  response.setHeader('ETag', outcome.etag);
  response.setHeader('Cache-Control', cacheControl);
  if (outcome.kind === 'not-modified') {
    response.status(304).end();
    return;
  }
  try {
    response.status(200);
    response.setHeader('Content-Type', CALENDAR_CONTENT_TYPE);
    response.setHeader('Content-Length', outcome.octets);
    for (const chunk of outcome.chunks) {
      if (gone.signal.aborted) return;
      if (!response.write(chunk)) await drained(response);
      // A write the socket takes at once returns true: without a pause, one response (or all
      // those of a shared feed, which resume together) would copy megabytes in one turn.
      else await feeds.pause();
    }
    response.off('close', onClose);
    // Every chunk handed to the operating system: their memory serves the next feed.
    response.once('finish', outcome.recycle);
    response.end();
  } finally {
    outcome.release();
  }
}

/**
 * How long a feed's client may take nothing of what was written before its connection is closed.
 * A feed holds one of the FEEDS_AT_ONCE turns until it is sent: without this bound, four clients
 * that asked for a feed and stopped reading (or a load generator that stopped without closing
 * its connections, as the bench found) held every turn, and every later feed waited forever.
 * A calendar app reads what it asked for; a slow link still drains within seconds.
 */
export const FEED_STALL_MS = 10_000;

/**
 * When the socket has taken what was written, or the response closed meanwhile; after `stallMs`
 * with neither, the response is destroyed (its socket closed), which closes it.
 */
export function drained(response: Response, stallMs: number = FEED_STALL_MS): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(stalled);
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    const stalled = setTimeout(() => {
      response.destroy();
      done();
    }, stallMs);
    response.once('drain', done);
    response.once('close', done);
  });
}
