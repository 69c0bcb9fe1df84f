import { randomBytes, randomUUID } from 'node:crypto';
import { request as httpRequest, STATUS_CODES, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Response } from 'supertest';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { PasswordHasher } from '../src/auth/password-hasher.js';
import { UsersService } from '../src/auth/users.service.js';
import {
  type Body,
  CHALLENGE,
  expectProblem,
  expectUnauthorized,
  LEAK,
  PROBLEM_KEYS,
  validEvent,
} from './helpers/problem-assertions.js';
import { parseRaw, rawExchange, type RawResponse } from './helpers/raw-http.js';
import {
  AUTH,
  basicHeader,
  PRODUCTION_HASHING,
  TEST_PASSWORD,
  TEST_USER,
  useTestApp,
  type TestApp,
} from './helpers/test-app.js';

/**
 * Security (issue 5, item 5), end to end over TCP on the app built exactly as main.ts builds it,
 * on SQLite and MySQL: one 401 for every credential failure, the same in body, headers and time
 * (unknown users pay a dummy hash); 429 with Retry-After per client address, never caused by
 * successes and not dodged with X-Forwarded-For; no secret in any log line at LOG_LEVEL=trace;
 * body, header and URL size limits; no internal detail in any error; helmet's security headers on
 * every kind of response, with a Swagger UI policy on /docs only. One app open at a time: each
 * top-level describe starts and closes its own.
 */

/** Also never in an error body: JavaScript error classes and the libraries underneath. */
const INTERNALS =
  /TypeError|SyntaxError|RangeError|ReferenceError|Unexpected token|JSON\.parse|stack|typeorm|mysql|sqlite|passport|express|nestjs|scrypt|\.ts\b|\.js\b/i;

const rand = (): string => randomBytes(9).toString('base64url');
const b64 = (text: string | Buffer): string => Buffer.from(text).toString('base64');

// ---------------------------------------------------------------------------------------------
// The security headers every response carries (src/common/http/security-headers.ts)
// ---------------------------------------------------------------------------------------------

/** The API's headers, exactly: a JSON API loads, frames and sniffs nothing. */
const API_SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': "default-src 'none';frame-ancestors 'none'",
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

/** Swagger UI's policy on /docs: scripts only from 'self', inline styles, data: images. */
const DOCS_CSP: Record<string, string[]> = {
  'default-src': ["'none'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

function cspDirectives(value: string | undefined): Record<string, string[]> {
  const directives: Record<string, string[]> = {};
  for (const part of (value ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives[name] = sources;
  }
  return directives;
}

type Headers = Record<string, string | string[] | undefined>;

function expectApiSecurityHeaders(headers: Headers): void {
  const security = Object.fromEntries(Object.keys(API_SECURITY_HEADERS).map((name) => [name, headers[name]]));
  expect(security).toStrictEqual(API_SECURITY_HEADERS);
  expect(headers['x-powered-by']).toBeUndefined();
}

function expectDocsSecurityHeaders(headers: Headers): void {
  const { 'content-security-policy': csp, ...others } = API_SECURITY_HEADERS;
  expect(csp).toBeDefined();
  for (const [name, value] of Object.entries(others)) expect({ name, value: headers[name] }).toEqual({ name, value });
  expect(cspDirectives(headers['content-security-policy'] as string)).toStrictEqual(DOCS_CSP);
  expect(headers['x-powered-by']).toBeUndefined();
}

// ---------------------------------------------------------------------------------------------
// HTTP helpers: node:http (any local address, every header as sent) and raw sockets
// ---------------------------------------------------------------------------------------------

interface Exchange {
  status: number;
  headers: IncomingHttpHeaders;
  /** Header names in the order they were sent. */
  headerNames: string[];
  text: string;
  ms: number;
}

interface Send {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The client address (any 127.x.y.z reaches the app on 127.0.0.1): one limiter bucket per test. */
  from?: string;
}

/** One request on a new connection, timed from the first byte sent to the last byte received. */
function send(t: TestApp, { method = 'GET', path, headers = {}, body, from = '127.0.0.1' }: Send): Promise<Exchange> {
  const { hostname, port } = new URL(t.baseUrl);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = httpRequest(
      { host: hostname, port, method, path, headers, localAddress: from, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            headerNames: res.rawHeaders.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase()),
            text: Buffer.concat(chunks).toString('utf8'),
            ms: performance.now() - started,
          }),
        );
        res.on('error', reject);
      },
    );
    // The server may answer (401, 413) before the whole body is sent and then stop reading.
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' ? undefined : reject(error)));
    req.end(body);
  });
}

/** An Exchange seen through the supertest-shaped helpers of problem-assertions.ts. */
function asResponse(res: Exchange): Response {
  let body: unknown = {};
  try {
    body = JSON.parse(res.text);
  } catch {
    body = res.text;
  }
  return { status: res.status, headers: res.headers, text: res.text, body } as unknown as Response;
}

