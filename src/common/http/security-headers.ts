import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

type Middleware = (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void;

/** Swagger UI at /docs (its page, init script and static assets), matched as Express routes it. */
const DOCS_PATH = /^\/docs(\/|$)/i;

/**
 * The headers of every API response. The API answers JSON only, so nothing may be loaded, framed
 * or sniffed: `default-src 'none'`, `frame-ancestors 'none'` (and X-Frame-Options DENY for old
 * browsers), no Referer, nosniff. Helmet's defaults otherwise, HSTS included: browsers ignore
 * Strict-Transport-Security over plain HTTP (RFC 6797, 8.1), and behind the TLS proxy the service
 * must sit behind (Basic credentials are plain text on the wire) it pins browsers to HTTPS.
 */
const API_HEADERS = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
  },
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
}) as Middleware;

/**
 * Swagger UI's page loads its scripts, styles and icons from /docs/ ('self'), has inline <style>
 * blocks and style attributes, uses data: images in its CSS, and "Try it out" calls the API on the
 * same origin. Nothing else: no inline or eval'd script, no other origin, not framable.
 */
const DOCS_HEADERS = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
}) as Middleware;

/** Security headers on every response: strict for the API, Swagger UI's policy on /docs. */
export function securityHeaders(): Middleware {
  return (request, response, next) => {
    const path = (request as { path?: string }).path ?? request.url ?? '';
    (DOCS_PATH.test(path) ? DOCS_HEADERS : API_HEADERS)(request, response, next);
  };
}

/**
 * The API's security headers as fixed name/value pairs, for the answers written straight to the
 * socket (requests Node's parser refuses never reach Express). Taken from the same middleware, so
 * they cannot drift apart.
 */
export function apiSecurityHeaderLines(): string {
  const headers = new Map<string, string>();
  const collector = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.set(name, String(value));
      return collector;
    },
    removeHeader(name: string) {
      headers.delete(name);
    },
  };
  API_HEADERS({} as IncomingMessage, collector as unknown as ServerResponse, () => undefined);
  return [...headers].map(([name, value]) => `${name}: ${value}\r\n`).join('');
}
