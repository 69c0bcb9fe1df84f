import type { NextFunction, Request, Response } from 'express';
import { showPathAs } from '../common/http/shown-path.js';

/** What a problem's `instance` (and an error's log line) shows for the token feed's path. */
export const SHOWN_FEED_PATH = '/calendar/{token}.ics';
/** What it shows for any other path under /calendar/ (a token without `.ics`, a deeper path). */
export const SHOWN_OTHER_PATH = '/calendar/{redacted}';

/** The feed's path, in any letter case and with a trailing slash too, as Express routes it. */
const FEED_PATH = /^\/calendar\/[^/]+\.ics\/?$/i;

/**
 * Mounted on every path under /calendar/ (CalendarModule), before routing: the token in the path
 * is a secret that opens the feed, so whatever the answer (404 for a revoked token, 400 for a bad
 * query, 405, 503, 500), the path repeated in it and in the error log lines is a pattern, never
 * the token.
 */
export function hideFeedToken(request: Request, _response: Response, next: NextFunction): void {
  showPathAs(request, FEED_PATH.test(request.originalUrl.split('?')[0]) ? SHOWN_FEED_PATH : SHOWN_OTHER_PATH);
  next();
}