function post(
  t: TestApp,
  authorization: string | undefined,
  body: Body = validEvent(),
  from?: string,
): Promise<Exchange> {
  return send(t, {
    method: 'POST',
    path: '/special-events',
    headers: {
      'Content-Type': 'application/json',
      ...(authorization === undefined ? {} : { Authorization: authorization }),
    },
    body: JSON.stringify(body),
    from,
  });
}

/** A raw answer that is problem details with one of `statuses`, its body exactly as announced. */
function expectRawProblem(res: RawResponse, statuses: number[]): Body {
  expect(statuses).toContain(res.status);
  expect(res.reason).toBe(STATUS_CODES[res.status]);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json(;|$)/);
  expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
  const body = JSON.parse(res.body) as Body;
  expect(Object.keys(body).sort()).toEqual(PROBLEM_KEYS);
  expect(body).toMatchObject({ type: 'about:blank', title: STATUS_CODES[res.status], status: res.status });
  expect(res.body).not.toMatch(LEAK);
  expect(res.body).not.toMatch(INTERNALS);
  expectApiSecurityHeaders(res.headers);
  return body;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

// =============================================================================================
// The default app (CORS on for one origin, so that preflights are among the responses checked).
// The refusals whose cost is compared run on a second app, after it, that hashes at the service's
// own cost; the rest on one that hashes cheaply.
// =============================================================================================

const ORIGIN = 'https://app.example.org';

