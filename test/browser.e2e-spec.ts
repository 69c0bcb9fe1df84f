import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { featureRows } from './helpers/feature-rows.js';
import type { OpenApiPaths } from './helpers/openapi-path-rows.js';
import { type Body, expectStatus } from './helpers/problem-assertions.js';
import { AUTH, TEST_PASSWORD, TEST_USER, useTestApp } from './helpers/test-app.js';
import { CHROMIUM, CHROMIUM_ARGS } from './helpers/chromium.js';

/**
 * Browser clients (issue 6, item 3): a page served from another origin calls the API with fetch
 * and Basic credentials in Debian's Chromium, driven by playwright-core. CORS_ORIGINS lets one
 * origin in (create 201 with Location readable, delete 204; issue 16: list with its `Link`
 * readable, get with its `ETag`, PATCH with If-Match) and keeps another out (the preflight
 * fails, fetch rejects, nothing is created). The same browser opens /docs and checks that the
 * reference shows both operations; the screenshot goes to test-results/docs.png.
 *
 * Without /usr/bin/chromium the tests are skipped with the reason in their name, unless
 * BROWSER_TEST_REQUIRED=1 (set by .ci/run, which installs Chromium first): then they fail.
 */

const SCREENSHOT = fileURLToPath(new URL('../test-results/docs.png', import.meta.url));
const EVENT_KEYS = ['dates', 'eventDescription', 'eventId', 'location', 'name', 'price'];

/**
 * The page each origin serves. `callApi` is what a frontend would write: Basic credentials encoded
 * as UTF-8 (btoa alone only takes Latin-1), JSON body, Location read from the response headers.
 * A rejected fetch is returned as its error name and message instead of thrown, so the test sees it.
 */
const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>browser client</title></head>
<body><p>browser client</p><script>
function basic(user, password) {
  const bytes = new TextEncoder().encode(user + ':' + password);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return 'Basic ' + btoa(binary);
}
window.callApi = async function ({ apiBase, user, password, event }) {
  const authorization = basic(user, password);
  const steps = [];
  try {
    steps.push('create');
    const created = await fetch(apiBase + '/special-events', {
      method: 'POST',
      headers: { Authorization: authorization, 'Content-Type': 'application/json' },
      body: JSON.stringify(event),
    });
    const result = {
      createStatus: created.status,
      location: created.headers.get('Location'),
      contentType: created.headers.get('Content-Type'),
      visibleHeaders: [...created.headers.keys()].sort(),
      body: await created.json(),
    };
    steps.push('delete');
    const deleted = await fetch(apiBase + '/special-events/' + encodeURIComponent(result.body.eventId), {
      method: 'DELETE',
      headers: { Authorization: authorization },
    });
    result.deleteStatus = deleted.status;
    result.deleteBody = await deleted.text();
    return { ok: true, ...result };
  } catch (error) {
    return { ok: false, failedAt: steps[steps.length - 1], name: error.name, message: error.message };
  }
};
window.readAndUpdate = async function ({ apiBase, user, password, startDate, endDate, limit, patch }) {
  const authorization = basic(user, password);
  const steps = [];
  try {
    steps.push('list');
    const query = new URLSearchParams({ startDate, endDate, limit: String(limit) });
    const listed = await fetch(apiBase + '/special-events?' + query, { headers: { Authorization: authorization } });
    const list = { status: listed.status, link: listed.headers.get('Link'), body: await listed.json() };
    steps.push('next');
    const nextUrl = /<([^>]*)>;\\s*rel="next"/.exec(list.link || '');
    const second = nextUrl ? await fetch(new URL(nextUrl[1], apiBase), { headers: { Authorization: authorization } }) : null;
    const next = second ? { status: second.status, body: await second.json() } : null;
    const eventId = list.body[0].eventId;
    const path = apiBase + '/special-events/' + encodeURIComponent(eventId);
    steps.push('get');
    const got = await fetch(path, { headers: { Authorization: authorization } });
    const get = { status: got.status, etag: got.headers.get('ETag'), body: await got.json() };
    steps.push('get if-none-match');
    const cached = await fetch(path, { headers: { Authorization: authorization, 'If-None-Match': get.etag }, cache: 'no-store' });
    const notModified = { status: cached.status };
    steps.push('patch');
    const patched = await fetch(path, {
      method: 'PATCH',
      headers: { Authorization: authorization, 'Content-Type': 'application/merge-patch+json', 'If-Match': get.etag },
      body: JSON.stringify(patch),
    });
    const update = { status: patched.status, etag: patched.headers.get('ETag'), body: await patched.json() };
    steps.push('stale patch');
    const stale = await fetch(path, {
      method: 'PATCH',
      headers: { Authorization: authorization, 'Content-Type': 'application/merge-patch+json', 'If-Match': get.etag },
      body: JSON.stringify({ name: 'Never stored' }),
    });
    const staleUpdate = { status: stale.status, contentType: stale.headers.get('Content-Type'), body: await stale.json() };
    return { ok: true, list, next, get, notModified, update, staleUpdate };
  } catch (error) {
    return { ok: false, failedAt: steps[steps.length - 1], name: error.name, message: error.message };
  }
};
window.callWithWrongPassword = async function ({ apiBase, user }) {
  const response = await fetch(apiBase + '/special-events', {
    method: 'POST',
    headers: { Authorization: basic(user, 'wrong password ✗'), 'Content-Type': 'application/json' },
    body: '{}',
  });
  return { status: response.status, challenge: response.headers.get('WWW-Authenticate') };
};
</script></body></html>`;

interface CallResult {
  ok: boolean;
  createStatus?: number;
  location?: string | null;
  contentType?: string | null;
  visibleHeaders?: string[];
  body?: Body;
  deleteStatus?: number;
  deleteBody?: string;
  failedAt?: string;
  name?: string;
  message?: string;
}

interface ReadResult {
  ok: boolean;
  list?: { status: number; link: string | null; body: Body[] };
  next?: { status: number; body: Body[] } | null;
  get?: { status: number; etag: string | null; body: Body };
  notModified?: { status: number };
  update?: { status: number; etag: string | null; body: Body };
  staleUpdate?: { status: number; contentType: string | null; body: Body };
  failedAt?: string;
  name?: string;
  message?: string;
}

/** A page server on 127.0.0.1, port 0: its origin is http://127.0.0.1:<port>. */
async function startPageServer(): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    if (req.url === '/' || req.url === '/index.html') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end(PAGE);
    } else {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.1:${port}` };
}

