import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { get } from 'node:http';
import { connect } from 'node:net';
import request from 'supertest';
import { describe, expect, it, vi } from 'vitest';
import { UsersService } from '../src/auth/users.service.js';
import { SpecialEventsService } from '../src/special-events/special-events.service.js';
import { expectProblem, expectStatus, expectUnauthorized, validEvent } from './helpers/problem-assertions.js';
import { AUTH, basicHeader, TEST_USER, useTestApp, type TestApp } from './helpers/test-app.js';

/**
 * The service's logs: one JSON line per request (request id, method, route pattern, status,
 * latency, user), the request id taken from a valid X-Request-Id or generated, returned on every
 * response and carried by every line logged while handling the request; never a credential, a
 * cookie or a body, even at LOG_LEVEL=trace (createTestApp's default).
 */

type LogLine = Record<string, unknown>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A create that fails with an unexpected error (500), sent with `requestId`: its problem quotes a
 * correlation id, and the filter's log line with that id is returned.
 */
async function failedCreateErrorLine(app: TestApp, requestId: string): Promise<LogLine | undefined> {
  vi.spyOn(SpecialEventsService.prototype, 'create').mockRejectedValueOnce(new Error('boom'));
  try {
    const res = await request(app.baseUrl)
      .post('/special-events')
      .set('Authorization', AUTH)
      .set('X-Request-Id', requestId)
      .send(validEvent());
    const body = expectProblem(res, 500, '/special-events');
    expect(res.headers['x-request-id']).toBe(requestId);
    const reference = /[0-9a-f-]{36}/.exec(body.detail as string)?.[0];
    expect(reference).toBeDefined();
    return app.logs.find((line) => line.correlationId === reference);
  } finally {
    vi.restoreAllMocks();
  }
}

