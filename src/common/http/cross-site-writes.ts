import type { IncomingMessage, ServerResponse } from 'node:http';
import { PROBLEM_CONTENT_TYPE, statusTitle } from '../problem/problem.js';
import { shownPathOf } from './shown-path.js';

/**
 * A browser that logged in with Basic (the door page does) sends that login with every request to
 * the service, whichever site's page makes it: a form posted from another site, or a `no-cors`
 * fetch, could then check a ticket in by its id. Fetch Metadata tells such a request apart (every
 * current browser sends `Sec-Fetch-Site`, over HTTPS and to localhost): one that changes something
 * and comes from another site's page is refused with 403 before anything runs, unless its Origin
 * is one of CORS_ORIGINS. Requests without the header (other clients, the user's own navigation)
 * are not concerned.
 *
 * The check of one request: true when it was refused (the 403 is sent), false when it goes on.
 */
export function crossSiteWriteRefusal(
  allowedOrigins: readonly string[],
): (request: IncomingMessage, response: ServerResponse) => boolean {
  const allowed = new Set(allowedOrigins);
  return (request, response) => {
    // The header first: most requests (every client but a browser) do not send it.
    const site = request.headers['sec-fetch-site'];
    if (site === undefined || site === 'same-origin' || site === 'none') return false;
    // Methods that change nothing here, and the preflight.
    const method = request.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return false;
    if (allowed.has(request.headers.origin ?? '')) return false;
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
    return true;
  };
}
