import { suiteDate, useMuseumClock } from './helpers/clock.js';
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { OpenAPIObject } from '@nestjs/swagger';
import request, { type Response } from 'supertest';
import { DataSource } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { PUBLIC_READ } from '../src/common/http/public-read.js';
import { routesOf } from '../src/common/http/routes.js';
import { PUBLIC_READ_DESCRIPTION, PUBLIC_READ_OPERATION } from '../src/openapi/openapi.js';
import { type Body, CHALLENGE, expectProblem, expectStatus, validEvent } from './helpers/problem-assertions.js';
import { featureRows } from './helpers/feature-rows.js';
import type { PublicReadRows } from './helpers/public-read-rows.js';
import { AUTH, basicHeader, TEST_USER, type TestApp, useTestApp } from './helpers/test-app.js';
import { hoursPath, setHoursOn, setWeeklyHours } from './museum-hours/api.js';
import { buyTicket } from './tickets/api.js';

/**
 * Public read (PUBLIC_READ): off, nothing changes; on, anonymous GETs of the events, one event,
 * the hours and the calendar answer with the public fields only, made for shared caches (public
 * Cache-Control, strong ETags, 304s, Vary, CORS for any origin), within a per-address rate limit,
 * while every other operation and every request with credentials stays as it is.
 */

/** Tickets sell up to 366 days ahead: the dates sold for are a couple of months after the museum clock's day. */
const DATE = suiteDate(60);
const SOLD_DATE = suiteDate(61);
const STAFF_ORIGIN = 'https://staff.example.org';
const SITE_ORIGIN = 'https://www.museum.example';
/** Each feature's reads under public read, beside the events' (test/<feature>/public-reads.ts). */
const FEATURES = (await featureRows<PublicReadRows>('public-reads')).map(({ rows }) => rows);
const PUBLIC_PATHS = ['/special-events', '/special-events.ics', ...FEATURES.flatMap((rows) => rows.paths ?? [])];
/** Reads behind credentials whatever public read says. */
const PRIVATE_READS = FEATURES.flatMap((rows) => rows.privateReads ?? []);
const WEEK = {
  monday: { timeOpen: '09:00', timeClose: '18:00' },
  tuesday: { timeOpen: '09:00', timeClose: '18:00' },
  wednesday: { timeOpen: '09:00', timeClose: '18:00' },
  thursday: { timeOpen: '09:00', timeClose: '21:00' },
  friday: { timeOpen: '09:00', timeClose: '18:00' },
  saturday: { timeOpen: '10:00', timeClose: '18:00', capacity: 500 },
  sunday: null,
};

let documentWhenOff: OpenAPIObject | undefined;

async function createEvent(t: TestApp, overrides: Body = {}): Promise<Body> {
  const res = await request(t.baseUrl)
    .post('/special-events')
    .set('Authorization', AUTH)
    .send(validEvent({ dates: [DATE], ...overrides }));
  expectStatus(res, 201);
  return res.body as Body;
}

/** A placeholder for each path parameter, so that the request reaches the route's guards. */
function concretePath(path: string): string {
  return path.replace(/:(\w+)/g, (_match, name: string) =>
    name === 'date' ? '2031-01-01' : '01890a5d-ac96-774b-bcce-b302099a8057',
  );
}

/** The app's global guards and interceptors (APP_GUARD, APP_INTERCEPTOR), as Nest runs them. */
function globalEnhancers(t: TestApp): { guards: object[]; interceptors: object[] } {
  const { config } = t.app as unknown as { config: { getGlobalGuards(): object[]; getGlobalInterceptors(): object[] } };
  // A provider that gives null is kept in the list, but no route's chain includes it (Nest drops
  // it when it builds each route's guards and interceptors, at start).
  const given = (enhancers: object[]): object[] => enhancers.filter((enhancer) => enhancer !== null);
  return { guards: given(config.getGlobalGuards()), interceptors: given(config.getGlobalInterceptors()) };
}

