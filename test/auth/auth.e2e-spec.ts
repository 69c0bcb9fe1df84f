import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import request, { type Response } from 'supertest';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { DataSource } from 'typeorm';
import { CredentialCache } from '../../src/auth/credential-cache.js';
import { PasswordHasher } from '../../src/auth/password-hasher.js';
import { UsersService } from '../../src/auth/users.service.js';
import { methodName, routesOf } from '../../src/common/http/routes.js';
import {
  type Body,
  CHALLENGE,
  expectProblem,
  expectStatus,
  expectUnauthorized,
  validEvent,
} from '../helpers/problem-assertions.js';
import {
  AUTH,
  basicHeader,
  createTestApp,
  PRODUCTION_HASHING,
  TEST_PASSWORD,
  TEST_USER,
  useTestApp,
  type TestApp,
} from '../helpers/test-app.js';
import { freezeClock } from '../helpers/clock.js';
import { useTestDatabase } from '../helpers/test-database.js';

/**
 * HTTP Basic authentication (docs/api.md, "Authentication"), end to end over TCP on the app built
 * exactly as main.ts builds it. Database-agnostic: state is observed through HTTP and the
 * in-process UsersService only. One app is open at a time (passport's strategy registry is
 * process-wide): each top-level describe starts and closes its own.
 */

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
const suffix = (): string => randomUUID().slice(0, 8);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** POST /special-events with a valid body and the given Authorization header (none when undefined). */
function post(t: TestApp, authorization: string | undefined, body: Body = validEvent()): request.Test {
  const req = request(t.baseUrl).post('/special-events');
  return (authorization === undefined ? req : req.set('Authorization', authorization)).send(body);
}

function del(t: TestApp, eventId: string, authorization?: string): request.Test {
  const req = request(t.baseUrl).delete(`/special-events/${eventId}`);
  return authorization === undefined ? req : req.set('Authorization', authorization);
}

/** The credentials are accepted: a create answers 201 with the event as sent. */
async function expectAccepted(t: TestApp, authorization: string): Promise<void> {
  const event = validEvent();
  const res = await post(t, authorization, event);
  expectStatus(res, 201);
  expect(res.body).toStrictEqual(event);
}

/** The credentials are refused with the one 401, and the create did not happen. */
async function expectRefused(t: TestApp, authorization: string | undefined, valid = AUTH): Promise<void> {
  const event = validEvent();
  expectUnauthorized(await post(t, authorization, event), '/special-events');
  expectProblem(await del(t, event.eventId as string, valid), 404, `/special-events/${event.eventId as string}`);
}

/** Everything a client sees of a response, for "identical response" comparisons. */
function observable(res: Response): Record<string, unknown> {
  return {
    status: res.status,
    contentType: res.headers['content-type'],
    challenge: res.headers['www-authenticate'],
    body: res.body as unknown,
    text: res.text,
  };
}

// =============================================================================================
// The default app: ADMIN_USERNAME=tester (TEST_PASSWORD), failure limit out of reach. What is
// about the hashing itself (its parameters, one hash per credentials at once) runs on an app
// that hashes at the service's own cost; the rest on one that hashes cheaply.
// =============================================================================================