describe("at LOG_LEVEL=trace (createTestApp's default)", () => {
  const t = useTestApp();

  /** The one request line of `requestId` (it is written when the response finishes: wait for it). */
  async function requestLine(requestId: string): Promise<LogLine> {
    return vi.waitFor(() => {
      const lines = t.logs.filter((line) => line.requestId === requestId && 'status' in line);
      expect(lines).toHaveLength(1);
      return lines[0];
    });
  }

  /** The response's X-Request-Id, and its request line. */
  async function lineOf(res: request.Response): Promise<LogLine> {
    const id = res.headers['x-request-id'] as string | undefined;
    expect(id).toEqual(expect.any(String));
    return requestLine(id as string);
  }

  describe('request id', () => {
    it.each([
      ['letters, digits and . _ : -', 'client-req_42.retry:1'],
      ['one character', 'x'],
      ['128 characters', 'a'.repeat(128)],
      ['a UUID', randomUUID()],
    ])('a valid incoming X-Request-Id (%s) is returned and logged as requestId', async (_what, id) => {
      const res = await request(t.baseUrl).get('/health/live').set('X-Request-Id', id);
      expectStatus(res, 200);
      expect(res.headers['x-request-id']).toBe(id);
      expect(await requestLine(id)).toMatchObject({ requestId: id, method: 'GET', route: '/health/live', status: 200 });
    });

    it.each([
      ['300 characters', 'a'.repeat(300)],
      ['129 characters', 'b'.repeat(129)],
      ['a space', 'two words'],
      ['a tab', 'tab\there'],
      ['a semicolon and quotes', 'id;"injected"'],
      ['a slash', 'a/b'],
      ['empty', ''],
    ])('an invalid incoming X-Request-Id (%s) is replaced by a new UUID', async (_what, id) => {
      const res = await request(t.baseUrl).get('/health/live').set('X-Request-Id', id);
      expectStatus(res, 200);
      const returned = res.headers['x-request-id'] as string;
      expect(returned).toMatch(UUID);
      expect(returned).not.toBe(id);
      expect(await requestLine(returned)).toMatchObject({ requestId: returned, status: 200 });
      expect(id === '' || !t.logText().includes(id)).toBe(true);
    });

    it('two X-Request-Id headers are not one valid id: a new UUID', async () => {
      const returned = await new Promise<string | string[] | undefined>((resolve, reject) => {
        get(`${t.baseUrl}/health/live`, { headers: { 'X-Request-Id': ['one', 'two'] } }, (res) => {
          res.resume();
          resolve(res.headers['x-request-id']);
        }).on('error', reject);
      });
      expect(returned).toMatch(UUID);
    });

    it('without X-Request-Id every response gets its own UUID', async () => {
      const [a, b] = await Promise.all([
        request(t.baseUrl).get('/health/live'),
        request(t.baseUrl).get('/health/live'),
      ]);
      expect(a.headers['x-request-id']).toMatch(UUID);
      expect(b.headers['x-request-id']).toMatch(UUID);
      expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
    });

    it('problem responses carry it too: 401, 400, 404 (unknown route and unknown event), 415', async () => {
      const id = randomUUID();
      const responses = [
        [await request(t.baseUrl).post('/special-events').set('X-Request-Id', 'r-401').send(validEvent()), 401],
        [
          await request(t.baseUrl)
            .delete('/special-events/not-a-uuid')
            .set('Authorization', AUTH)
            .set('X-Request-Id', 'r-400'),
          400,
        ],
        [await request(t.baseUrl).get('/no/such/route').set('X-Request-Id', 'r-404a'), 404],
        [
          await request(t.baseUrl)
            .delete(`/special-events/${id}`)
            .set('Authorization', AUTH)
            .set('X-Request-Id', 'r-404b'),
          404,
        ],
        [
          await request(t.baseUrl)
            .post('/special-events')
            .set('Authorization', AUTH)
            .set('Content-Type', 'text/plain')
            .set('X-Request-Id', 'r-415')
            .send('x'),
          415,
        ],
      ] as const;
      const expected = ['r-401', 'r-400', 'r-404a', 'r-404b', 'r-415'];
      responses.forEach(([res, status], index) => {
        expect(res.status).toBe(status);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(res.headers['x-request-id']).toBe(expected[index]);
      });
      for (const [index, requestId] of expected.entries()) {
        expect(await requestLine(requestId)).toMatchObject({ status: responses[index][1] });
      }
    });

    it('every line logged while handling a request carries its id (the database queries, at trace level)', async () => {
      const res = await request(t.baseUrl)
        .post('/special-events')
        .set('Authorization', AUTH)
        .set('X-Request-Id', 'with-queries')
        .send(validEvent());
      expectStatus(res, 201);
      await requestLine('with-queries');
      const queries = t.logs.filter((line) => line.requestId === 'with-queries' && line.msg === 'query');
      expect(queries.length).toBeGreaterThan(0);
      expect(queries.every((line) => line.context === 'Database')).toBe(true);
    });
  });

  describe('the request line', () => {
    it('create and delete: method, route pattern (not the raw path), status, latency and the user', async () => {
      const event = validEvent();
      const created = await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(event);
      expectStatus(created, 201);
      const createLine = await lineOf(created);
      expect(createLine).toEqual({
        level: 30,
        time: expect.any(Number) as unknown,
        requestId: created.headers['x-request-id'] as string,
        method: 'POST',
        route: '/special-events',
        status: 201,
        latencyMs: expect.any(Number) as unknown,
        user: TEST_USER,
        msg: 'request completed',
      });
      expect(createLine.latencyMs as number).toBeGreaterThanOrEqual(0);

      const deleted = await request(t.baseUrl)
        .delete(`/special-events/${event.eventId as string}`)
        .set('Authorization', AUTH);
      expectStatus(deleted, 204);
      const deleteLine = await lineOf(deleted);
      expect(deleteLine).toMatchObject({
        method: 'DELETE',
        route: '/special-events/:eventId',
        status: 204,
        user: TEST_USER,
      });
      expect(JSON.stringify(deleteLine)).not.toContain(event.eventId as string);
    });

    it('a refused request (401) has no user; a request with a wrong password neither', async () => {
      const path = `/special-events/${randomUUID()}`;
      const anonymous = await request(t.baseUrl).delete(path);
      expectUnauthorized(anonymous, path);
      const anonymousLine = await lineOf(anonymous);
      expect(anonymousLine).toMatchObject({
        method: 'DELETE',
        route: '/special-events/:eventId',
        status: 401,
        level: 30,
      });
      expect(anonymousLine).not.toHaveProperty('user');

      const wrong = await request(t.baseUrl)
        .post('/special-events')
        .set('Authorization', basicHeader(TEST_USER, 'not the password'))
        .send(validEvent());
      expectUnauthorized(wrong, '/special-events');
      const wrongLine = await lineOf(wrong);
      expect(wrongLine).toMatchObject({ route: '/special-events', status: 401 });
      expect(wrongLine).not.toHaveProperty('user');
    });

    it('an authenticated request that fails validation still names its user', async () => {
      const res = await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send({ name: 1 });
      expectProblem(res, 400, '/special-events', true);
      expect(await lineOf(res)).toMatchObject({ route: '/special-events', status: 400, user: TEST_USER });
    });

    it('an unknown route is logged under one placeholder, never its path', async () => {
      const res = await request(t.baseUrl).get('/secret-looking/path/12345?token=abc');
      expectProblem(res, 404, '/secret-looking/path/12345');
      const line = await lineOf(res);
      expect(line).toMatchObject({ method: 'GET', route: '(unmatched)', status: 404 });
      expect(JSON.stringify(line)).not.toMatch(/secret-looking|12345|token/);
    });

    it('a 500: the request line is at error level, and the filter’s line with the correlation id has the request id', async () => {
      expect(await failedCreateErrorLine(t, 'will-fail')).toMatchObject({
        level: 50,
        msg: 'Unexpected error',
        context: 'Errors',
        requestId: 'will-fail',
      });
      expect(await requestLine('will-fail')).toMatchObject({
        level: 50,
        status: 500,
        route: '/special-events',
        user: TEST_USER,
      });
    });
  });

  describe('secrets never reach the log, at LOG_LEVEL=trace', () => {
    it('no password, no Basic credentials (plain or base64), no cookie value, no body', async () => {
      expect(t.config.logLevel).toBe('trace');
      const user = `logger-${randomUUID().slice(0, 8)}`;
      const password = `Known-Password-${randomUUID()}`;
      const wrongPassword = `Wrong-Password-${randomUUID()}`;
      const cookie = `cookie-value-${randomUUID()}`;
      const bodySecret = `body-secret-${randomUUID()}`;
      await t.app.get(UsersService).add(user, password);
      const good = basicHeader(user, password);
      const bad = basicHeader(user, wrongPassword);
      const event = validEvent({ eventDescription: bodySecret });

      expectStatus(
        await request(t.baseUrl)
          .post('/special-events')
          .set('Authorization', good)
          .set('Cookie', `test=${cookie}`)
          .send(event),
        201,
      );
      expectUnauthorized(
        await request(t.baseUrl)
          .post('/special-events')
          .set('Authorization', bad)
          .set('Cookie', `test=${cookie}`)
          .send(validEvent()),
        '/special-events',
      );
      expectProblem(
        await request(t.baseUrl)
          .post('/special-events')
          .set('Authorization', good)
          .set('Cookie', `session=${cookie}`)
          .send({ name: bodySecret }),
        400,
        '/special-events',
        true,
      );
      const path = `/special-events/${event.eventId as string}`;
      expectStatus(
        await request(t.baseUrl).delete(path).set('Authorization', good).set('Cookie', `test=${cookie}`),
        204,
      );
      expectUnauthorized(
        await request(t.baseUrl).delete(path).set('Authorization', bad).set('Cookie', `test=${cookie}`),
        path,
      );

      await vi.waitFor(() => expect(t.logs.filter((line) => line.user === user)).toHaveLength(3));
      const log = t.logText();
      for (const secret of [password, wrongPassword, cookie, bodySecret]) expect(log).not.toContain(secret);
      for (const header of [good, bad]) {
        expect(log).not.toContain(header);
        expect(log).not.toContain(header.slice('Basic '.length));
      }
      expect(log).not.toMatch(/Basic [A-Za-z0-9+/]{8,}/);
      expect(log).not.toMatch(/"(authorization|cookie|set-cookie|headers)"/i);
    });
  });

  describe('requests answered before Nest routing are logged too', () => {
    it('GET /openapi.json and the /docs assets: a request line each, with the id returned', async () => {
      for (const [path, route] of [
        ['/openapi.json', '/openapi.json'],
        ['/docs', '/docs'],
      ]) {
        const res = await request(t.baseUrl)
          .get(path)
          .set('X-Request-Id', `ops${path.replaceAll('/', '.')}`);
        expectStatus(res, 200);
        expect(res.headers['x-request-id']).toBe(`ops${path.replaceAll('/', '.')}`);
        expect(await lineOf(res)).toMatchObject({ method: 'GET', route, status: 200 });
      }
    });
  });
});