describe('public read off (the default)', () => {
  const t = useTestApp();
  useMuseumClock(t);

  it('answers every read without credentials with the 401 challenge, as before', async () => {
    const event = await createEvent(t);
    for (const path of [...PUBLIC_PATHS, `/special-events/${event.eventId as string}`]) {
      const res = await request(t.baseUrl).get(path).set('Origin', SITE_ORIGIN);
      expectProblem(res, 401, path);
      expect(res.headers['www-authenticate']).toBe(CHALLENGE);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('registers neither the rate limit nor the answer memory: no request pays for them', () => {
    const { guards, interceptors } = globalEnhancers(t);
    expect(guards.map((guard) => guard.constructor.name)).toEqual(['BasicAuthGuard', 'RoleGuard']);
    expect(interceptors).toEqual([]);
  });

  it('serves an OpenAPI document where every read needs Basic credentials', async () => {
    const res = await request(t.baseUrl).get('/openapi.json');
    expectStatus(res, 200);
    documentWhenOff = res.body as OpenAPIObject;
    expect(JSON.stringify(documentWhenOff)).not.toContain('public read');
    for (const item of Object.values(documentWhenOff.paths)) {
      for (const operation of Object.values(item) as { security?: unknown[] }[]) {
        expect(operation.security ?? []).not.toContainEqual({});
      }
    }
  });
});

describe('public read on', () => {
  const t = useTestApp({
    PUBLIC_READ: 'true',
    PUBLIC_CACHE_MAX_AGE: '30',
    PUBLIC_CACHE_SWR: '90',
    PUBLIC_RATE_LIMIT: '100000',
    CORS_ORIGINS: STAFF_ORIGIN,
  });
  useMuseumClock(t);
  const CACHE_CONTROL = 'public, max-age=30, stale-while-revalidate=90';

  /** The headers every anonymous 200 and 304 carries. */
  function expectPublicHeaders(res: Response): void {
    expect(res.headers['cache-control']).toBe(CACHE_CONTROL);
    expect(res.headers.etag).toMatch(/^"[^"]+"$/);
    expect(res.headers.vary).toMatch(/\bAuthorization\b/);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  }

  async function sellTicket(eventId: string): Promise<void> {
    const res = await buyTicket(t.baseUrl, {
      ticketType: 'event',
      eventId,
      ticketDate: DATE,
      email: 'visitor@example.org',
    });
    expectStatus(res, 201);
  }

  it('registers the rate limit after the Basic guard, and the answer memory last, with no interceptor', () => {
    const { guards, interceptors } = globalEnhancers(t);
    expect(guards.map((guard) => guard.constructor.name)).toEqual([
      'BasicAuthGuard',
      'PublicReadThrottler',
      'RoleGuard',
      'PublicAnswerCache',
    ]);
    expect(interceptors).toEqual([]);
  });

  it('lists the events without credentials, with the public fields only, cacheable by anyone', async () => {
    const limited = await createEvent(t, { capacity: 40, name: 'Limited' });
    await sellTicket(limited.eventId as string);
    const res = await request(t.baseUrl)
      .get(`/special-events?startDate=${DATE}&endDate=${DATE}`)
      .set('Origin', SITE_ORIGIN);
    expectStatus(res, 200);
    expectPublicHeaders(res);
    const listed = (res.body as Body[]).find((event) => event.eventId === limited.eventId);
    expect(listed).toEqual({
      eventId: limited.eventId,
      name: 'Limited',
      location: limited.location,
      eventDescription: limited.eventDescription,
      dates: [DATE],
      price: limited.price,
      ticketsAvailable: 39,
    });
    expect(res.text).not.toMatch(/capacity|email|visitor@|ticketsSold|version/);
  });

  it('answers 304 to the list while nothing on the page changed, and 200 after a sale or an update', async () => {
    const event = await createEvent(t, { capacity: 10, dates: [SOLD_DATE] });
    const path = `/special-events?startDate=${SOLD_DATE}&endDate=${SOLD_DATE}`;
    const first = await request(t.baseUrl).get(path);
    expectStatus(first, 200);
    const tag = first.headers.etag as string;
    // Opaque: keyed, so no one recomputes it from a guessed version and tickets sold.
    const stored = await request(t.baseUrl)
      .get(`/special-events/${event.eventId as string}`)
      .set('Authorization', AUTH);
    const [version, ticketsSold] = (stored.headers.etag as string)
      .slice(1, -1)
      .split('-')
      .map((part) => parseInt(part, 36));
    const unkeyed = createHash('sha256')
      .update(`\n${event.eventId as string} ${version} ${ticketsSold}`)
      .digest('base64url');
    expect(tag).toMatch(/^"l[A-Za-z0-9_-]{22}"$/);
    expect(tag).not.toBe(`"l${unkeyed.slice(0, 22)}"`);
    const again = await request(t.baseUrl).get(path).set('If-None-Match', tag);
    expectStatus(again, 304);
    expect(again.text ?? '').toBe('');
    expectPublicHeaders(again);
    expect(again.headers.etag).toBe(tag);

    const sold = await buyTicket(t.baseUrl, {
      ticketType: 'event',
      eventId: event.eventId,
      ticketDate: SOLD_DATE,
      email: 'a@example.org',
    });
    expectStatus(sold, 201);
    const afterSale = await request(t.baseUrl).get(path).set('If-None-Match', tag);
    expectStatus(afterSale, 200);
    expect((afterSale.body as Body[])[0].ticketsAvailable).toBe(9);
    const saleTag = afterSale.headers.etag as string;
    expect(saleTag).not.toBe(tag);

    const patched = await request(t.baseUrl)
      .patch(`/special-events/${event.eventId as string}`)
      .set('Authorization', AUTH)
      .send({ name: 'Renamed' });
    expectStatus(patched, 200);
    const afterUpdate = await request(t.baseUrl).get(path).set('If-None-Match', saleTag);
    expectStatus(afterUpdate, 200);
    expect((afterUpdate.body as Body[])[0].name).toBe('Renamed');
  });

  it('answers a repeated anonymous read from memory for up to a second, never a read with credentials', async () => {
    const event = await createEvent(t, { name: 'Before' });
    const path = `/special-events/${event.eventId as string}`;
    const started = Date.now();
    // A URL's first read is not kept, its second is.
    expectStatus(await request(t.baseUrl).get(path), 200);
    expectStatus(await request(t.baseUrl).get(path), 200);
    // Changed behind the service's back (no request of this instance wrote it): only a read of
    // the database can see it.
    await t.app
      .get(DataSource)
      .query('UPDATE special_events SET name = ? WHERE event_id = ?', ['After', event.eventId]);
    const anonymous = await request(t.baseUrl).get(path);
    const withCredentials = await request(t.baseUrl).get(path).set('Authorization', AUTH);
    expect((withCredentials.body as Body).name).toBe('After');
    // The kept answer, unless the machine was so loaded that a second went by (then it proves nothing).
    const elapsed = Date.now() - started;
    expect({ name: (anonymous.body as Body).name, slow: elapsed >= 900 }).toMatchObject(
      elapsed >= 900 ? { slow: true } : { name: 'Before' },
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(((await request(t.baseUrl).get(path)).body as Body).name).toBe('After');
  });

  it('gets one event without credentials: public fields, its own strong tag, 304 while current', async () => {
    const event = await createEvent(t, { capacity: 5 });
    const path = `/special-events/${event.eventId as string}`;
    const res = await request(t.baseUrl).get(path);
    expectStatus(res, 200);
    expectPublicHeaders(res);
    expect(Object.keys(res.body as Body).sort()).toEqual(
      ['dates', 'eventDescription', 'eventId', 'location', 'name', 'price', 'ticketsAvailable'].sort(),
    );
    const authenticated = await request(t.baseUrl).get(path).set('Authorization', AUTH);
    // Different bytes, different tags: no cache can answer one with the other's 304.
    expect(authenticated.headers.etag).not.toBe(res.headers.etag);
    // Opaque: the public tag names neither the version nor the tickets sold (which, beside
    // ticketsAvailable, would give the capacity), and a HEAD answers the same tag.
    const [version, sold] = (authenticated.headers.etag as string).slice(1, -1).split('-');
    expect(res.headers.etag).toMatch(/^"p[A-Za-z0-9_-]{22}"$/);
    expect(res.headers.etag).not.toContain(version);
    expect(res.headers.etag).not.toMatch(new RegExp(`-${sold}"$`));
    expect((await request(t.baseUrl).head(path)).headers.etag).toBe(res.headers.etag);
    const notModified = await request(t.baseUrl)
      .get(path)
      .set('If-None-Match', res.headers.etag as string);
    expectStatus(notModified, 304);
    expectPublicHeaders(notModified);
    await sellTicket(event.eventId as string);
    const afterSale = await request(t.baseUrl)
      .get(path)
      .set('If-None-Match', res.headers.etag as string);
    expectStatus(afterSale, 200);
    expect((afterSale.body as Body).ticketsAvailable).toBe(4);
    const missing = '/special-events/01890a5d-ac96-774b-bcce-b302099a8057';
    expectProblem(await request(t.baseUrl).get(missing), 404, missing);
  });

  it('serves the hours and the calendar without credentials, with tags and 304s', async () => {
    const week = await setWeeklyHours(t.baseUrl, WEEK);
    expectStatus(week, 200);
    const hoursOf3May = hoursPath({ startDate: '2031-05-03', limit: 3 });
    const hours = await request(t.baseUrl).get(hoursOf3May);
    expectStatus(hours, 200);
    expectPublicHeaders(hours);
    expect(hours.body).toEqual([
      { date: '2031-05-03', timeOpen: '10:00', timeClose: '18:00', ticketsAvailable: 500 },
      { date: '2031-05-05', timeOpen: '09:00', timeClose: '18:00' },
      { date: '2031-05-06', timeOpen: '09:00', timeClose: '18:00' },
    ]);
    const cached = await request(t.baseUrl)
      .get(hoursOf3May)
      .set('If-None-Match', hours.headers.etag as string);
    expectStatus(cached, 304);
    expectPublicHeaders(cached);
    expectStatus(await setHoursOn(t.baseUrl, '2031-05-03', { closed: true }), 200);
    const changed = await request(t.baseUrl)
      .get(hoursOf3May)
      .set('If-None-Match', hours.headers.etag as string);
    expectStatus(changed, 200);
    expect((changed.body as Body[])[0].date).toBe('2031-05-05');

    const calendar = await request(t.baseUrl).get(`/special-events.ics?startDate=${DATE}&endDate=${DATE}`);
    expectStatus(calendar, 200);
    expect(calendar.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expectPublicHeaders(calendar);
    const calendarAgain = await request(t.baseUrl)
      .get(`/special-events.ics?startDate=${DATE}&endDate=${DATE}`)
      .set('If-None-Match', calendar.headers.etag as string);
    expectStatus(calendarAgain, 304);
    expectPublicHeaders(calendarAgain);
  });

  it('answers a request with credentials exactly as without public read; wrong ones are still a 401', async () => {
    const event = await createEvent(t, { capacity: 7 });
    const path = `/special-events/${event.eventId as string}`;
    const res = await request(t.baseUrl).get(path).set('Authorization', AUTH).set('Origin', STAFF_ORIGIN);
    expectStatus(res, 200);
    expect((res.body as Body).capacity).toBe(7);
    expect(res.headers['cache-control'] ?? '').not.toContain('public');
    expect(res.headers['access-control-allow-origin']).toBe(STAFF_ORIGIN);
    const list = await request(t.baseUrl).get('/special-events').set('Authorization', AUTH);
    expectStatus(list, 200);
    expect(list.headers['cache-control'] ?? '').not.toContain('public');
    for (const authorization of [basicHeader(TEST_USER, 'wrong password'), 'Bearer abc', '']) {
      const refused = await request(t.baseUrl).get(path).set('Authorization', authorization);
      expectProblem(refused, 401, path);
      expect(refused.headers['www-authenticate']).toBe(CHALLENGE);
    }
  });

  it('lets nothing else in without credentials: every other route is a 401', async () => {
    const others = routesOf(t.app).filter(
      (route) => !route.isPublic && Reflect.getMetadata(PUBLIC_READ, route.handler) !== true,
    );
    expect(others.length).toBeGreaterThan(15);
    for (const route of others) {
      const path = concretePath(route.path);
      const method = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'][route.method] ?? 'GET';
      const res = await request(t.baseUrl)
        [method.toLowerCase() as 'get'](path)
        .set('Content-Type', 'application/json')
        .send(method === 'GET' || method === 'DELETE' ? undefined : '{}');
      expect({ route: `${method} ${route.path}`, status: res.status }).toEqual({
        route: `${method} ${route.path}`,
        status: 401,
      });
    }
    // Other methods and deeper paths of the public ones, too.
    for (const [method, path] of [
      ['post', '/special-events'],
      ['delete', '/special-events/01890a5d-ac96-774b-bcce-b302099a8057'],
      ['get', '/special-events/01890a5d-ac96-774b-bcce-b302099a8057/tickets'],
      ...FEATURES.flatMap((rows) => rows.closed ?? []),
    ] as const) {
      expectStatus(await request(t.baseUrl)[method](path), 401);
    }
  });

  it('opens the public routes to any origin without credentials, and keeps CORS_ORIGINS for the rest', async () => {
    const preflight = await request(t.baseUrl)
      .options('/special-events')
      .set('Origin', SITE_ORIGIN)
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'if-none-match');
    expectStatus(preflight, 204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
    expect(preflight.headers['access-control-allow-methods']).toBe('GET,HEAD');
    // Asking to send credentials, or to write, is the CORS_ORIGINS rule: an unlisted origin gets nothing.
    expect(PRIVATE_READS.length).toBeGreaterThan(0);
    for (const [method, headers, path] of [
      ['GET', 'authorization', '/special-events'],
      ['POST', 'content-type', '/special-events'],
      ...PRIVATE_READS.map((path) => ['GET', '', path]),
    ]) {
      const refused = await request(t.baseUrl)
        .options(path)
        .set('Origin', SITE_ORIGIN)
        .set('Access-Control-Request-Method', method)
        .set('Access-Control-Request-Headers', headers);
      expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    }
    const staff = await request(t.baseUrl)
      .options('/special-events')
      .set('Origin', STAFF_ORIGIN)
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'authorization');
    expect(staff.headers['access-control-allow-origin']).toBe(STAFF_ORIGIN);
    for (const path of PRIVATE_READS) {
      const read = await request(t.baseUrl).get(path).set('Origin', SITE_ORIGIN);
      expectStatus(read, 401);
      expect(read.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('keeps the liveness probe answered beside a flood of anonymous reads', async () => {
    for (let i = 0; i < 20; i++) await createEvent(t, { dates: ['2031-07-01'] });
    // 32 clients read the largest page back to back until the probe is answered (or the budget
    // of reads runs out): the probe must be served while the flood goes on, not after it.
    const budget = 5000;
    let sent = 0;
    let probed = false;
    const statuses = new Set<number>();
    const client = async (): Promise<void> => {
      while (!probed && sent < budget) {
        sent++;
        statuses.add(await getStatus(`${t.baseUrl}/special-events?limit=100`));
      }
    };
    const flood = Array.from({ length: 32 }, client);
    while (sent < 100) await new Promise((resolve) => setTimeout(resolve, 5));
    const probe = await getStatus(`${t.baseUrl}/health/live`);
    const sentWhenProbed = sent;
    probed = true;
    await Promise.all(flood);
    expect(probe).toBe(200);
    expect([...statuses]).toEqual([200]);
    expect(sentWhenProbed).toBeLessThan(budget);
  });

  it('documents the public operations with optional credentials, and nothing else differs', async () => {
    const res = await request(t.baseUrl).get('/openapi.json');
    expectStatus(res, 200);
    const document = res.body as OpenAPIObject;
    const publicOperations: string[] = [];
    for (const item of Object.values(document.paths)) {
      for (const operation of Object.values(item) as {
        operationId: string;
        security?: unknown[];
        description?: string;
        responses: Record<string, unknown>;
      }[]) {
        if (!(operation.security ?? []).some((entry) => JSON.stringify(entry) === '{}')) continue;
        publicOperations.push(operation.operationId);
        expect(operation.security).toEqual([{}, { basic: [] }]);
        expect(operation.description?.endsWith(PUBLIC_READ_OPERATION)).toBe(true);
        // What the document with public read off says, back from this one.
        delete operation.security;
        operation.description = operation.description?.slice(0, -PUBLIC_READ_OPERATION.length);
        if (operation.operationId !== 'getSpecialEvent' && operation.operationId !== 'getSpecialEventsCalendar')
          delete operation.responses['304'];
      }
    }
    expect(publicOperations.sort()).toEqual(
      [
        'getSpecialEvent',
        'getSpecialEventsCalendar',
        'listSpecialEvents',
        ...FEATURES.flatMap((rows) => rows.operationIds ?? []),
      ].sort(),
    );
    expect(document.info.description?.endsWith(PUBLIC_READ_DESCRIPTION)).toBe(true);
    document.info.description = document.info.description?.slice(0, -PUBLIC_READ_DESCRIPTION.length);
    expect(documentWhenOff).toBeDefined();
    expect(document).toEqual(documentWhenOff);
  });
});

describe('public read on without CORS_ORIGINS', () => {
  const t = useTestApp({ PUBLIC_READ: 'true', PUBLIC_RATE_LIMIT: '100000' });

  it('gives CORS headers to anonymous public reads and their preflights only', async () => {
    const event = await createEvent(t);
    const path = `/special-events/${event.eventId as string}`;
    const preflight = await request(t.baseUrl)
      .options(path)
      .set('Origin', SITE_ORIGIN)
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'if-none-match');
    expectStatus(preflight, 204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-methods']).toBe('GET,HEAD');
    expect(preflight.headers['access-control-allow-headers']).toBe('If-None-Match');
    expect(preflight.headers['access-control-max-age']).toBe('600');
    const anonymous = await request(t.baseUrl).get(path).set('Origin', SITE_ORIGIN);
    expectStatus(anonymous, 200);
    expect(anonymous.headers['access-control-allow-origin']).toBe('*');
    expect(anonymous.headers['access-control-expose-headers']).toBe('ETag,Link,Retry-After,X-Request-Id');
    expect(anonymous.headers['access-control-allow-credentials']).toBeUndefined();
    // With credentials, a write's preflight, or one that announces credentials: no origin is listed.
    const answers = [
      await request(t.baseUrl).get(path).set('Origin', SITE_ORIGIN).set('Authorization', AUTH),
      ...(await Promise.all(
        [
          ['GET', 'authorization'],
          ['PATCH', 'content-type'],
        ].map(([method, headers]) =>
          request(t.baseUrl)
            .options(path)
            .set('Origin', SITE_ORIGIN)
            .set('Access-Control-Request-Method', method as string)
            .set('Access-Control-Request-Headers', headers as string),
        ),
      )),
    ];
    expectStatus(answers[0] as Response, 200);
    for (const answer of answers) {
      expect(Object.keys(answer.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
      expect(answer.headers.vary ?? '').not.toMatch(/\bOrigin\b/);
      expect(answer.status).not.toBe(204);
    }
  });
});

describe('public read: the rate limit', () => {
  const t = useTestApp({
    PUBLIC_READ: 'true',
    PUBLIC_RATE_LIMIT: '5',
    // Windows are aligned on the clock: an hour makes a test that runs across the end of one unlikely.
    PUBLIC_RATE_WINDOW_SECONDS: '3600',
    TRUST_PROXY: '1',
  });
  useMuseumClock(t);

  it('answers 429 with Retry-After past the limit, per client address as the proxy gives it', async () => {
    // The client is the address the trusted proxy appended; the leftmost entries are the client's own words.
    const from = (client: string, spoof: string) => ({ 'X-Forwarded-For': `${spoof}, ${client}` });
    // Five reads, the public paths in turn: the limit counts them all, whichever path.
    const paths = Array.from({ length: 5 }, (_, i) => PUBLIC_PATHS[i % PUBLIC_PATHS.length]);
    for (const [i, path] of paths.entries()) {
      expectStatus(
        await request(t.baseUrl)
          .get(path)
          .set(from('203.0.113.7', `10.0.0.${i}`)),
        200,
      );
    }
    const limited = await request(t.baseUrl)
      .get('/special-events')
      .set(from('203.0.113.7', '10.9.9.9'))
      .set('Origin', SITE_ORIGIN);
    expectProblem(limited, 429, '/special-events');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(3600);
    // A page on another origin can read the answer and its Retry-After.
    expect(limited.headers['access-control-allow-origin']).toBe('*');
    expect(limited.headers['access-control-expose-headers']).toContain('Retry-After');
    // Another client is not limited, nor is the same address with credentials.
    expectStatus(await request(t.baseUrl).get('/special-events').set(from('203.0.113.8', '10.9.9.9')), 200);
    expectStatus(
      await request(t.baseUrl).get('/special-events').set(from('203.0.113.7', '10.9.9.9')).set('Authorization', AUTH),
      200,
    );
  });

  it('counts an IPv6 client by its /64: other addresses of that /64 are refused, another /64 is served', async () => {
    const from = (client: string) => ({ 'X-Forwarded-For': client });
    for (let i = 1; i <= 5; i++) {
      expectStatus(await request(t.baseUrl).get('/special-events').set(from('2001:db8:7:7::1')), 200);
    }
    // One subscriber holds all 2^64 addresses of its /64: a new one is the same client.
    for (const address of ['2001:db8:7:7::2', '2001:db8:7:7:ffff:ffff:ffff:ffff', '2001:db8:7:7:1234::9']) {
      expectProblem(await request(t.baseUrl).get('/special-events').set(from(address)), 429, '/special-events');
    }
    expectStatus(await request(t.baseUrl).get('/special-events').set(from('2001:db8:7:8::1')), 200);
    // IPv4 stays per address.
    for (let i = 1; i <= 5; i++) {
      expectStatus(await request(t.baseUrl).get('/special-events').set(from('198.51.100.21')), 200);
    }
    expectStatus(await request(t.baseUrl).get('/special-events').set(from('198.51.100.22')), 200);
  });
});

/** The status of a GET on a connection of its own (no pooling: the flood is concurrent). */
function getStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}