function closeServer(server: Server | undefined): Promise<void> {
  if (!server?.listening) return Promise.resolve();
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

function validEvent(): Body {
  return {
    eventId: randomUUID(),
    name: 'Mermaid Treasure Identification and Analysis',
    location: 'Under the seaaa 🦀 🎶 🌊.',
    eventDescription: 'Created from a browser page on another origin.',
    dates: ['2025-09-05', '2025-09-08'],
    price: 19.99,
  };
}

/** A comma-separated header value as a lower-case list. */
function headerList(value: unknown): string[] {
  return typeof value === 'string' ? value.split(',').map((item) => item.trim().toLowerCase()) : [];
}

/** Every Access-Control-* header of a response. */
function corsHeaders(headers: Record<string, unknown>): string[] {
  return Object.keys(headers).filter((name) => name.toLowerCase().startsWith('access-control-'));
}

const HAVE_CHROMIUM = existsSync(CHROMIUM);
const REQUIRED = process.env.BROWSER_TEST_REQUIRED === '1';
const MISSING = `Chromium not installed at ${CHROMIUM} (apt-get install chromium)`;
// Without Chromium: one test whose name gives the reason, skipped, or run and failed when
// BROWSER_TEST_REQUIRED=1 (CI). Declared only then, so a run with Chromium reports no skips.
// oxlint-disable-next-line vitest/no-conditional-tests -- decided once per machine, at load
if (!HAVE_CHROMIUM) {
  process.stderr.write(
    `\n[browser] ${REQUIRED ? 'FAILING' : 'SKIPPED'}: ${MISSING} (BROWSER_TEST_REQUIRED=${REQUIRED ? 1 : 0}).\n\n`,
  );
  describe('browser clients (Chromium missing)', () => {
    it.skipIf(!REQUIRED)(`${MISSING}: skipped, or failed with BROWSER_TEST_REQUIRED=1`, () => {
      expect.fail(`BROWSER_TEST_REQUIRED=1 but ${MISSING}`);
    });
  });
}

describe.runIf(HAVE_CHROMIUM)('browser clients (Chromium)', () => {
  let allowed: { server: Server; origin: string };
  let blocked: { server: Server; origin: string };
  let userDataDir: string;
  let context: BrowserContext;

  // The allowed origin must be known before the app starts: page servers first.
  beforeAll(async () => {
    allowed = await startPageServer();
    blocked = await startPageServer();
  });

  const t = useTestApp(() => ({ CORS_ORIGINS: allowed.origin }));

  beforeAll(async () => {
    userDataDir = await mkdtemp(join(tmpdir(), 'browser-e2e-'));
    // Playwright refuses --user-data-dir in args: a persistent context on a fresh, empty one.
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      timeout: 60_000,
    });
    context.setDefaultTimeout(30_000);
  });

  // Registered after useTestApp, so it runs before the app closes: the browser goes first.
  afterAll(async () => {
    await context?.close();
    if (userDataDir) await rm(userDataDir, { recursive: true, force: true });
    await closeServer(allowed?.server);
    await closeServer(blocked?.server);
  });

  async function openPage(origin: string): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${origin}/`);
    expect(await page.evaluate<string>('location.origin')).toBe(origin);
    return page;
  }

  function callApi(page: Page, event: Body): Promise<CallResult> {
    const args = { apiBase: t.baseUrl, user: TEST_USER, password: TEST_PASSWORD, event };
    return page.evaluate(
      (a) => (globalThis as unknown as { callApi(x: typeof a): Promise<CallResult> }).callApi(a),
      args,
    );
  }

  it('allowed origin: fetch creates (201, Location and JSON readable) and deletes (204) with Basic credentials', async () => {
    const page = await openPage(allowed.origin);
    try {
      const event = validEvent();
      const result = await callApi(page, event);
      expect(result).toMatchObject({ ok: true, createStatus: 201, deleteStatus: 204, deleteBody: '' });
      expect(result.location).toBe(`/special-events/${event.eventId as string}`);
      expect(result.contentType).toMatch(/^application\/json(;|$)/);
      // Location is readable only because it is exposed; Content-Type is CORS-safelisted.
      expect(result.visibleHeaders).toContain('location');
      expect(result.body).toStrictEqual(event);
      expect(Object.keys(result.body ?? {}).sort()).toEqual(EVENT_KEYS);
      // Really gone: the server no longer has it.
      const again = await request(t.baseUrl)
        .delete(`/special-events/${event.eventId as string}`)
        .set('Authorization', AUTH);
      expectStatus(again, 404);
    } finally {
      await page.close();
    }
  });

  it('allowed origin: fetch lists (Link readable), gets (ETag readable, 304 on If-None-Match) and PATCHes with If-Match (200, then 412 on the stale tag)', async () => {
    // Three events of a year no other test uses, so that the range lists exactly them, two per page.
    const events = [1, 2, 3].map((day): Body => ({
      ...validEvent(),
      name: `Browser ${day}`,
      dates: [`2039-05-0${day}`],
    }));
    for (const event of events) {
      expectStatus(await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(event), 201);
    }
    const page = await openPage(allowed.origin);
    try {
      const patch = { name: 'Renamed from a browser ✓', price: 42.5 };
      const result = await page.evaluate(
        (a) => (globalThis as unknown as { readAndUpdate(x: typeof a): Promise<ReadResult> }).readAndUpdate(a),
        {
          apiBase: t.baseUrl,
          user: TEST_USER,
          password: TEST_PASSWORD,
          startDate: '2039-05-01',
          endDate: '2039-05-31',
          limit: 2,
          patch,
        },
      );
      expect(result).toMatchObject({ ok: true });
      // Link and ETag reach the page only because they are exposed.
      expect(result.list).toStrictEqual({
        status: 200,
        link: expect.stringMatching(/rel="next"/) as unknown,
        body: events.slice(0, 2),
      });
      expect(result.next).toStrictEqual({ status: 200, body: events.slice(2) });
      expect(result.get?.status).toBe(200);
      expect(result.get?.body).toStrictEqual(events[0]);
      expect(result.get?.etag).toMatch(/^"[^"]+"$/);
      expect(result.notModified).toStrictEqual({ status: 304 });
      expect(result.update?.status).toBe(200);
      expect(result.update?.body).toStrictEqual({ ...events[0], ...patch });
      expect(result.update?.etag).toMatch(/^"[^"]+"$/);
      expect(result.update?.etag).not.toBe(result.get?.etag);
      expect(result.staleUpdate?.status).toBe(412);
      expect(result.staleUpdate?.contentType).toMatch(/^application\/problem\+json/);
      expect(result.staleUpdate?.body).toMatchObject({ status: 412, title: 'Precondition Failed' });
      // What the server holds is the first PATCH, not the stale one.
      const stored = await request(t.baseUrl)
        .get(`/special-events/${events[0].eventId as string}`)
        .set('Authorization', AUTH);
      expectStatus(stored, 200);
      expect(stored.body).toStrictEqual({ ...events[0], ...patch });
      expect(stored.headers.etag).toBe(result.update?.etag);
    } finally {
      await page.close();
    }
  });

  it('allowed origin: a 401 reaches the page with its WWW-Authenticate challenge readable', async () => {
    const page = await openPage(allowed.origin);
    try {
      const result = await page.evaluate(
        (a) =>
          (
            globalThis as unknown as {
              callWithWrongPassword(x: typeof a): Promise<{ status: number; challenge: string | null }>;
            }
          ).callWithWrongPassword(a),
        { apiBase: t.baseUrl, user: TEST_USER },
      );
      expect(result).toStrictEqual({ status: 401, challenge: 'Basic realm="museum", charset="UTF-8"' });
    } finally {
      await page.close();
    }
  });

  it('other origin: the preflight fails, fetch rejects with a TypeError, and nothing is created', async () => {
    const page = await openPage(blocked.origin);
    try {
      const event = validEvent();
      const result = await callApi(page, event);
      expect(result.ok).toBe(false);
      expect(result.failedAt).toBe('create');
      expect(result.name).toBe('TypeError');
      expect(result.message).toBe('Failed to fetch');
      // The POST never ran: the event does not exist, so a DELETE finds nothing ...
      const remove = await request(t.baseUrl)
        .delete(`/special-events/${event.eventId as string}`)
        .set('Authorization', AUTH);
      expectStatus(remove, 404);
      // ... and the same eventId is still free for a create.
      const create = await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(event);
      expectStatus(create, 201);
      expectStatus(
        await request(t.baseUrl)
          .delete(`/special-events/${event.eventId as string}`)
          .set('Authorization', AUTH),
        204,
      );
    } finally {
      await page.close();
    }
  });

  it('preflight from the allowed origin: 204 without credentials, allowing Authorization, Content-Type and Idempotency-Key', async () => {
    for (const [path, method, headers] of [
      ['/special-events', 'POST', 'authorization,content-type,idempotency-key'],
      [`/special-events/${randomUUID()}`, 'DELETE', 'authorization'],
      ['/special-events', 'GET', 'authorization'],
      [`/special-events/${randomUUID()}`, 'GET', 'authorization,if-none-match'],
      [`/special-events/${randomUUID()}`, 'PATCH', 'authorization,content-type,if-match'],
    ]) {
      const res = await request(t.baseUrl)
        .options(path)
        .set('Origin', allowed.origin)
        .set('Access-Control-Request-Method', method)
        .set('Access-Control-Request-Headers', headers);
      expect(res.status).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(allowed.origin);
      expect(headerList(res.headers['access-control-allow-headers'])).toEqual(
        expect.arrayContaining(['authorization', 'content-type', 'idempotency-key', 'if-match', 'if-none-match']),
      );
      expect(headerList(res.headers['access-control-allow-methods'])).toEqual(
        expect.arrayContaining(['get', 'post', 'patch', 'delete']),
      );
      expect(headerList(res.headers.vary)).toContain('origin');
      expect(res.headers['access-control-max-age']).toBe('600');
      // Credentials travel in the Authorization header, not cookies: no Allow-Credentials needed.
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      // The preflight is not an authenticated request: no 401, no challenge.
      expect(res.headers['www-authenticate']).toBeUndefined();
    }
  });

  it('actual responses to the allowed origin carry Allow-Origin and expose ETag, Idempotent-Replayed, Link, Location, Retry-After, WWW-Authenticate', async () => {
    const event = validEvent();
    const created = await request(t.baseUrl)
      .post('/special-events')
      .set('Origin', allowed.origin)
      .set('Authorization', AUTH)
      .send(event);
    expectStatus(created, 201);
    expect(created.headers['access-control-allow-origin']).toBe(allowed.origin);
    expect(headerList(created.headers['access-control-expose-headers'])).toEqual(
      expect.arrayContaining([
        'etag',
        'idempotent-replayed',
        'link',
        'location',
        'retry-after',
        'www-authenticate',
        'x-request-id',
      ]),
    );
    const unauthorized = await request(t.baseUrl)
      .delete(`/special-events/${event.eventId as string}`)
      .set('Origin', allowed.origin);
    expectStatus(unauthorized, 401);
    expect(unauthorized.headers['access-control-allow-origin']).toBe(allowed.origin);
    const deleted = await request(t.baseUrl)
      .delete(`/special-events/${event.eventId as string}`)
      .set('Origin', allowed.origin)
      .set('Authorization', AUTH);
    expectStatus(deleted, 204);
    expect(deleted.headers['access-control-allow-origin']).toBe(allowed.origin);
  });

  it('other origin: no CORS header at all on its preflight (still 204, no credentials asked) or its requests', async () => {
    const preflight = await request(t.baseUrl)
      .options('/special-events')
      .set('Origin', blocked.origin)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization,content-type');
    // Answered by the CORS layer, not authentication: no 401, so it never counts as a failed login.
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(corsHeaders(preflight.headers)).toEqual([]);
    expect(preflight.headers['www-authenticate']).toBeUndefined();
    expect(headerList(preflight.headers.vary)).toContain('origin');
    // Outside a browser nothing stops the request itself; it just gets no CORS permission.
    const event = validEvent();
    const created = await request(t.baseUrl)
      .post('/special-events')
      .set('Origin', blocked.origin)
      .set('Authorization', AUTH)
      .send(event);
    expectStatus(created, 201);
    expect(created.headers['access-control-allow-origin']).toBeUndefined();
    expect(corsHeaders(created.headers)).toEqual([]);
    const deleted = await request(t.baseUrl)
      .delete(`/special-events/${event.eventId as string}`)
      .set('Origin', blocked.origin)
      .set('Authorization', AUTH);
    expectStatus(deleted, 204);
    expect(corsHeaders(deleted.headers)).toEqual([]);
  });

  it('/docs renders the operations, the museum hours and the tickets, in Chromium (screenshot: test-results/docs.png)', async () => {
    const page = await context.newPage();
    try {
      await page.setViewportSize({ width: 1280, height: 900 });
      const response = await page.goto(`${t.baseUrl}/docs`);
      expect(response?.status()).toBe(200);
      const create = page.locator('.opblock.opblock-post', {
        has: page.locator('.opblock-summary-path[data-path="/special-events"]'),
      });
      const remove = page.locator('.opblock.opblock-delete', {
        has: page.locator('.opblock-summary-path[data-path="/special-events/{eventId}"]'),
      });
      await create.waitFor({ state: 'visible', timeout: 45_000 });
      await remove.waitFor({ state: 'visible', timeout: 45_000 });
      await expect.poll(() => create.count()).toBe(1);
      await expect.poll(() => remove.count()).toBe(1);
      expect(await create.locator('.opblock-summary-method').innerText()).toBe('POST');
      expect(await remove.locator('.opblock-summary-method').innerText()).toBe('DELETE');
      // The path text as shown (Swagger UI puts zero-width spaces after slashes).
      const shown = (locator: typeof create): Promise<string> =>
        locator
          .locator('.opblock-summary-path')
          .innerText()
          .then((text) => text.replaceAll('\u200b', ''));
      expect(await shown(create)).toBe('/special-events');
      expect(await shown(remove)).toBe('/special-events/{eventId}');
      // Every feature's operations (each from its test/<feature>/openapi-paths.ts), each under its method.
      for (const { rows } of await featureRows<OpenApiPaths>('openapi-paths')) {
        for (const [path, methods] of Object.entries(rows)) {
          for (const method of methods) {
            const operation = page.locator(`.opblock.opblock-${method}`, {
              has: page.locator(`.opblock-summary-path[data-path="${path}"]`),
            });
            await operation.waitFor({ state: 'visible', timeout: 45_000 });
            await expect.poll(() => operation.count()).toBe(1);
            expect(await shown(operation)).toBe(path);
          }
        }
      }
      expect(await page.locator('.opblock-tag[data-tag="Museum hours"]').count()).toBe(1);
      expect(await page.locator('.info .title').innerText()).toContain('Museum Special Events');
      expect(await page.locator('.opblock-tag[data-tag="Tickets"]').count()).toBe(1);
      const description = await page.locator('.info .description').innerText();
      expect(description).toContain('tickets for general admission or a special event');
      expect(description).not.toContain("Create and delete a museum's special events");
      await mkdir(fileURLToPath(new URL('../test-results/', import.meta.url)), { recursive: true });
      // Both e2e projects run this file at once: write aside, then rename (atomic) into place.
      const png = await page.screenshot({ fullPage: true });
      expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
      const aside = `${SCREENSHOT}.${process.pid}.tmp`;
      await writeFile(aside, png);
      await rename(aside, SCREENSHOT);
      expect(existsSync(SCREENSHOT)).toBe(true);
    } finally {
      await page.close();
    }
  });
});