describe('with the default app', () => {
  const t = useTestApp();

  describe('anonymous callers reach only the public routes, listed from the routes themselves', () => {
    /** The routes anyone may call; a new public route must be added here, on purpose. */
    const PUBLIC = ['GET /calendar/:token.ics', 'GET /health/live', 'GET /health/ready', 'GET /metrics'];

    it('every declared route answers 401 without credentials unless it is @Public(), and the document agrees', async () => {
      const routes = routesOf(t.app);
      expect(routes.length).toBeGreaterThanOrEqual(PUBLIC.length + 2);
      const doc = (await request(t.baseUrl).get('/openapi.json')).body as {
        paths: Record<string, Record<string, { security?: unknown[] }>>;
      };
      const reachable: string[] = [];
      for (const route of routes) {
        const method = methodName(route.method);
        const path = route.path.replace(/:\w+/g, randomUUID());
        const res = await request(t.baseUrl)[method.toLowerCase() as 'get'](path);
        if (res.status === 401) expectUnauthorized(res, path);
        else reachable.push(`${method} ${route.path}`);
        expect(route.isPublic).toBe(res.status !== 401);
        const operation = doc.paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
        expect(operation?.security).toEqual(route.isPublic ? [] : undefined);
      }
      expect(reachable.sort()).toEqual(PUBLIC);
    });
  });

  describe('every /special-events route requires credentials', () => {
    const id = randomUUID();
    it.each([
      ['POST', '/special-events'],
      ['GET', '/special-events'],
      ['PUT', '/special-events'],
      ['PATCH', '/special-events'],
      ['DELETE', '/special-events'],
      ['OPTIONS', '/special-events'],
      ['DELETE', `/special-events/${id}`],
      ['GET', `/special-events/${id}`],
      ['PUT', `/special-events/${id}`],
      ['POST', `/special-events/${id}`],
      ['PATCH', `/special-events/${id}`],
      ['GET', '/special-events/x/y'],
      ['DELETE', '/special-events/x/y'],
      ['POST', '/special-events/x/y/z'],
      ['GET', '/special-events/'],
      ['GET', '/SPECIAL-EVENTS'],
      ['DELETE', `/Special-Events/${id}`],
    ])('%s %s without credentials: 401 with the Basic challenge and problem details', async (method, path) => {
      const res = await request(t.baseUrl)
        [method.toLowerCase() as 'get'](path)
        .set('Content-Type', 'application/json')
        .send(JSON.stringify(validEvent()));
      expectUnauthorized(res, path);
    });

    it.each([['/special-events'], [`/special-events/${id}`]])(
      'HEAD %s without credentials: 401 with the challenge',
      async (path) => {
        const res = await request(t.baseUrl).head(path);
        expect(res.status).toBe(401);
        expect(res.headers['www-authenticate']).toBe(CHALLENGE);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json(;|$)/);
      },
    );

    it('instance is the path without its query string', async () => {
      expectUnauthorized(await request(t.baseUrl).get('/special-events?secret=1&b=2'), '/special-events');
    });

    it('with valid credentials the same routes answer what they are (405 with Allow, 404), not 401', async () => {
      const putCollection = await request(t.baseUrl).put('/special-events').set('Authorization', AUTH);
      expectProblem(putCollection, 405, '/special-events');
      expect(putCollection.headers.allow).toBe('GET, HEAD, POST');
      const put = await request(t.baseUrl).put(`/special-events/${id}`).set('Authorization', AUTH);
      expectProblem(put, 405, `/special-events/${id}`);
      expect(put.headers.allow).toBe('GET, HEAD, PATCH, DELETE');
      expectProblem(
        await request(t.baseUrl).get('/special-events/x/y').set('Authorization', AUTH),
        404,
        '/special-events/x/y',
      );
    });
  });

  describe('one 401 for every kind of credential failure', () => {
    const failures: [string, string | undefined][] = [
      ['missing header', undefined],
      ['Bearer scheme', `Bearer ${b64(`${TEST_USER}:${TEST_PASSWORD}`)}`],
      ['Digest scheme', 'Digest username="tester", realm="museum"'],
      ['scheme without credentials', 'Basic'],
      ['malformed base64', 'Basic %%%not*base64%%%'],
      [
        'base64 with characters Node would skip',
        `Basic ${b64(`${TEST_USER}:${TEST_PASSWORD}`).slice(0, 8)}!!${b64(`${TEST_USER}:${TEST_PASSWORD}`).slice(8)}`,
      ],
      ['two tokens', `Basic ${b64(`${TEST_USER}:${TEST_PASSWORD}`)} ${b64('x:y')}`],
      ['base64 without a colon', `Basic ${b64(`${TEST_USER}${TEST_PASSWORD.replaceAll(':', '')}`)}`],
      ['not UTF-8', `Basic ${Buffer.from([0x74, 0xff, 0xfe, 0x3a, 0x61, 0x62]).toString('base64')}`],
      ['empty user name', basicHeader('', TEST_PASSWORD)],
      ['unknown user', basicHeader(`nobody-${suffix()}`, TEST_PASSWORD)],
      ['wrong password', basicHeader(TEST_USER, 'wrong horse: battery staple')],
      ['empty password', basicHeader(TEST_USER, '')],
      ['password cut at its colon', basicHeader(TEST_USER, TEST_PASSWORD.slice(0, TEST_PASSWORD.indexOf(':')))],
      ['password with a trailing space', basicHeader(TEST_USER, `${TEST_PASSWORD} `)],
    ];

    it.each(failures)('%s: POST gets the identical 401 and stores nothing', async (_label, authorization) => {
      const baseline = await post(t, undefined);
      expectUnauthorized(baseline, '/special-events');
      const event = validEvent();
      const res = await post(t, authorization, event);
      expectUnauthorized(res, '/special-events');
      expect(observable(res)).toStrictEqual(observable(baseline));
      expectProblem(await del(t, event.eventId as string, AUTH), 404, `/special-events/${event.eventId as string}`);
    });

    it.each(failures)('%s: DELETE gets the identical 401 and deletes nothing', async (_label, authorization) => {
      const event = validEvent();
      expectStatus(await post(t, AUTH, event), 201);
      const path = `/special-events/${event.eventId as string}`;
      const baseline = await del(t, event.eventId as string);
      const res = await del(t, event.eventId as string, authorization);
      expectUnauthorized(res, path);
      expect(observable(res)).toStrictEqual(observable(baseline));
      // Still there: deleting it with valid credentials works once.
      expectStatus(await del(t, event.eventId as string, AUTH), 204);
    });

    it('the 401 reveals nothing about the credentials sent', async () => {
      const user = `nobody-${suffix()}`;
      const password = `Secret-${suffix()}-password`;
      const res = await post(t, basicHeader(user, password));
      expectUnauthorized(res, '/special-events');
      expect(res.text).not.toContain(user);
      expect(res.text).not.toContain(password);
      expect(res.text).not.toContain(b64(`${user}:${password}`));
    });
  });

  describe('authentication comes before anything else', () => {
    const bad: [string, string | undefined][] = [
      ['no credentials', undefined],
      ['a wrong password', basicHeader(TEST_USER, 'wrong horse: battery staple')],
      ['a malformed header', 'Basic ***'],
    ];

    /** The requests that, with valid credentials, get 400, 413, 415, 400, 404, 409 and 204. */
    const inputs: [string, number, string, (authorization: string | undefined) => Promise<Response>][] = [
      [
        'malformed JSON',
        400,
        '/special-events',
        (a) => raw('POST', '/special-events', a, 'application/json', '{"name": '),
      ],
      [
        'a 300 KiB body',
        413,
        '/special-events',
        (a) =>
          raw(
            'POST',
            '/special-events',
            a,
            'application/json',
            JSON.stringify({ ...validEvent(), name: 'x'.repeat(300 * 1024) }),
          ),
      ],
      [
        'a text/plain body',
        415,
        '/special-events',
        (a) => raw('POST', '/special-events', a, 'text/plain', JSON.stringify(validEvent())),
      ],
      [
        'an invalid event',
        400,
        '/special-events',
        (a) => raw('POST', '/special-events', a, 'application/json', '{"price":"25"}'),
      ],
      [
        'a non-UUID delete path',
        400,
        '/special-events/not-a-uuid',
        (a) => raw('DELETE', '/special-events/not-a-uuid', a),
      ],
      [
        'a malformed percent-encoded delete path',
        400,
        '/special-events/%E0%A4%A',
        (a) => raw('DELETE', '/special-events/%E0%A4%A', a),
      ],
    ];

    function raw(
      method: 'POST' | 'DELETE',
      path: string,
      authorization?: string,
      type?: string,
      body?: string,
    ): request.Test {
      let req = method === 'POST' ? request(t.baseUrl).post(path) : request(t.baseUrl).delete(path);
      if (authorization !== undefined) req = req.set('Authorization', authorization);
      if (type !== undefined) req = req.set('Content-Type', type);
      return body === undefined ? req : req.send(body);
    }

    describe.each(bad)('with %s', (_label, authorization) => {
      it.each(inputs)(
        '%s: the same 401 (the valid-credentials answer would be %i)',
        async (_input, status, path, send) => {
          const baseline = await raw(path === '/special-events' ? 'POST' : 'DELETE', path);
          expectUnauthorized(baseline, path);
          const res = await send(authorization);
          expectUnauthorized(res, path);
          expect(observable(res)).toStrictEqual(observable(baseline));
          // The input really is one the service refuses with that status once authenticated.
          const authenticated = await send(AUTH);
          expect(authenticated.status).toBe(status);
        },
      );

      it('deleting an event that exists and one that does not: the same 401', async () => {
        const event = validEvent();
        expectStatus(await post(t, AUTH, event), 201);
        const existing = `/special-events/${event.eventId as string}`;
        const missingId = randomUUID();
        const onExisting = await del(t, event.eventId as string, authorization);
        const onMissing = await del(t, missingId, authorization);
        expectUnauthorized(onExisting, existing);
        expectUnauthorized(onMissing, `/special-events/${missingId}`);
        expect({ ...observable(onExisting), body: null, text: null }).toStrictEqual({
          ...observable(onMissing),
          body: null,
          text: null,
        });
        expect({ ...(onExisting.body as Body), instance: null }).toStrictEqual({
          ...(onMissing.body as Body),
          instance: null,
        });
        // With valid credentials: one exists (204), the other does not (404).
        expectStatus(await del(t, event.eventId as string, AUTH), 204);
        expectProblem(await del(t, missingId, AUTH), 404, `/special-events/${missingId}`);
      });

      it('creating an event whose id exists: 401, not 409, and the stored event is unchanged', async () => {
        const event = validEvent();
        expectStatus(await post(t, AUTH, event), 201);
        expectUnauthorized(
          await post(t, authorization, validEvent({ eventId: event.eventId, name: 'Other' })),
          '/special-events',
        );
        expectProblem(await post(t, AUTH, event), 409, '/special-events');
        expectStatus(await del(t, event.eventId as string, AUTH), 204);
      });
    });
  });

  describe('credential format (RFC 7617)', () => {
    it.each([['basic'], ['BASIC'], ['bAsIc'], ['Basic']])('scheme "%s" is accepted', async (scheme) => {
      await expectAccepted(t, `${scheme} ${b64(`${TEST_USER}:${TEST_PASSWORD}`)}`);
    });

    it('the bootstrap password contains ": " and works whole', async () => {
      expect(TEST_PASSWORD).toContain(': ');
      await expectAccepted(t, AUTH);
    });

    it('a password with several colons works; only the first colon separates', async () => {
      const users = t.app.get(UsersService);
      const user = `colon-${suffix()}`;
      const password = 'a:b:c:d-long-password';
      await users.add(user, password);
      await expectAccepted(t, basicHeader(user, password));
      // What a parser splitting on every colon would use instead.
      await expectRefused(t, basicHeader(user, 'a'));
      await expectRefused(t, basicHeader(user, 'b:c:d-long-password'));
      await expectRefused(t, `Basic ${b64(`${user}:a:b`)}`);
    });

    it('UTF-8 user names and passwords; a password in NFD matches one set in NFC', async () => {
      const users = t.app.get(UsersService);
      const user = `José-${suffix()}`;
      const password = 'pässwörd-🔑-long';
      await users.add(user, password);
      await expectAccepted(t, basicHeader(user, password));

      const nfd = password.normalize('NFD');
      expect(nfd).not.toBe(password);
      expect(Buffer.from(nfd, 'utf8').equals(Buffer.from(password, 'utf8'))).toBe(false);
      await expectAccepted(t, basicHeader(user, nfd));

      // The same text encoded as Latin-1 is not UTF-8: refused.
      await expectRefused(t, `Basic ${Buffer.from(`${user}:pässwörd-long`, 'latin1').toString('base64')}`);
      await expectRefused(t, basicHeader(user, 'passwörd-🔑-long'));
    });
  });

  describe('the credential cache follows user changes made in this process', () => {
    it('a new password replaces the old one at once', async () => {
      const users = t.app.get(UsersService);
      const user = `changing-${suffix()}`;
      const [oldPassword, newPassword] = ['old-password-1234', 'new-password-5678'];
      await users.add(user, oldPassword);
      await expectAccepted(t, basicHeader(user, oldPassword));
      await expectRefused(t, basicHeader(user, newPassword)); // the refusal is cached too
      await users.setPassword(user, newPassword);
      await expectRefused(t, basicHeader(user, oldPassword));
      await expectAccepted(t, basicHeader(user, newPassword));
    });

    it('a removed user is refused at once, and a re-added one is accepted', async () => {
      const users = t.app.get(UsersService);
      const user = `leaving-${suffix()}`;
      const password = 'leaving-password-1234';
      await users.add(user, password);
      await expectAccepted(t, basicHeader(user, password));
      await expectAccepted(t, basicHeader(user, password)); // now served from the cache
      await users.remove(user);
      await expectRefused(t, basicHeader(user, password));
      await users.add(user, password);
      await expectAccepted(t, basicHeader(user, password));
    });
  });

  describe('secrets never reach the log', () => {
    it('after accepted and refused requests the log holds no password, token or header value', async () => {
      const user = `logged-${suffix()}`;
      const password = `Log-Secret-${suffix()}: pw`;
      await t.app.get(UsersService).add(user, password);
      const wrongPassword = `Wrong-Secret-${suffix()}`;
      const bearer = `bearer-token-${suffix()}`;
      const headers = [
        AUTH,
        basicHeader(user, password),
        basicHeader(user, wrongPassword),
        basicHeader(`unknown-${suffix()}`, wrongPassword),
        `Bearer ${bearer}`,
      ];
      expectStatus(await post(t, headers[0]), 201);
      expectStatus(await post(t, headers[1]), 201);
      for (const header of headers.slice(2)) expectUnauthorized(await post(t, header), '/special-events');
      // A refused DELETE and a failing create after authentication too.
      const id = randomUUID();
      expectUnauthorized(await del(t, id, headers[2]), `/special-events/${id}`);
      expectProblem(await post(t, headers[1], { name: 1 }), 400, '/special-events', true);

      const log = t.logText();
      expect(t.logs.length).toBeGreaterThan(10); // the log is captured (LOG_LEVEL=trace)
      for (const secret of [TEST_PASSWORD, password, wrongPassword, bearer]) expect(log).not.toContain(secret);
      for (const header of headers) {
        expect(log).not.toContain(header);
        expect(log).not.toContain(header.slice(header.indexOf(' ') + 1)); // the token alone
      }
      expect(log).not.toMatch(/Basic [A-Za-z0-9+/]{8,}/);
    });
  });
});

