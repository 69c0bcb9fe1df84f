import type { IncomingMessage } from 'node:http';

const SHOWN_PATH = Symbol('SHOWN_PATH');

interface MarkedRequest extends IncomingMessage {
  [SHOWN_PATH]?: string;
}

/**
 * Replaces the request's path, wherever the service repeats it (a problem's `instance`, the error
 * and database-unavailable log lines), with `shown`: for paths that carry a secret, such as a
 * calendar feed token. The access log line never holds the path (only the route pattern), so the
 * secret is then nowhere in what the service says or writes.
 */
export function showPathAs(request: IncomingMessage, shown: string): void {
  (request as MarkedRequest)[SHOWN_PATH] = shown;
}

/** The path without its query, or what showPathAs put in its place. */
export function shownPathOf(request: IncomingMessage & { originalUrl?: string }): string {
  const shown = (request as MarkedRequest)[SHOWN_PATH];
  if (shown !== undefined) return shown;
  const url = request.originalUrl ?? request.url ?? '/';
  const queryAt = url.indexOf('?');
  return queryAt === -1 ? url : url.slice(0, queryAt);
}