describe('with the default app', () => {
  const t = useTestApp({ CORS_ORIGINS: ORIGIN });

  describe('secrets never reach the log, at any level (LOG_LEVEL=trace)', () => {
    it('after accepted and refused requests and a user created in process: no password, token, hash, cookie or header', async () => {
      expect(t.config.logLevel).toBe('trace');
      const users = t.app.get(UsersService);
      const user = `colon-${rand()}`;
      const password = `first-${rand()}:second-${rand()}:third`;
      const wrongPassword = `wrong-${rand()}:${rand()}`;
      const unknownPassword = `unknown-${rand()}`;
      const malformed = `%%not-base64-${rand()}%%`;
      const bearer = `bearer-token-${rand()}`;
      const cookie = `cookie-secret-${rand()}`;
      await users.add(user, password);
      const stored = (await users.find(user))?.passwordHash ?? '';
      expect(stored).toMatch(/^\$scrypt\$/);

      const good = basicHeader(user, password);
      const bad = basicHeader(user, wrongPassword);
      const unknown = basicHeader(`ghost-${rand()}`, unknownPassword);
      const withCookie = { Cookie: `test=${cookie}` };
      const event = validEvent();
      const requestsBefore = t.logs.filter((line) => line.msg === 'request completed').length;

      expect((await post(t, good, event)).status).toBe(201);
      expect((await post(t, AUTH)).status).toBe(201);
      for (const authorization of [
        bad,
        unknown,
        `Basic ${malformed}`,
        `Bearer ${bearer}`,
        `Basic ${b64(`${user}:`)}`,
      ]) {
        expect((await post(t, authorization)).status).toBe(401);
      }
      const path = `/special-events/${event.eventId as string}`;
      expect((await send(t, { method: 'DELETE', path, headers: { Authorization: bad, ...withCookie } })).status).toBe(
        401,
      );
      expect((await send(t, { method: 'DELETE', path, headers: { Authorization: good, ...withCookie } })).status).toBe(
        204,
      );
      expect((await send(t, { method: 'DELETE', path, headers: { Authorization: good, ...withCookie } })).status).toBe(
        404,
      );
      // A validation error and malformed JSON, with the credentials and a cookie.
      expect(
        (
          await send(t, {
            method: 'POST',
            path: '/special-events',
            headers: { Authorization: good, 'Content-Type': 'application/json', ...withCookie },
            body: '{"name":',
          })
        ).status,
      ).toBe(400);
      // Changing the password in process, then the old one is refused.
      const newPassword = `renewed-${rand()}:${rand()}`;
      await users.setPassword(user, newPassword);
      const renewed = (await users.find(user))?.passwordHash ?? '';
      expect((await post(t, good)).status).toBe(401);
      expect((await post(t, basicHeader(user, newPassword))).status).toBe(201);

      // 13 requests, 13 request lines: the log has caught up.
      await vi.waitFor(() =>
        expect(
          t.logs.filter((line) => line.msg === 'request completed').length - requestsBefore,
        ).toBeGreaterThanOrEqual(13),
      );
      const log = t.logText();
      expect(log.length).toBeGreaterThan(0);
      // At trace level there is something to look at: the database queries.
      expect(t.logs.some((line) => line.level === 10)).toBe(true);
      const secrets = [
        password,
        ...password.split(':'),
        wrongPassword,
        ...wrongPassword.split(':'),
        unknownPassword,
        newPassword,
        ...newPassword.split(':'),
        TEST_PASSWORD,
        malformed,
        bearer,
        cookie,
      ];
      for (const header of [good, bad, unknown, AUTH, basicHeader(user, newPassword)]) {
        secrets.push(header, header.slice('Basic '.length));
      }
      // The stored hashes: neither whole nor their salt or key parts.
      for (const hash of [stored, renewed]) secrets.push(hash, ...hash.split('$').filter((part) => part.length >= 16));
      for (const secret of secrets) expect({ secret, logged: log.includes(secret) }).toEqual({ secret, logged: false });
      expect(log).not.toContain('$scrypt$');
      expect(log).not.toMatch(/\b(Basic|Bearer) [A-Za-z0-9+/%=_-]{6,}/i);
      expect(log).not.toMatch(/"(authorization|cookie|set-cookie|password|passwordHash|password_hash)"/i);
    });
  });

  describe('size limits: 413, 431, 414 and 400 as problem details, never a 5xx', () => {
    const bodyOf = (bytes: number): string => {
      const frame = '{"name":""}';
      return `{"name":"${'x'.repeat(bytes - frame.length)}"}`;
    };

    it('a body over 256 KiB: 413; exactly 256 KiB is read (400: the name is too long)', async () => {
      const limit = 256 * 1024;
      const over = await send(t, {
        method: 'POST',
        path: '/special-events',
        headers: { Authorization: AUTH, 'Content-Type': 'application/json' },
        body: bodyOf(limit + 1),
      });
      expectProblem(asResponse(over), 413, '/special-events');
      expect(over.text).not.toMatch(INTERNALS);
      expectApiSecurityHeaders(over.headers);
      const at = await send(t, {
        method: 'POST',
        path: '/special-events',
        headers: { Authorization: AUTH, 'Content-Type': 'application/json' },
        body: bodyOf(limit),
      });
      expect(Buffer.byteLength(bodyOf(limit))).toBe(limit);
      expectProblem(asResponse(at), 400, '/special-events', true);
    });

    it('authentication comes before the body: an oversized body without credentials is a 401, not a 413', async () => {
      const res = await send(t, {
        method: 'POST',
        path: '/special-events',
        headers: { 'Content-Type': 'application/json' },
        body: bodyOf(300 * 1024),
      });
      expectUnauthorized(asResponse(res), '/special-events');
    });

    it('an anonymous request announcing a large body gets its 401 with Connection: close, and the body is not read', async () => {
      // 10 MB announced, 20 bytes sent: the answer and the closed connection must come without the rest.
      const raw = await rawExchange(
        t.baseUrl,
        'POST /special-events HTTP/1.1\r\nHost: museum\r\nContent-Type: application/json\r\n' +
          'Content-Length: 10000000\r\n\r\n{"name":"0123456789',
      );
      const res = parseRaw(raw);
      expectRawProblem(res, [401]);
      expect(res.headers['www-authenticate']).toBe(CHALLENGE);
      expect(res.headers.connection).toBe('close');
    });

    it('Expect: 100-continue without credentials: a 401 and no 100 Continue; with credentials: 100 Continue, then 201', async () => {
      const anonymous = await rawExchange(
        t.baseUrl,
        'POST /special-events HTTP/1.1\r\nHost: museum\r\nContent-Type: application/json\r\n' +
          'Content-Length: 200000\r\nExpect: 100-continue\r\n\r\n',
      );
      expect(anonymous).not.toMatch(/^HTTP\/1\.1 100/);
      const refused = parseRaw(anonymous);
      expectRawProblem(refused, [401]);
      expect(refused.headers.connection).toBe('close');

      const body = JSON.stringify(validEvent());
      const { hostname, port } = new URL(t.baseUrl);
      const exchange = await new Promise<{ status: number; continued: boolean }>((resolve, reject) => {
        const req = httpRequest({
          host: hostname,
          port,
          method: 'POST',
          path: '/special-events',
          agent: false,
          headers: {
            Authorization: AUTH,
            'Content-Type': 'application/json',
            'Content-Length': Buffer.byteLength(body),
            Expect: '100-continue',
          },
        });
        let continued = false;
        req.on('continue', () => {
          continued = true;
          req.end(body);
        });
        req.on('response', (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, continued }));
        });
        req.on('error', reject);
      });
      expect(exchange).toEqual({ status: 201, continued: true });
    });

    it('a header section over 16 KiB: 431 (raw socket), with or without credentials', async () => {
      for (const auth of ['', `Authorization: ${AUTH}\r\n`]) {
        const raw = await rawExchange(
          t.baseUrl,
          `POST /special-events HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}X-Padding: ${'p'.repeat(17 * 1024)}\r\n` +
            'Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}',
        );
        const body = expectRawProblem(parseRaw(raw), [431]);
        expect(body.detail).toBe('The request headers are too large.');
      }
    });

    it('many small headers adding up to over 16 KiB: 431', async () => {
      const headers = Array.from({ length: 400 }, (_, i) => `X-H${i}: ${'v'.repeat(40)}\r\n`).join('');
      const raw = await rawExchange(t.baseUrl, `GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}\r\n`);
      expectRawProblem(parseRaw(raw), [431]);
    });

    it('a URL over 16 KiB: 431 or 414 (raw socket), on API and operations paths', async () => {
      for (const path of [`/special-events/${'a'.repeat(17 * 1024)}`, `/health/live?q=${'q'.repeat(17 * 1024)}`]) {
        const raw = await rawExchange(
          t.baseUrl,
          `DELETE ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${AUTH}\r\n\r\n`,
        );
        expectRawProblem(parseRaw(raw), [414, 431]);
      }
    });

    it.each([
      ['a control character in a header value', 'X-Bad: a\u0001b\r\n'],
      ['a space in a header name', 'X Bad: x\r\n'],
      ['a non-token character in a header name', 'X(Bad): x\r\n'],
      ['a NUL byte in a header value', 'X-Bad: a\u0000b\r\n'],
      ['a bare CR in a header value', 'X-Bad: a\rb\r\n'],
    ])('%s: 400 (raw socket)', async (_label, header) => {
      const raw = await rawExchange(
        t.baseUrl,
        `DELETE /special-events/${randomUUID()} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${AUTH}\r\n${header}\r\n`,
      );
      const body = expectRawProblem(parseRaw(raw), [400]);
      expect(body.detail).toBe('The request is not valid HTTP.');
    });

    it('Expect other than 100-continue: 417 problem with the security headers', async () => {
      const raw = await rawExchange(
        t.baseUrl,
        `GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 200-ok\r\nConnection: close\r\n\r\n`,
      );
      const res = parseRaw(raw);
      const body = expectRawProblem(res, [417]);
      expect(body.instance).toBe('/health/live');
      expect(res.headers['x-request-id']).toEqual(expect.any(String));
    });

    it('two Host headers: 400 problem, never served', async () => {
      for (const path of ['/health/live', '/special-events']) {
        const raw = await rawExchange(
          t.baseUrl,
          `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\nAuthorization: ${AUTH}\r\n` +
            'Connection: close\r\n\r\n',
        );
        const body = expectRawProblem(parseRaw(raw), [400]);
        expect(body.detail).toBe('The request has more than one Host header.');
      }
    });
  });

  describe('no internal detail in any error body', () => {
    const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
    const existing = validEvent();

    beforeAll(async () => {
      const created = await post(t, AUTH, existing);
      if (created.status !== 201) throw new Error(`setup: create answered ${created.status}: ${created.text}`);
    });

    /** [label, request, status, instance, has errors] */
    const cases: [string, Send, number, string, boolean][] = [
      [
        'malformed JSON',
        {
          method: 'POST',
          path: '/special-events',
          headers: { Authorization: AUTH, 'Content-Type': 'application/json' },
          body: '{"name": "x", ',
        },
        400,
        '/special-events',
        false,
      ],
      [
        'JSON with a trailing garbage byte',
        {
          method: 'POST',
          path: '/special-events',
          headers: { Authorization: AUTH, 'Content-Type': 'application/json' },
          body: '{}x',
        },
        400,
        '/special-events',
        false,
      ],
      [
        '50,000 nested arrays',
        {
          method: 'POST',
          path: '/special-events',
          headers: { Authorization: AUTH, 'Content-Type': 'application/json' },
          body: deep,
        },
        400,
        '/special-events',
        false,
      ],
      [
        'wrong types everywhere',
        {
          method: 'POST',
          path: '/special-events',
          headers: { Authorization: AUTH, 'Content-Type': 'application/json' },
          body: JSON.stringify({ name: 1, location: [], eventDescription: {}, dates: 'x', price: '25', eventId: 7 }),
        },
        400,
        '/special-events',
        true,
      ],
      [
        '__proto__ pollution',
        {
          method: 'POST',
          path: '/special-events',
          headers: { Authorization: AUTH, 'Content-Type': 'application/json' },
          body: '{"__proto__":{"isAdmin":true}}',
        },
        400,
        '/special-events',
        true,
      ],
      [
        'price 1e400',
        {
          method: 'POST',
          path: '/special-events',
          headers: { Authorization: AUTH, 'Content-Type': 'application/json' },
          body: JSON.stringify(validEvent({ price: 0 })).replace('"price":0', '"price":1e400'),
        },
        400,
        '/special-events',
        true,
      ],
      [
        'an unpaired surrogate',
        {
          method: 'POST',
          path: '/special-events',
          headers: { Authorization: AUTH, 'Content-Type': 'application/json' },
          body: JSON.stringify(validEvent()).replace('Night', '\\ud800'),
        },
        400,
        '/special-events',
        true,
      ],
      [
        'bytes that are not UTF-8',
        {
          method: 'POST',
          path: '/special-events',
          headers: { Authorization: AUTH, 'Content-Type': 'application/json' },
          body: Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}')]),
        },
        400,
        '/special-events',
        false,
      ],
      [
        'SQL in the eventId',
        {
          method: 'POST',
          path: '/special-events',
          headers: { Authorization: AUTH, 'Content-Type': 'application/json' },
          body: JSON.stringify(validEvent({ eventId: "1' OR '1'='1" })),
        },
        400,
        '/special-events',
        true,
      ],
      [
        'an existing eventId',
        {
          method: 'POST',
          path: '/special-events',
          headers: { Authorization: AUTH, 'Content-Type': 'application/json' },
          body: JSON.stringify(existing),
        },
        409,
        '/special-events',
        false,
      ],
      [
        'text/plain',
        {
          method: 'POST',
          path: '/special-events',
          headers: { Authorization: AUTH, 'Content-Type': 'text/plain' },
          body: '{}',
        },
        415,
        '/special-events',
        false,
      ],
      [
        'JSON in latin1',
        {
          method: 'POST',
          path: '/special-events',
          headers: { Authorization: AUTH, 'Content-Type': 'application/json; charset=latin1' },
          body: '{}',
        },
        415,
        '/special-events',
        false,
      ],
      [
        'a gzip body that is not gzip',
        {
          method: 'POST',
          path: '/special-events',
          headers: { Authorization: AUTH, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
          body: 'not gzip at all',
        },
        400,
        '/special-events',
        false,
      ],
      [
        'SQL in the path',
        { method: 'DELETE', path: "/special-events/1'%20OR%20'1'='1", headers: { Authorization: AUTH } },
        400,
        "/special-events/1'%20OR%20'1'='1",
        true,
      ],
      [
        'malformed percent-encoding in the path',
        { method: 'DELETE', path: '/special-events/%E0%A4%A', headers: { Authorization: AUTH } },
        400,
        '/special-events/%E0%A4%A',
        true,
      ],
      [
        'no such event',
        {
          method: 'DELETE',
          path: '/special-events/00000000-0000-4000-8000-000000000000',
          headers: { Authorization: AUTH },
        },
        404,
        '/special-events/00000000-0000-4000-8000-000000000000',
        false,
      ],
      [
        'a traversal path',
        { method: 'GET', path: '/..%2f..%2fetc%2fpasswd', headers: { Authorization: AUTH } },
        404,
        '/..%2f..%2fetc%2fpasswd',
        false,
      ],
      ['a dotfile path', { method: 'GET', path: '/.env', headers: {} }, 404, '/.env', false],
      [
        'PUT on the collection',
        { method: 'PUT', path: '/special-events', headers: { Authorization: AUTH } },
        405,
        '/special-events',
        false,
      ],
      [
        'an 8 KiB Authorization header',
        { method: 'POST', path: '/special-events', headers: { Authorization: `Basic ${'A'.repeat(8 * 1024)}` } },
        401,
        '/special-events',
        false,
      ],
      [
        'Basic credentials that are not UTF-8',
        {
          method: 'POST',
          path: '/special-events',
          headers: { Authorization: `Basic ${b64(Buffer.from([0xff, 0xfe, 0x3a, 0xc3]))}` },
        },
        401,
        '/special-events',
        false,
      ],
    ];

    it.each(cases)('%s', async (_label, request, status, instance, withErrors) => {
      const res = await send(t, request);
      expect(res.status).toBeLessThan(500);
      expectProblem(asResponse(res), status, instance, withErrors);
      expect(res.text).not.toMatch(INTERNALS);
      expect(res.text).not.toContain(AUTH.slice('Basic '.length));
      expect(res.text).not.toContain(TEST_PASSWORD);
      expectApiSecurityHeaders(res.headers);
    });
  });

  describe('security headers (helmet) on every kind of response', () => {
    it('201, 204, problem 4xx, unknown route, health, metrics, the OpenAPI document and the CORS preflight', async () => {
      const event = validEvent();
      const path = `/special-events/${event.eventId as string}`;
      const responses: [string, Send, number][] = [
        [
          '201',
          {
            method: 'POST',
            path: '/special-events',
            headers: { Authorization: AUTH, 'Content-Type': 'application/json' },
            body: JSON.stringify(event),
          },
          201,
        ],
        [
          '409',
          {
            method: 'POST',
            path: '/special-events',
            headers: { Authorization: AUTH, 'Content-Type': 'application/json' },
            body: JSON.stringify(event),
          },
          409,
        ],
        ['204', { method: 'DELETE', path, headers: { Authorization: AUTH } }, 204],
        ['404 event', { method: 'DELETE', path, headers: { Authorization: AUTH } }, 404],
        ['401', { method: 'DELETE', path }, 401],
        ['400', { method: 'DELETE', path: '/special-events/nope', headers: { Authorization: AUTH } }, 400],
        [
          '415',
          {
            method: 'POST',
            path: '/special-events',
            headers: { Authorization: AUTH, 'Content-Type': 'text/plain' },
            body: 'x',
          },
          415,
        ],
        ['405', { method: 'PUT', path: '/special-events', headers: { Authorization: AUTH } }, 405],
        ['404 unknown route', { path: '/nowhere' }, 404],
        ['404 next to /docs', { path: '/docsx' }, 404],
        ['health/live', { path: '/health/live' }, 200],
        ['health/ready', { path: '/health/ready' }, 200],
        ['metrics', { path: '/metrics' }, 200],
        ['openapi.json', { path: '/openapi.json' }, 200],
        ['HEAD openapi.json', { method: 'HEAD', path: '/openapi.json' }, 200],
        [
          'CORS preflight',
          {
            method: 'OPTIONS',
            path: '/special-events',
            headers: {
              Origin: ORIGIN,
              'Access-Control-Request-Method': 'POST',
              'Access-Control-Request-Headers': 'authorization,content-type',
            },
          },
          204,
        ],
        ['CORS actual request', { method: 'DELETE', path, headers: { Origin: ORIGIN } }, 401],
      ];
      for (const [label, request, status] of responses) {
        const res = await send(t, request);
        expect({ label, status: res.status }).toEqual({ label, status });
        expectApiSecurityHeaders(res.headers);
      }
    });

    it('/docs and its assets: the same headers with a CSP that lets Swagger UI render and nothing more', async () => {
      for (const path of [
        '/docs',
        '/docs/',
        '/docs?view=1',
        '/docs/?view=1',
        '/docs/swagger-ui-init.js',
        '/docs/swagger-ui-bundle.js',
        '/docs/swagger-ui.css',
        '/docs/favicon-32x32.png',
      ]) {
        const res = await send(t, { path });
        expect({ path, status: res.status }).toEqual({ path, status: 200 });
        expectDocsSecurityHeaders(res.headers);
        const scripts = cspDirectives(res.headers['content-security-policy'] as string)['script-src'];
        expect(scripts).not.toContain("'unsafe-inline'");
        expect(scripts).not.toContain("'unsafe-eval'");
      }
      // The page has no inline script that the policy would block (it would not render).
      const page = await send(t, { path: '/docs' });
      expect(page.text).toContain('<script src=');
      expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    });
  });
});