describe("with the default app, hashing at the service's own cost", () => {
  const t = useTestApp({}, PRODUCTION_HASHING);

  describe('passwords are stored as salted scrypt hashes', () => {
    it('OWASP parameters, a different salt per user, never the password', async () => {
      const users = t.app.get(UsersService);
      const password = `same-password-${suffix()}`;
      const [a, b] = [`salt-a-${suffix()}`, `salt-b-${suffix()}`];
      await users.add(a, password);
      await users.add(b, password);
      const hashes = await Promise.all([users.find(a), users.find(b), users.find(TEST_USER)]);
      for (const hash of hashes.map((user) => user?.passwordHash ?? '')) {
        const format = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$[A-Za-z0-9+/]{20,}\$[A-Za-z0-9+/]{40,}$/;
        expect(hash).toMatch(format);
        const match = format.exec(hash);
        const [, ln, r, p] = (match as RegExpExecArray).map(Number);
        // OWASP's N=2^16, r=8, p=2: the strength of N=2^17, p=1 in half the memory.
        expect([ln, r, p]).toEqual([16, 8, 2]);
        expect(hash).not.toContain(password);
        expect(hash).not.toContain(TEST_PASSWORD);
      }
      expect(hashes[0]?.passwordHash).not.toBe(hashes[1]?.passwordHash);
    });
  });

  describe('a hash made with other parameters is renewed on the next successful login', () => {
    it('the former N=2^17, p=1 hash still works, and is then stored as N=2^16, p=2; the password is unchanged', async () => {
      const users = t.app.get(UsersService);
      const user = `former-${suffix()}`;
      const password = 'former-password-1234';
      await users.add(user, password);
      const former = await new PasswordHasher({ logN: 17, r: 8, p: 1 }).hash(password);
      const current = (await users.find(user))?.passwordHash ?? '';
      expect(await users.replaceHash(user, current, former)).toBe(true);

      await expectRefused(t, basicHeader(user, `${password}-wrong`));
      expect((await users.find(user))?.passwordHash).toBe(former);
      await expectAccepted(t, basicHeader(user, password));
      const renewed = (await users.find(user))?.passwordHash ?? '';
      expect(renewed).toMatch(/^\$scrypt\$ln=16,r=8,p=2\$/);
      expect(await new PasswordHasher().verify(password, renewed)).toBe(true);
      await expectAccepted(t, basicHeader(user, password));
      // The renewal replaces only the hash it read: a password changed meanwhile stays.
      expect(await users.replaceHash(user, former, current)).toBe(false);
    });
  });

  describe('one password hash per credentials, not per request', () => {
    it('20 concurrent first requests with new credentials all succeed on one verification', async () => {
      const user = `crowd-${suffix()}`;
      const password = 'crowd-password-1234';
      await t.app.get(UsersService).add(user, password);
      const verify = vi.spyOn(PasswordHasher.prototype, 'verify');
      const authorization = basicHeader(user, password);
      const events = Array.from({ length: 20 }, () => validEvent());
      const responses = await Promise.all(events.map((event) => post(t, authorization, event)));
      expect(responses.map((res) => res.status)).toEqual(Array.from({ length: 20 }, () => 201));
      responses.forEach((res, i) => expect(res.body).toStrictEqual(events[i]));
      expect(verify).toHaveBeenCalledTimes(1);
      // Later requests with the same credentials are served from the cache.
      for (let i = 0; i < 5; i++) await expectAccepted(t, authorization);
      expect(verify).toHaveBeenCalledTimes(1);
    });

    it('the same wrong password, repeated and concurrent, is verified once', async () => {
      const verify = vi.spyOn(PasswordHasher.prototype, 'verify');
      const authorization = basicHeader(TEST_USER, `wrong-${suffix()}-password`);
      const first = await Promise.all(Array.from({ length: 10 }, () => post(t, authorization)));
      for (let i = 0; i < 5; i++) expectUnauthorized(await post(t, authorization), '/special-events');
      first.forEach((res) => expectUnauthorized(res, '/special-events'));
      expect(verify).toHaveBeenCalledTimes(1);
    });

    it('the same unknown user, repeated, is verified once', async () => {
      const verify = vi.spyOn(PasswordHasher.prototype, 'verify');
      const authorization = basicHeader(`ghost-${suffix()}`, 'ghost-password-1234');
      for (let i = 0; i < 4; i++) expectUnauthorized(await post(t, authorization), '/special-events');
      expect(verify).toHaveBeenCalledTimes(1);
    });

    it('different credentials are verified separately', async () => {
      const verify = vi.spyOn(PasswordHasher.prototype, 'verify');
      expectUnauthorized(await post(t, basicHeader(TEST_USER, `wrong-${suffix()}-one`)), '/special-events');
      expectUnauthorized(await post(t, basicHeader(TEST_USER, `wrong-${suffix()}-two`)), '/special-events');
      expect(verify).toHaveBeenCalledTimes(2);
    });

    it('malformed headers never reach the hasher', async () => {
      const verify = vi.spyOn(PasswordHasher.prototype, 'verify');
      expectUnauthorized(await post(t, 'Basic ***'), '/special-events');
      expectUnauthorized(await post(t, `Basic ${b64('no-colon-here')}`), '/special-events');
      expectUnauthorized(await post(t, undefined), '/special-events');
      expect(verify).not.toHaveBeenCalled();
    });

    it('the credentials are hashed once per request: on a miss, a hit and a refusal; a malformed header not at all', async () => {
      const keyOf = vi.spyOn(CredentialCache.prototype, 'keyOf');
      const user = `once-${suffix()}`;
      await t.app.get(UsersService).add(user, 'once-password-1234');
      const valid = basicHeader(user, 'once-password-1234');
      const wrong = basicHeader(user, `wrong-${suffix()}`);
      const cases: [string | undefined, number, number][] = [
        [valid, 201, 1], // new credentials: the guard and then passport's strategy
        [valid, 201, 1], // cached
        [wrong, 401, 1], // new and wrong
        [wrong, 401, 1], // a cached refusal
        ['Basic ***', 401, 0], // not Basic credentials: nothing to hash
        [undefined, 401, 0], // no header
      ];
      for (const [authorization, status, hashes] of cases) {
        keyOf.mockClear();
        expect((await post(t, authorization)).status).toBe(status);
        expect(keyOf).toHaveBeenCalledTimes(hashes);
      }
    });
  });
});

