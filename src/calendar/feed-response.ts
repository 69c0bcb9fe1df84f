import { applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiProduces, ApiResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import { ifNoneMatchFound } from '../common/http/entity-tags.js';
import type { RenderedFeed } from './calendar-feed.js';

export const CALENDAR_CONTENT_TYPE = 'text/calendar; charset=utf-8';

/**
 * `private`: the feed is behind credentials or a secret URL, so no shared cache may keep it.
 * `no-cache`: a client may keep it but asks again each time, and If-None-Match makes that a 304
 * without a body while nothing changed; a stale calendar is worse than a cheap revalidation.
 */
export const FEED_CACHE_CONTROL = 'private, no-cache';

const FEED_HEADERS = {
  ETag: {
    description: 'Strong entity tag of the feed (a hash of its bytes): send it back in If-None-Match.',
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
        'of each event in the range. `X-MUSEUM-SKIPPED-EVENTS` counts the events left out for having no ISO date.',
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
 * The feed, or a 304 when If-None-Match names it (decided here: see SpecialEventsController.get).
 * `cacheControl` replaces FEED_CACHE_CONTROL for an anonymous public read.
 */
export function sendFeed(
  response: Response,
  feed: RenderedFeed,
  ifNoneMatch: string | undefined,
  cacheControl: string = FEED_CACHE_CONTROL,
): void {
  response.setHeader('ETag', feed.etag);
  response.setHeader('Cache-Control', cacheControl);
  if (ifNoneMatch !== undefined && ifNoneMatchFound(ifNoneMatch, feed.etag)) {
    response.status(304).end();
    return;
  }
  response.status(200);
  response.setHeader('Content-Type', CALENDAR_CONTENT_TYPE);
  response.setHeader('Content-Length', feed.body.length);
  response.end(feed.body);
}
