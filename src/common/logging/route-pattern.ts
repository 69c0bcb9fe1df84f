import type { IncomingMessage } from 'node:http';

/** The `route` of a request no route matched (unknown path or method): one value, not the path. */
export const UNMATCHED_ROUTE = '(unmatched)';

interface RoutedRequest extends IncomingMessage {
  readonly route?: { readonly path?: unknown };
  readonly baseUrl?: string;
}

/**
 * The route pattern that served the request (`/special-events/:eventId`), never the raw path: a
 * log field and a metric label that stay few in number and never carry an id. Read when the
 * response is finished, after Express has routed. Express leaves `req.route` at the last route
 * entered, and Nest mounts middleware (logging, metrics) as catch-all routes (`{/*splat}`): a
 * wildcard there means that no handler matched (the service has no wildcard routes). A request
 * answered by mounted middleware (static assets of /docs) gets its mount point with `/*`.
 */
export function routePattern(request: IncomingMessage): string {
  const { route, baseUrl } = request as RoutedRequest;
  if (route && typeof route.path === 'string' && !route.path.includes('*')) return (baseUrl ?? '') + route.path;
  return baseUrl ? `${baseUrl}/*` : UNMATCHED_ROUTE;
}
