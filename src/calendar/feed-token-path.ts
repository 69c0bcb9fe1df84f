import type { NextFunction, Request, Response } from 'express';
import { showPathAs } from '../common/http/shown-path.js';

/** What a problem's `instance` (and an error's log line) shows for a path under /calendar/. */
export const SHOWN_FEED_PATH = '/calendar/{token}.ics';
export const SHOWN_OTHER_PATH = '/calendar/{redacted}';

/**
 * Mounted on every path under /calendar/ (CalendarModule), before routing: the token in the path
 * is a secret that opens the feed, so whatever the answer (404 for a revoked token, 400 for a bad
 * query, 405, 503), the path repeated in it is the pattern, never the token.
 */
export function hideFeedToken(request: Request, _response: Response, next: NextFunction): void {
  const path = request.originalUrl.split('?')[0];
  showPathAs(request, /^\/calendar\/[^/]+\.ics$/i.test(path) ? SHOWN_FEED_PATH : SHOWN_OTHER_PATH);
  next();
}