// =============================================================================================
// Cache bounds: AUTH_CACHE_TTL_SECONDS=2, AUTH_CACHE_MAX_ENTRIES=2
// =============================================================================================

describe('credential cache bounded in time and size, keyed by a keyed hash', () => {
  const t = useTestApp({ AUTH_CACHE_TTL_SECONDS: '2', AUTH_CACHE_MAX_ENTRIES: '2' });

  it('an expired entry is confirmed by reading the user again: no new hash while the stored hash is the same', async () => {
    const authorization = basicHeader(TEST_USER, `expiring-${suffix()}`);
    const clock = freezeClock();
    const verify = vi.spyOn(PasswordHasher.prototype, 'verify');
    const find = vi.spyOn(UsersService.prototype, 'find');
    expectUnauthorized(await post(t, authorization), '/special-events');
    expectUnauthorized(await post(t, authorization), '/special-events');
    expect(verify).toHaveBeenCalledTimes(1);
    expect(find).toHaveBeenCalledTimes(1);
    clock.advance(2001);
    expectUnauthorized(await post(t, authorization), '/special-events');
    expect(find).toHaveBeenCalledTimes(2);
    expect(verify).toHaveBeenCalledTimes(1);
  });

  it('a password changed elsewhere (another instance, the CLI) is checked anew once the entry expired', async () => {
    const user = `elsewhere-${suffix()}`;
    const [oldPassword, newPassword] = [`old-password-${suffix()}`, `new-password-${suffix()}`];
    await t.app.get(UsersService).add(user, oldPassword);
    const [oldAuth, newAuth] = [basicHeader(user, oldPassword), basicHeader(user, newPassword)];
    const newHash = await new PasswordHasher().hash(newPassword);
    const clock = freezeClock();
    expectUnauthorized(await post(t, newAuth), '/special-events');
    await expectAccepted(t, oldAuth);
    // Straight into the table, as another process would: this process's cache is not told.
    await t.app.get(DataSource).query('UPDATE users SET password_hash = ? WHERE username = ?', [newHash, user]);
    const verify = vi.spyOn(PasswordHasher.prototype, 'verify');
    await expectAccepted(t, oldAuth); // within the TTL, as documented
    expect(verify).not.toHaveBeenCalled();
    clock.advance(2001);
    expectUnauthorized(await post(t, oldAuth), '/special-events');
    await expectAccepted(t, newAuth);
    expect(verify).toHaveBeenCalledTimes(2);
  });

  it('beyond the size bound the least recently used entry goes first', async () => {
    const [a, b, c] = ['a', 'b', 'c'].map((name) => basicHeader(TEST_USER, `bounded-${name}-${suffix()}`));
    const verify = vi.spyOn(PasswordHasher.prototype, 'verify');
    for (const header of [a, b, c]) expectUnauthorized(await post(t, header), '/special-events');
    expect(verify).toHaveBeenCalledTimes(3);
    expectUnauthorized(await post(t, c), '/special-events'); // still cached
    expect(verify).toHaveBeenCalledTimes(3);
    expectUnauthorized(await post(t, a), '/special-events'); // evicted
    expect(verify).toHaveBeenCalledTimes(4);
    expect(t.app.get(CredentialCache).size).toBeLessThanOrEqual(2);
  });

  it('cache keys are keyed hashes, never the header or the password', async () => {
    await expectAccepted(t, AUTH);
    const cache = t.app.get(CredentialCache);
    // The entries map is private; read it to check what the process keeps in memory.
    const keys = [...(cache as unknown as { entries: Map<string, unknown> }).entries.keys()];
    const credentials = { username: TEST_USER, password: TEST_PASSWORD };
    expect(keys).toContain(cache.keyOf(credentials));
    for (const key of keys) {
      expect(key).toMatch(/^[A-Za-z0-9+/]{43}=$/); // a 256-bit MAC
      expect(key).not.toContain(TEST_PASSWORD);
      expect(key).not.toContain(AUTH.slice('Basic '.length));
    }
    // Keyed: another process (another key) would not compute the same value.
    expect(new CredentialCache({ ttlMs: 1000, maxEntries: 1 }).keyOf(credentials)).not.toBe(cache.keyOf(credentials));
  });
});