describe("with the default app, hashing at the service's own cost", () => {
  const t = useTestApp({ CORS_ORIGINS: ORIGIN }, PRODUCTION_HASHING);

  describe('one 401 for unknown users and wrong passwords', () => {
    /** Everything but what differs per response by design: Date and X-Request-Id. */
    function comparable(res: Exchange): Record<string, unknown> {
      const { date, 'x-request-id': requestId, ...headers } = res.headers;
      expect(date).toEqual(expect.any(String));
      expect(requestId).toEqual(expect.any(String));
      return {
        status: res.status,
        headers,
        headerNames: res.headerNames.filter((name) => name !== 'date' && name !== 'x-request-id'),
        text: res.text,
      };
    }

    it('status, body and every header (names, order, values, Content-Length) are identical', async () => {
      const eventId = randomUUID();
      const path = `/special-events/${eventId}`;
      const refusals: [string, string | undefined][] = [
        ['unknown user', basicHeader(`nobody-${rand()}`, TEST_PASSWORD)],
        ['wrong password', basicHeader(TEST_USER, `wrong ${rand()}`)],
        ['known password of another user', basicHeader(`nobody-${rand()}`, TEST_PASSWORD)],
        ['no header', undefined],
        ['another scheme', `Bearer ${rand()}`],
        ['malformed base64', `Basic %%${rand()}%%`],
        ['no colon', `Basic ${b64(TEST_USER)}`],
        ['lower-case scheme, wrong password', `basic ${b64(`${TEST_USER}:${rand()}`)}`],
      ];
      for (const method of ['POST', 'DELETE']) {
        const target = method === 'POST' ? '/special-events' : path;
        const answers = new Map<string, Record<string, unknown>>();
        for (const [label, authorization] of refusals) {
          const res = await send(t, {
            method,
            path: target,
            headers: {
              ...(authorization === undefined ? {} : { Authorization: authorization }),
              ...(method === 'POST' ? { 'Content-Type': 'application/json' } : {}),
            },
            body: method === 'POST' ? JSON.stringify(validEvent()) : undefined,
          });
          expectUnauthorized(asResponse(res), target);
          expect(res.headers['www-authenticate']).toBe(CHALLENGE);
          expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
          expectApiSecurityHeaders(res.headers);
          answers.set(label, comparable(res));
        }
        const [first, ...others] = [...answers.values()];
        for (const [label, answer] of answers) expect({ label, answer }).toStrictEqual({ label, answer: first });
        expect(others).toHaveLength(refusals.length - 1);
      }
    });

    it('and the same cost: an unknown user pays one scrypt hash of the same parameters as a wrong password', async () => {
      const N = 6;
      const unknown = (): string => basicHeader(`nobody-${rand()}`, `pw-${rand()}-${rand()}`);
      const wrong = (): string => basicHeader(TEST_USER, `pw-${rand()}-${rand()}`);
      const attempt = async (authorization: string): Promise<number> => {
        const res = await send(t, {
          method: 'DELETE',
          path: `/special-events/${randomUUID()}`,
          headers: { Authorization: authorization },
        });
        expect(res.status).toBe(401);
        return res.ms;
      };
      // Which hashes each refusal was checked against: the cost of scrypt is its parameters, so
      // equal parameters and one hash each mean equal time (the times are printed for scale).
      const verify = vi.spyOn(PasswordHasher.prototype, 'verify');
      const checked = async (authorization: string): Promise<{ hashes: string[]; ms: number }> => {
        verify.mockClear();
        const ms = await attempt(authorization);
        const hashes = verify.mock.calls.map(([, stored]) => /^\$scrypt\$[^$]+/.exec(stored)?.[0] ?? stored);
        return { hashes, ms };
      };
      const times = { unknown: [] as number[], wrong: [] as number[] };
      for (let i = 0; i < N; i++) {
        const [a, b] = [await checked(unknown()), await checked(wrong())];
        expect(a.hashes).toHaveLength(1);
        expect(a.hashes).toEqual(b.hashes);
        times.unknown.push(a.ms);
        times.wrong.push(b.ms);
      }
      // A repeated refusal is answered from the credential cache, without a hash.
      const repeated = wrong();
      await checked(repeated);
      expect((await checked(repeated)).hashes).toEqual([]);
      process.stderr.write(
        `[security] 401s, ${N} first-time attempts each: median unknown user ${median(times.unknown).toFixed(1)} ms, ` +
          `wrong password ${median(times.wrong).toFixed(1)} ms\n`,
      );
    }, 180_000);
  });
});

