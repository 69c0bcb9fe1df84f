import type { IncomingMessage, ServerResponse } from 'node:http';
import { PROBLEM_CONTENT_TYPE, statusTitle } from '../problem/problem.js';
import { shownPathOf } from './shown-path.js';

type Middleware = (request: IncomingMessage, response: ServerResponse, next: () => void) => void;

/** Methods that change nothing here, and the preflight. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A browser that logged in with Basic (the door page does) sends that login with every request to
 * the service, whichever site's page makes it: a form posted from another site, or a `no-cors`
 * fetch, could then check a ticket in by its id. Fetch Metadata tells such a request apart (every
 * current browser sends `Sec-Fetch-Site`, over HTTPS and to localhost): one that changes something
 * and comes from another site's page is refused with 403 before anything runs, unless its Origin
 * is one of CORS_ORIGINS. Requests without the header (other clients, the user's own navigation)
 * are not concerned.
 */
export function refuseCrossSiteWrites(allowedOrigins: readonly string[]): Middleware {
  const allowed = new Set(allowedOrigins);
  return (request, response, next) => {
    const site = request.headers['sec-fetch-site'];
    if (
      SAFE_METHODS.has(request.method ?? '') ||
      site === undefined ||
      site === 'same-origin' ||
      site === 'none' ||
      allowed.has(request.headers.origin ?? '')
    ) {
      next();
      return;
    }
    const body = JSON.stringify({
      type: 'about:blank',
      title: statusTitle(403),
      status: 403,
      detail: "A page of another site may not change anything here with this browser's login.",
      instance: shownPathOf(request),
    });
    // The body (a form's) is left unread: the connection is not reused.
    response.writeHead(403, {
      'Content-Type': `${PROBLEM_CONTENT_TYPE}; charset=utf-8`,
      'Content-Length': Buffer.byteLength(body),
      Connection: 'close',
    });
    response.end(body);
  };
}