// =============================================================================================
// Guessing is throttled, users are not locked out (docs/api.md, Authentication)
// =============================================================================================

/**
 * A create from client address `from` (any 127.x.y.z reaches the app on 127.0.0.1), on a new
 * connection, seen through the supertest-shaped fields the expect* helpers read.
 */
function postFrom(t: TestApp, from: string, authorization: string | undefined): Promise<Response> {
  const { hostname, port } = new URL(t.baseUrl);
  const body = JSON.stringify(validEvent());
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (authorization !== undefined) headers.Authorization = authorization;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: hostname, port, method: 'POST', path: '/special-events', headers, localAddress: from, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode,
            headers: res.headers,
            text,
            body: JSON.parse(text),
          } as unknown as Response);
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The 429 of a throttled guesser: problem details, Retry-After within the window, no challenge. */
function expectLimited(res: Response, windowSeconds: number): void {
  expectProblem(res, 429, '/special-events');
  expect(res.headers['retry-after']).toMatch(/^[1-9]\d*$/);
  expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(windowSeconds);
  expect(res.headers['www-authenticate']).toBeUndefined();
}

/** The password hashes computed so far to check credentials (auth_password_checks_total on /metrics). */
async function passwordChecks(t: TestApp): Promise<number> {
  const res = await request(t.baseUrl).get('/metrics');
  expectStatus(res, 200);
  return Number(/^auth_password_checks_total (\d+)$/m.exec(res.text)?.[1]);
}