// =============================================================================================
// A small failure limit: 3 failures per address in 60 s
// =============================================================================================

// =============================================================================================
// Slow headers: HEADERS_TIMEOUT_MS of 300 ms
// =============================================================================================

describe('headers that arrive too slowly (HEADERS_TIMEOUT_MS)', () => {
  const t = useTestApp({ HEADERS_TIMEOUT_MS: '300' });

  /** Sends a request line, then one header line every 50 ms, never ending the headers. */
  function trickle(path: string): Promise<{ raw: string; linesSent: number }> {
    const { hostname, port } = new URL(t.baseUrl);
    return new Promise((resolve, reject) => {
      let linesSent = 0;
      const socket = connect(Number(port), hostname, () => socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n`));
      const timer = setInterval(() => {
        if (socket.writable) socket.write(`X-Slow-${linesSent++}: ${'s'.repeat(8)}\r\n`);
      }, 50);
      socket.setTimeout(20_000, () => socket.destroy(new Error('no answer within 20 s')));
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('close', () => {
        clearInterval(timer);
        resolve({ raw: Buffer.concat(chunks).toString('utf8'), linesSent });
      });
      socket.on('error', (error: NodeJS.ErrnoException) => {
        clearInterval(timer);
        if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
      });
    });
  }

  it('are answered 408 with problem details and the connection closed, on API and operations paths', async () => {
    for (const path of ['/special-events', '/health/live']) {
      const { raw } = await trickle(path);
      const res = parseRaw(raw);
      const body = expectRawProblem(res, [408]);
      expect(body.detail).toMatch(/300 ms/);
      expect(res.headers.connection).toBe('close');
    }
  });
});

describe('429 after AUTH_FAILURE_LIMIT failures from one address', () => {
  const LIMIT = 3;
  const t = useTestApp({ AUTH_FAILURE_LIMIT: String(LIMIT), AUTH_FAILURE_WINDOW_SECONDS: '60' });

  function expectLimited(res: Exchange, instance = '/special-events'): void {
    expectProblem(asResponse(res), 429, instance);
    expect(res.text).not.toMatch(INTERNALS);
    expect(res.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(res.headers['www-authenticate']).toBeUndefined();
    expectApiSecurityHeaders(res.headers);
  }

  it('many successes then limit-1 wrong passwords: still 401 and valid credentials work; the limit-th blocks that user name with 429', async () => {
    const from = '127.0.0.2';
    const wrong = (): string => basicHeader(TEST_USER, `wrong-${rand()}`);
    for (let i = 0; i < 25; i++) expect((await post(t, AUTH, validEvent(), from)).status).toBe(201);
    for (let i = 0; i < LIMIT - 1; i++) {
      expectUnauthorized(asResponse(await post(t, wrong(), validEvent(), from)), '/special-events');
    }
    // Successes between the failures, and requests without credentials, neither count nor reset anything.
    for (let i = 0; i < 5; i++) expect((await post(t, AUTH, validEvent(), from)).status).toBe(201);
    for (let i = 0; i < 5; i++) {
      expectUnauthorized(asResponse(await post(t, undefined, validEvent(), from)), '/special-events');
    }
    expectUnauthorized(asResponse(await post(t, wrong(), validEvent(), from)), '/special-events');
    // Now every request naming that user from this address is refused, the right password included.
    const event = validEvent();
    expectLimited(await post(t, AUTH, event, from));
    expectLimited(await post(t, wrong(), validEvent(), from));
    const path = `/special-events/${event.eventId as string}`;
    expectLimited(await send(t, { method: 'DELETE', path, headers: { Authorization: AUTH }, from }), path);
    // The blocked create did not happen: from another address, the event does not exist.
    expectProblem(
      asResponse(await send(t, { method: 'DELETE', path, headers: { Authorization: AUTH }, from: '127.0.0.5' })),
      404,
      path,
    );
    // A request without credentials still gets the challenge; the operations endpoints are not throttled.
    expectUnauthorized(asResponse(await post(t, undefined, validEvent(), from)), '/special-events');
    expect((await send(t, { path: '/health/live', from })).status).toBe(200);
  });

  it('X-Forwarded-For does not dodge it (TRUST_PROXY is off): the socket address is counted and blocked', async () => {
    expect(t.config.trustProxy).toBe(false);
    const from = '127.0.0.3';
    for (let i = 0; i < LIMIT; i++) {
      const res = await send(t, {
        method: 'POST',
        path: '/special-events',
        headers: {
          Authorization: basicHeader(TEST_USER, `wrong-${rand()}`),
          'Content-Type': 'application/json',
          'X-Forwarded-For': `198.51.100.${i + 1}`,
        },
        body: JSON.stringify(validEvent()),
        from,
      });
      expectUnauthorized(asResponse(res), '/special-events');
    }
    for (const forwarded of ['203.0.113.9', '127.0.0.9', '198.51.100.1, 127.0.0.1']) {
      const res = await send(t, {
        method: 'POST',
        path: '/special-events',
        headers: {
          Authorization: AUTH,
          'Content-Type': 'application/json',
          'X-Forwarded-For': forwarded,
          Forwarded: `for=${forwarded.split(',')[0]}`,
        },
        body: JSON.stringify(validEvent()),
        from,
      });
      expectLimited(res);
    }
    // Another address is not affected: the limit is per client address.
    expect((await post(t, AUTH, validEvent(), '127.0.0.4')).status).toBe(201);
  });
});

// =============================================================================================
// Behind a proxy: TRUST_PROXY names what to trust, never "everything"
// =============================================================================================

describe.each([
  ['a hop count', '1'],
  ['the proxy addresses', 'loopback'],
])('TRUST_PROXY as %s (%s): the client address is the one the trusted proxy saw', (_label, trustProxy) => {
  const LIMIT = 3;
  const t = useTestApp({
    TRUST_PROXY: trustProxy,
    AUTH_FAILURE_LIMIT: String(LIMIT),
    AUTH_FAILURE_WINDOW_SECONDS: '60',
  });

  /** A create sent by the proxy (this test, on 127.0.0.1) with the X-Forwarded-For it built. */
  function viaProxy(forwardedFor: string, authorization: string): Promise<Exchange> {
    return send(t, {
      method: 'POST',
      path: '/special-events',
      headers: { Authorization: authorization, 'Content-Type': 'application/json', 'X-Forwarded-For': forwardedFor },
      body: JSON.stringify(validEvent()),
    });
  }

  it('a guesser rotating the leftmost X-Forwarded-For entry (its own forgery) is still counted and gets 429', async () => {
    const guesser = '203.0.113.50';
    for (let i = 0; i < LIMIT; i++) {
      const res = await viaProxy(`198.51.100.${i + 1}, ${guesser}`, basicHeader(TEST_USER, `wrong-${rand()}`));
      expectUnauthorized(asResponse(res), '/special-events');
    }
    const limited = await viaProxy(`198.51.100.99, ${guesser}`, basicHeader(TEST_USER, `wrong-${rand()}`));
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toMatch(/^[1-9]\d*$/);
  });

  it('forged entries naming another client do not get that client blocked', async () => {
    const victim = '203.0.113.51';
    const guesser = '203.0.113.52';
    for (let i = 0; i < LIMIT + 2; i++) {
      const res = await viaProxy(`${victim}, ${guesser}`, basicHeader(TEST_USER, `wrong-${rand()}`));
      expect([401, 429]).toContain(res.status);
    }
    expect((await viaProxy(victim, AUTH)).status).toBe(201);
  });

  it('counts an IPv6 guesser by its /64: a new address of that /64 is still refused, another /64 is not', async () => {
    for (let i = 1; i <= LIMIT; i++) {
      const res = await viaProxy(`2001:db8:5:5::${i}`, basicHeader(TEST_USER, `wrong-${rand()}`));
      expectUnauthorized(asResponse(res), '/special-events');
    }
    const limited = await viaProxy('2001:db8:5:5:abcd::1', basicHeader(TEST_USER, `wrong-${rand()}`));
    expect(limited.status).toBe(429);
    const elsewhere = await viaProxy('2001:db8:5:6::1', basicHeader(TEST_USER, `wrong-${rand()}`));
    expectUnauthorized(asResponse(elsewhere), '/special-events');
  });
});