describe('at LOG_LEVEL=info, in the same process after another app', () => {
  const app = useTestApp({ LOG_LEVEL: 'info' });

  it('this app’s lines reach this app’s capture, at its level: request lines, no trace lines', async () => {
    const res = await request(app.baseUrl)
      .post('/special-events')
      .set('Authorization', AUTH)
      .set('X-Request-Id', 'at-info')
      .send(validEvent());
    expectStatus(res, 201);
    const line = await vi.waitFor(() => {
      const found = app.logs.find((entry) => entry.requestId === 'at-info');
      expect(found).toBeDefined();
      return found;
    });
    expect(line).toMatchObject({ level: 30, route: '/special-events', status: 201, user: TEST_USER });
    expect(app.logs.some((entry) => entry.msg === 'Starting Nest application...')).toBe(true);
    expect(app.logs.filter((entry) => (entry.level as number) < 30)).toEqual([]);
  });

  it('a 500: the filter’s line names the request id without the trace-level request context', async () => {
    expect(await failedCreateErrorLine(app, 'fails-at-info')).toMatchObject({
      level: 50,
      msg: 'Unexpected error',
      requestId: 'fails-at-info',
    });
  });

  it('a client that goes away before its answer: one line, "request aborted", aborted: true and no status, with its route and user', async () => {
    const { hostname, port } = new URL(app.baseUrl);
    const socket = connect(Number(port), hostname);
    await once(socket, 'connect');
    // Headers and half of the announced body: the service waits for the rest, then the client leaves.
    socket.write(
      'POST /special-events HTTP/1.1\r\nHost: x\r\nX-Request-Id: leaves-early\r\n' +
        `Authorization: ${AUTH}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.destroy();
    const lines = await vi.waitFor(() => {
      const found = app.logs.filter((entry) => entry.requestId === 'leaves-early');
      expect(found).toHaveLength(1);
      return found;
    });
    expect(lines[0]).toMatchObject({ level: 30, msg: 'request aborted', route: '/special-events', user: TEST_USER });
    // Nothing was answered: no status (Node's default 200 would be a lie), but aborted.
    expect(lines[0].aborted).toBe(true);
    expect(lines[0]).not.toHaveProperty('status');
  });
});