/** The same user name and password as other Authorization headers that parse to them (RFC 7617). */
function respellings(username: string, password: string): string[] {
  const padded = b64(`${username}:${password}`);
  expect(padded).toMatch(/=$/);
  const unpadded = padded.replace(/=+$/, '');
  return [
    `basic ${padded}`,
    `BASIC ${padded}`,
    `bAsIc ${padded}`,
    `Basic  ${padded}`,
    `Basic ${padded} `,
    `Basic ${padded}   `,
    `Basic ${unpadded}`,
    `basic   ${unpadded}  `,
    `Basic ${b64(`${username}:${password.normalize('NFD')}`)}`,
  ];
}

describe('the credential cache is keyed by the credentials, not by how the header spells them', () => {
  const t = useTestApp();

  it('after one verification, nine respellings of the same credentials cost no password hash, right or wrong', async () => {
    // 34 bytes of "user:password" (base64 with padding), and an accent that NFD spells differently.
    const [username, password] = [`respelt-${suffix()}`, 'café-password-xy'];
    await t.app.get(UsersService).add(username, password);
    await expectAccepted(t, basicHeader(username, password));
    const before = await passwordChecks(t);
    for (const authorization of respellings(username, password)) await expectAccepted(t, authorization);
    expect(await passwordChecks(t)).toBe(before);

    // A refusal is one cache entry too: the respellings of a wrong password cost its one hash.
    const wrong = 'café-wrong-passw';
    expectUnauthorized(await post(t, basicHeader(username, wrong)), '/special-events');
    const afterWrong = await passwordChecks(t);
    expect(afterWrong).toBe(before + 1);
    for (const authorization of respellings(username, wrong)) {
      expectUnauthorized(await post(t, authorization), '/special-events');
    }
    expect(await passwordChecks(t)).toBe(afterWrong);
  });
});

describe('user names are NFC without invisible characters, at login and for names stored before the rules', () => {
  // Its own database, restarted: a migration is run again on rows an older version stored.
  const db = useTestDatabase();
  const NFC = 'caf\u00e9';
  const NFD = 'cafe\u0301';
  const password = 'cafe-password-12';

  async function login(t: TestApp, username: string, secret = password): Promise<number> {
    return (await post(t, basicHeader(username, secret))).status;
  }

  it('a login in NFD is the NFC user; a name with a format character is refused and never matches', async () => {
    const t = await createTestApp({ DATABASE_URL: db.url });
    try {
      const users = t.app.get(UsersService);
      await users.add(NFD, password);
      await expect(users.add(NFC, password)).rejects.toThrow(`User "${NFC}" already exists.`);
      for (const invisible of ['\u200b', '\u00ad', '\u2060', '\u202e']) {
        await expect(users.add(`ad${invisible}min`, 'lookalike-password-1')).rejects.toThrow(
          /must not contain spaces, control or format characters/,
        );
      }
      expect(await login(t, NFC)).toBe(201);
      expect(await login(t, NFD)).toBe(201);
      expect(await login(t, `${NFC}\u200b`)).toBe(401);
    } finally {
      await t.close();
    }
  });

  it('stored before the rules: an NFD name is renamed to NFC at the next migration and works; a look-alike never logs in', async () => {
    const t = await createTestApp({ DATABASE_URL: db.url });
    const hash = await new PasswordHasher().hash(password);
    const [legacy, lookalike] = [`legacy-${NFD}`, 'ad\u200bmin'];
    try {
      // As an older version stored them, straight into the table, with the rename not yet run.
      const dataSource = t.app.get(DataSource);
      for (const username of [legacy, lookalike]) {
        await dataSource.query(
          'INSERT INTO users (username, password_hash, role, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
          [username, hash, 'editor', Date.now(), Date.now()],
        );
      }
      await dataSource.query('DELETE FROM migrations WHERE name = ?', ['NormalizedUserNames1764500003700']);
    } finally {
      await t.close();
    }
    const restarted = await createTestApp({ DATABASE_URL: db.url });
    try {
      expect(await login(restarted, `legacy-${NFC}`)).toBe(201);
      expect(await login(restarted, legacy)).toBe(201);
      expect(await login(restarted, lookalike)).toBe(401);
      const rows = (await restarted.app.get(DataSource).query('SELECT username FROM users')) as { username: string }[];
      expect(rows.map(({ username }) => username)).toEqual(expect.arrayContaining([`legacy-${NFC}`, lookalike]));
      expect(rows.map(({ username }) => username)).not.toContain(legacy);
      // The look-alike is removed by its exact spelling; the real admin-like name is untouched.
      await restarted.app.get(UsersService).remove(lookalike);
      expect(await restarted.app.get(UsersService).find(`legacy-${NFC}`)).not.toBeNull();
    } finally {
      await restarted.close();
    }
  }, 180_000);
});

const LIMIT = 3;
const ADDRESS_LIMIT = 6;
const FAILURE_LIMITS = {
  AUTH_FAILURE_LIMIT: String(LIMIT),
  AUTH_FAILURE_ADDRESS_LIMIT: String(ADDRESS_LIMIT),
  AUTH_FAILURE_WINDOW_SECONDS: '60',
  // No check refused for the machine's slowness (a 503 that hash-gate.spec.ts covers).
  AUTH_HASH_MAX_WAIT_MS: '120000',
};

