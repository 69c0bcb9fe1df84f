import { createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ifNoneMatchFound } from './entity-tags.js';
import type { Route } from './routes.js';

export const PUBLIC_READ = Symbol('PUBLIC_READ');

/**
 * Marks a GET that a caller without credentials may make when the service is configured for
 * public read (PUBLIC_READ=true); with it off the mark changes nothing. A request that sends an
 * Authorization header is authenticated as on any route: only one without it is anonymous.
 */
export const PublicRead = (): MethodDecorator => SetMetadata(PUBLIC_READ, true);

/**
 * Marks the requests let in without credentials by public read (set by the Basic guard): a
 * property of the request under a symbol of this module's, which nothing else can name or
 * send. Not a WeakSet: each entry of a weak collection is extra work for every garbage
 * collection that finds it, and a flood of anonymous reads made one per request.
 */
const ANONYMOUS = Symbol('anonymous public read');

type MarkedRequest = Request & { [ANONYMOUS]?: true };

export function markAnonymousRead(request: Request): void {
  (request as MarkedRequest)[ANONYMOUS] = true;
}

export function isAnonymousRead(request: Request): boolean {
  return (request as MarkedRequest)[ANONYMOUS] === true;
}

/** A handler's parameter: true when this request is an anonymous public read. */
export const AnonymousRead = createParamDecorator((_data: unknown, context: ExecutionContext): boolean =>
  isAnonymousRead(context.switchToHttp().getRequest<Request>()),
);

/** How long shared caches and browsers may keep an anonymous answer. */
export interface PublicCachePolicy {
  readonly maxAgeSeconds: number;
  readonly staleWhileRevalidateSeconds: number;
}

export function publicCacheControl(policy: PublicCachePolicy): string {
  return `public, max-age=${policy.maxAgeSeconds}, stale-while-revalidate=${policy.staleWhileRevalidateSeconds}`;
}

/**
 * Sets the headers of an anonymous answer and says whether it is a 304: `ETag`, `Cache-Control`
 * (the handler's own, so that no default for authenticated answers replaces it), and `Vary:
 * Authorization`, so that no cache hands this answer to a request with credentials, whose answer
 * differs. No `Vary: Origin`: every origin gets the same answer (`Access-Control-Allow-Origin: *`).
 * The tag is computed before the body, so a 304 never renders one.
 */
export function answeredNotModified(request: Request, response: Response, cacheControl: string, etag: string): boolean {
  response.setHeader('ETag', etag);
  response.setHeader('Cache-Control', cacheControl);
  response.vary('Authorization');
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch !== undefined && ifNoneMatchFound(ifNoneMatch, etag)) {
    response.status(304).end();
    return true;
  }
  return false;
}

/**
 * A test of a request's path: true for the paths of @PublicRead() routes (Express's matching:
 * any letter case, an optional trailing slash), for the CORS decision that runs before routing.
 */
export function publicReadPaths(routes: readonly Route[]): (path: string) => boolean {
  const patterns = routes
    .filter((route) => Reflect.getMetadata(PUBLIC_READ, route.handler) === true)
    .map((route) => {
      const segments = route.path
        .split('/')
        .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
      return new RegExp(`^${segments.join('/')}/?$`, 'i');
    });
  return (path) => patterns.some((pattern) => pattern.test(path));
}

/** What a browser may do on a public route without credentials: read, from any origin. */
export const PUBLIC_CORS = {
  origin: '*',
  credentials: false,
  methods: ['GET', 'HEAD'],
  allowedHeaders: ['If-None-Match'],
  exposedHeaders: ['ETag', 'Link', 'Retry-After', 'X-Request-Id'],
  maxAge: 600,
};

/**
 * True for a request that public read answers without credentials, or its preflight: a GET or
 * HEAD without an Authorization header on a public path, or an OPTIONS that announces one and
 * no Authorization header.
 */
export function isAnonymousPublicRequest(
  request: { method: string; path: string; headers: Record<string, string | string[] | undefined> },
  isPublicPath: (path: string) => boolean,
  sendsCredentials: (headers: Record<string, string | string[] | undefined>) => boolean,
): boolean {
  const { headers } = request;
  if (request.method === 'OPTIONS') {
    const method = String(headers['access-control-request-method'] ?? '').toUpperCase();
    const announced = String(headers['access-control-request-headers'] ?? '').toLowerCase();
    return (
      (method === 'GET' || method === 'HEAD') &&
      !announced.split(',').some((name) => name.trim() === 'authorization') &&
      isPublicPath(request.path)
    );
  }
  // The path last: most requests with credentials are decided by their header alone.
  return (
    (request.method === 'GET' || request.method === 'HEAD') && !sendsCredentials(headers) && isPublicPath(request.path)
  );
}
