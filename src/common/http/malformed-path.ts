import type { Request } from 'express';

/**
 * Express decodes path parameters while routing, before any guard runs, and answers a path that
 * is not valid percent-encoding (`/special-events/%E0%A4%A`) with a 400 of its own: an anonymous
 * caller would get past authentication. When the path does not decode, its `%` signs are escaped
 * so that routing goes on with the literal text: the guard answers first (401), then validation
 * (400, the id is not a UUID). `originalUrl`, and so the problem's `instance`, stays as sent.
 * Run before routing, on every request (configureApp).
 */
export function escapeMalformedPercentEncoding(request: Request): void {
  const queryAt = request.url.indexOf('?');
  const path = queryAt === -1 ? request.url : request.url.slice(0, queryAt);
  if (path.includes('%')) {
    try {
      decodeURIComponent(path);
    } catch {
      request.url = path.replaceAll('%', '%25') + (queryAt === -1 ? '' : request.url.slice(queryAt));
    }
  }
}