describe('only credentials that were sent and wrong count, per address and user name', () => {
  const t = useTestApp(FAILURE_LIMITS);

  it('a client that asks without credentials first and then answers the challenge (urllib, git, browsers) is never refused', async () => {
    const from = '127.0.1.1';
    for (let i = 0; i < LIMIT * 4; i++) {
      expectUnauthorized(await postFrom(t, from, undefined), '/special-events');
      expectStatus(await postFrom(t, from, AUTH), 201);
    }
  });

  it('malformed headers and other schemes do not count either', async () => {
    const from = '127.0.1.2';
    for (let i = 0; i < LIMIT * 3; i++) {
      expectUnauthorized(await postFrom(t, from, 'Basic ***'), '/special-events');
      expectUnauthorized(await postFrom(t, from, 'Bearer abc'), '/special-events');
    }
    expectStatus(await postFrom(t, from, AUTH), 201);
  });

  it('the guesser of one user gets 429, for right and wrong passwords alike; another user at the address is not refused', async () => {
    const from = '127.0.1.3';
    const other = `neighbour-${suffix()}`;
    const otherPassword = 'neighbour-password-1234';
    await t.app.get(UsersService).add(other, otherPassword);
    for (let i = 0; i < LIMIT; i++) {
      expectUnauthorized(await postFrom(t, from, basicHeader(TEST_USER, `wrong-${suffix()}`)), '/special-events');
    }
    const verify = vi.spyOn(PasswordHasher.prototype, 'verify');
    // Refused without a check: answering a right password differently would tell the guesser.
    expectLimited(await postFrom(t, from, basicHeader(TEST_USER, `wrong-${suffix()}`)), 60);
    expectLimited(await postFrom(t, from, AUTH), 60);
    expect(verify).not.toHaveBeenCalled();
    // Another user at the same address, and the same user elsewhere, are served.
    expectStatus(await postFrom(t, from, basicHeader(other, otherPassword)), 201);
    expectStatus(await postFrom(t, '127.0.1.4', AUTH), 201);
    // A request without credentials from the guesser's address still gets the challenge.
    expectUnauthorized(await postFrom(t, from, undefined), '/special-events');
  });

  it("a name is matched exactly: `victim ` with trailing spaces is not `victim`, and does not get past victim's 429 (issue 26)", async () => {
    const from = '127.0.1.8';
    const victim = `victim-${suffix()}`;
    const password = 'victim-password-1234';
    await t.app.get(UsersService).add(victim, password);
    // MySQL's and MariaDB's _bin collations pad: there `victim ` once logged in as victim.
    for (const padded of [`${victim} `, `${victim}  `, `${victim}\t`]) {
      expectUnauthorized(await postFrom(t, '127.0.1.9', basicHeader(padded, password)), '/special-events');
    }
    for (let i = 0; i < LIMIT; i++) {
      expectUnauthorized(await postFrom(t, from, basicHeader(victim, `wrong-${suffix()}`)), '/special-events');
    }
    expectLimited(await postFrom(t, from, basicHeader(victim, password)), 60);
    // The padded name is another (unknown) name: never the victim's account, right password or not.
    expectUnauthorized(await postFrom(t, from, basicHeader(`${victim}   `, password)), '/special-events');
    // The database itself compares exactly, for user names and idempotency keys alike.
    const db = t.app.get(DataSource);
    const count = async (sql: string, parameters: unknown[]) =>
      Number(((await db.query(sql, parameters)) as { n: number | string }[])[0].n);
    expect(await count('SELECT COUNT(*) AS n FROM users WHERE username = ?', [victim])).toBe(1);
    expect(await count('SELECT COUNT(*) AS n FROM users WHERE username = ?', [`${victim} `])).toBe(0);
    await db.query(
      'INSERT INTO idempotency_keys (username, idempotency_key, fingerprint, claim, status, headers, body, expires_at) VALUES (?, ?, ?, ?, NULL, NULL, NULL, ?)',
      [victim, 'key-1', 'f'.repeat(64), 'c', Date.now() + 60_000],
    );
    const keyed = 'SELECT COUNT(*) AS n FROM idempotency_keys WHERE username = ? AND idempotency_key = ?';
    expect(await count(keyed, [victim, 'key-1'])).toBe(1);
    expect(await count(keyed, [victim, 'key-1 '])).toBe(0);
    expect(await count(keyed, [`${victim} `, 'key-1'])).toBe(0);
  });

  it('across many user names an address is capped, but a user who succeeded from it in the window is not refused', async () => {
    const from = '127.0.1.5';
    const regular = `regular-${suffix()}`;
    const regularPassword = 'regular-password-1234';
    await t.app.get(UsersService).add(regular, regularPassword);
    expectStatus(await postFrom(t, from, basicHeader(regular, regularPassword)), 201);
    for (let i = 0; i < ADDRESS_LIMIT; i++) {
      expectUnauthorized(
        await postFrom(t, from, basicHeader(`guess-${i}-${suffix()}`, 'guess-password-1234')),
        '/special-events',
      );
    }
    expectLimited(await postFrom(t, from, basicHeader(`guess-next-${suffix()}`, 'guess-password-1234')), 60);
    expectLimited(await postFrom(t, from, AUTH), 60);
    expectStatus(await postFrom(t, from, basicHeader(regular, regularPassword)), 201);
    expectStatus(await postFrom(t, '127.0.1.6', AUTH), 201);
  }, 120_000);
});

describe("only credentials that were sent and wrong count, each check a hash at the service's own cost", () => {
  // A check at that cost is still running when the other requests arrive.
  const t = useTestApp(FAILURE_LIMITS, PRODUCTION_HASHING);

  it('in-flight checks count at once: of 40 concurrent wrong passwords exactly LIMIT are checked, the rest get 429', async () => {
    const from = '127.0.1.7';
    const verify = vi.spyOn(PasswordHasher.prototype, 'verify');
    const responses = await Promise.all(
      Array.from({ length: 40 }, () => postFrom(t, from, basicHeader(TEST_USER, `wrong-${suffix()}`))),
    );
    const statuses = responses.map((res) => res.status).sort((a, b) => a - b);
    expect(statuses).toEqual([
      ...Array.from({ length: LIMIT }, () => 401),
      ...Array.from({ length: 40 - LIMIT }, () => 429),
    ]);
    expect(verify).toHaveBeenCalledTimes(LIMIT);
    for (const res of responses) {
      if (res.status === 429) expectLimited(res, 60);
      else expectUnauthorized(res, '/special-events');
    }
  });
});

describe('the failure window', () => {
  const t = useTestApp({ AUTH_FAILURE_LIMIT: '2', AUTH_FAILURE_WINDOW_SECONDS: '15' }, PRODUCTION_HASHING);

  it('successes never count; after the limit the guesser waits Retry-After, then is checked again', async () => {
    const clock = freezeClock();
    for (let i = 0; i < 5; i++) await expectAccepted(t, AUTH);
    // The same wrong password twice: the second is a cached refusal (no hash), so both fall in
    // one window however slow the machine; a cached refusal counts like a checked one.
    const wrong = basicHeader(TEST_USER, `wrong-${suffix()}`);
    expectUnauthorized(await post(t, wrong), '/special-events');
    await expectAccepted(t, AUTH);
    expectUnauthorized(await post(t, wrong), '/special-events');
    const limited = await post(t, AUTH);
    expectLimited(limited, 15);
    // The clock stands still but for these steps: the whole window, a second before its end the
    // guesser is still refused, and at its end checked again.
    expect(limited.headers['retry-after']).toBe('15');
    clock.advance(14_000);
    expectLimited(await post(t, AUTH), 1);
    clock.advance(1000);
    await expectAccepted(t, AUTH);
  }, 60_000);

  it('concurrent first requests of a valid user share one check, so they are one attempt, not one each', async () => {
    const user = `burst-${suffix()}`;
    const password = 'burst-password-1234';
    await t.app.get(UsersService).add(user, password);
    const authorization = basicHeader(user, password);
    // Ten at once with a limit of 2: counted per request, all but two would be 429.
    const responses = await Promise.all(Array.from({ length: 10 }, () => post(t, authorization)));
    expect(responses.map((res) => res.status)).toEqual(Array.from({ length: 10 }, () => 201));
  });
});

