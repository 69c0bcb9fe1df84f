import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

type Middleware = (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void;

/**
 * Swagger UI at /docs (its page, init script and static assets), matched on the raw URL as
 * Express routes it (case-insensitively), query string or not.
 */
const DOCS_PATH = /^\/docs([/?]|$)/i;

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

/**
 * A page the service serves itself (the door scanner): its HTML, scripts and styles come from its
 * own origin only, and it talks to the API on that origin. No inline script or style, no eval, no
 * other origin, no plugins, no <base>, no native form posts, not framable. Trusted Types are
 * required, so a string can never become markup or script. Sent only on the page's own files
 * (applyPageSecurityHeaders); its errors keep the API's headers.
 */
const PAGE_HEADERS = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'none'"],
      frameAncestors: ["'none'"],
      requireTrustedTypesFor: ["'script'"],
    },
  },
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
}) as Middleware;

/** What a helmet middleware does to a response: the headers it sets and those it removes. */
interface HeaderEffects {
  readonly set: readonly (readonly [string, string])[];
  readonly removed: readonly string[];
}

/**
 * Runs a helmet middleware once against a recorder. Helmet's headers here depend on nothing in the
 * request (no nonces), so they are computed once and replayed on every response, instead of
 * running a dozen middlewares per request.
 */
function recordEffects(middleware: Middleware): HeaderEffects {
  const headers = new Map<string, string>();
  const removed = new Set<string>();
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.set(name, String(value));
      removed.delete(name.toLowerCase());
      return recorder;
    },
    removeHeader(name: string) {
      headers.delete(name);
      removed.add(name.toLowerCase());
    },
  };
  let called = false;
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, () => {
    called = true;
  });
  if (!called) throw new Error('helmet did not call next() synchronously: its headers cannot be precomputed');
  return { set: [...headers], removed: [...removed] };
}

function apply(effects: HeaderEffects, response: ServerResponse): void {
  for (const name of effects.removed) response.removeHeader(name);
  for (const [name, value] of effects.set) response.setHeader(name, value);
}

const API_EFFECTS = recordEffects(API_HEADERS);
const DOCS_EFFECTS = recordEffects(DOCS_HEADERS);
const PAGE_EFFECTS = recordEffects(PAGE_HEADERS);

/** Security headers for every response: strict for the API, Swagger UI's policy on /docs. */
export function applySecurityHeaders(request: IncomingMessage, response: ServerResponse): void {
  apply(DOCS_PATH.test(request.url ?? '') ? DOCS_EFFECTS : API_EFFECTS, response);
}

/**
 * The policy of a page the service serves from its own origin, replacing the API's on one
 * response: the page's handler calls it for each file it sends. The camera alone among powerful
 * features, and only for this origin.
 */
export function applyPageSecurityHeaders(response: ServerResponse): void {
  apply(PAGE_EFFECTS, response);
  response.setHeader('Permissions-Policy', 'camera=(self), microphone=(), geolocation=(), payment=(), usb=()');
}

/**
 * The API's security headers as fixed name/value pairs, for the answers written straight to the
 * socket (requests Node's parser refuses never reach Express). Taken from the same middleware, so
 * they cannot drift apart.
 */
export function apiSecurityHeaderLines(): string {
  return API_EFFECTS.set.map(([name, value]) => `${name}: ${value}\r\n`).join('');
}