describe('a bound on concurrent password hashes', () => {
  const CONCURRENCY = 2;
  const t = useTestApp(
    {
      AUTH_FAILURE_LIMIT: '3',
      AUTH_FAILURE_ADDRESS_LIMIT: '24',
      AUTH_HASH_CONCURRENCY: String(CONCURRENCY),
      // Long enough that no check is refused for the machine's slowness (the refusal itself is
      // unit-tested in hash-gate.spec.ts): this test is about the bound and the order.
      AUTH_HASH_MAX_WAIT_MS: '120000',
    },
    PRODUCTION_HASHING,
  );

  it('a flood of guesses across names never runs more than AUTH_HASH_CONCURRENCY hashes, and a new valid user elsewhere is next in line', async () => {
    const user = `elsewhere-${suffix()}`;
    const password = 'elsewhere-password-1234';
    await t.app.get(UsersService).add(user, password);
    let running = 0;
    let peak = 0;
    /** The password of each hash, in the order they started. */
    const started: string[] = [];
    const hasher = t.app.get(PasswordHasher);
    const verify = hasher.verify.bind(hasher);
    vi.spyOn(hasher, 'verify').mockImplementation(async (...args) => {
      started.push(args[0]);
      peak = Math.max(peak, ++running);
      try {
        return await verify(...args);
      } finally {
        running--;
      }
    });
    const flood = Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        postFrom(t, '127.0.2.1', basicHeader(`flood-${i}-${suffix()}`, `flood-password-${i}`)),
      ),
    );
    // Once the flood's checks are queued, the valid user arrives from another address.
    while (started.length === 0) await sleep(20);
    const startedBefore = started.length;
    const valid = await postFrom(t, '127.0.2.2', basicHeader(user, password));
    const responses = await flood;
    expectStatus(valid, 201);
    expect(peak).toBe(CONCURRENCY);
    // Served in turn by address: the valid user's hash started within a slot or two of its
    // arrival, not after the 20-odd flood checks queued before it.
    expect(started.indexOf(password) - startedBefore).toBeLessThanOrEqual(CONCURRENCY + 1);
    expect(started).toHaveLength(25);
    const statuses = responses.map((res) => res.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(24);
    expect(statuses.filter((status) => status === 429)).toHaveLength(60 - 24);
  }, 180_000);
});

// =============================================================================================
// The bootstrap user (ADMIN_USERNAME / ADMIN_PASSWORD) across restarts on one database
// =============================================================================================

describe('bootstrap user from ADMIN_USERNAME and ADMIN_PASSWORD', () => {
  const database = useTestDatabase();
  let t: TestApp | undefined;

  afterAll(async () => {
    await t?.close();
  });

  it('creates the user; a restart with another ADMIN_PASSWORD updates it; the same one changes nothing', async () => {
    const first = `first-password-${suffix()}`;
    const second = `second-password-${suffix()}`;
    t = await createTestApp({ DATABASE_URL: database.url, ADMIN_USERNAME: 'curator', ADMIN_PASSWORD: first });
    await expectAccepted(t, basicHeader('curator', first));
    const kept = validEvent();
    expectStatus(await post(t, basicHeader('curator', first), kept), 201);
    expect(t.logText()).not.toContain(first);
    await t.close();
    t = undefined;

    t = await createTestApp({ DATABASE_URL: database.url, ADMIN_USERNAME: 'curator', ADMIN_PASSWORD: second });
    await expectRefused(t, basicHeader('curator', first), basicHeader('curator', second));
    await expectAccepted(t, basicHeader('curator', second));
    expect(t.logs.map((entry) => entry.msg)).toContain('User "curator" from ADMIN_USERNAME created or updated.');
    expect(t.logText()).not.toContain(second);
    await t.close();
    t = undefined;

    t = await createTestApp({ DATABASE_URL: database.url, ADMIN_USERNAME: 'curator', ADMIN_PASSWORD: second });
    expect(t.logs.map((entry) => entry.msg)).toContain('User "curator" from ADMIN_USERNAME is up to date.');
    await expectAccepted(t, basicHeader('curator', second));
    // The same database all along: the event created by the first instance is there.
    expectStatus(await del(t, kept.eventId as string, basicHeader('curator', second)), 204);
    await t.close();
    t = undefined;
  });
});

describe('first start without users or ADMIN_* variables', () => {
  const database = useTestDatabase();
  let t: TestApp | undefined;

  afterAll(async () => {
    vi.restoreAllMocks();
    await t?.close();
  });

  it('creates "admin" with a random password printed once, never logged', async () => {
    const noAdmin = { DATABASE_URL: database.url, ADMIN_USERNAME: '', ADMIN_PASSWORD: '' };
    const printed: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      printed.push(String(chunk));
      return true;
    });
    t = await createTestApp(noAdmin);
    const banner = /user:\s+admin\n\s+password:\s+(\S+)\n/;
    expect(printed.join('')).toMatch(banner);
    const match = banner.exec(printed.join(''));
    const password = (match as RegExpExecArray)[1];
    expect(password.length).toBeGreaterThanOrEqual(16);
    await expectAccepted(t, basicHeader('admin', password));
    expect(t.logText()).not.toContain(password);
    await t.close();
    t = undefined;

    printed.length = 0;
    t = await createTestApp(noAdmin);
    expect(printed.join('')).not.toContain('password');
    await expectAccepted(t, basicHeader('admin', password));
    write.mockRestore();
  });
});
