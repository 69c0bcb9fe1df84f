import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import request, { type Response } from 'supertest';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { DataSource } from 'typeorm';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { SpecialEventsService } from '../src/special-events/special-events.service.js';
import {
  type Body,
  expectProblem,
  expectStatus,
  expectUnauthorized,
  LEAK,
  PROBLEM_KEYS,
  validEvent,
} from './helpers/problem-assertions.js';
import { parseRaw, rawExchange, type RawResponse } from './helpers/raw-http.js';
import { AUTH, basicHeader, useTestApp } from './helpers/test-app.js';

/**
 * RFC 9457 problem details for every error (docs/api.md, "Errors"), end to end over TCP on the
 * app built exactly as main.ts builds it. Database-agnostic. One app open at a time: the
 * database-down case has its own.
 */

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

/** A raw response that is problem details with the given status, its body exactly as announced. */
function expectRawProblem(res: RawResponse, status: number): Body {
  expect(res.status).toBe(status);
  expect(res.reason).toBe(STATUS_CODES[status]);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json(;|$)/);
  expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
  const body = JSON.parse(res.body) as Body;
  expect(Object.keys(body).sort()).toEqual(PROBLEM_KEYS);
  expect(body).toMatchObject({ type: 'about:blank', title: STATUS_CODES[status], status });
  expect(body.detail).toEqual(expect.any(String));
  expect(body.instance).toEqual(expect.any(String));
  expect(res.body).not.toMatch(LEAK);
  return body;
}

// =============================================================================================
// The default app
// =============================================================================================

describe('with the default app', () => {
  const t = useTestApp();

  /** POST with the given Authorization header; null sends none. */
  function post(body: unknown, authorization: string | null = AUTH): request.Test {
    const req = request(t.baseUrl).post('/special-events');
    return (authorization === null ? req : req.set('Authorization', authorization)).send(body as object);
  }

  /** `text` as the body, byte for byte, with the given Content-Type. */
  function postText(text: string | Buffer, contentType: string, headers: Record<string, string> = {}): request.Test {
    return request(t.baseUrl)
      .post('/special-events')
      .set({ Authorization: AUTH, 'Content-Type': contentType, ...headers })
      .send(text);
  }

  /** DELETE with the given Authorization header; null sends none. */
  function del(path: string, authorization: string | null = AUTH): request.Test {
    const req = request(t.baseUrl).delete(path);
    return authorization === null ? req : req.set('Authorization', authorization);
  }

  describe('a body of many unknown keys: a small 400', () => {
    it('names each listed key once, lists at most 20 errors after the known fields, and says how many there were', async () => {
      const unknown = Array.from({ length: 6000 }, (_, i) => `unknownKey${String(i).padStart(5, '0')}`);
      const body: Record<string, unknown> = { ...validEvent(), price: 'free' };
      for (const key of unknown) body[key] = 1;
      const res = await postText(JSON.stringify(body), 'application/json');
      const problem = expectProblem(res, 400, '/special-events', true);
      const errors = problem.errors as { field: string; message: string }[];
      expect(errors).toHaveLength(20);
      // The known field first, then the unknown keys in order, each once.
      expect(errors.map((error) => error.field)).toEqual(['price', ...unknown.slice(0, 19)]);
      for (const error of errors.slice(1)) expect(error.message).not.toContain(error.field);
      expect(problem.detail).toContain('(6001 errors; the first 20 are listed)');
      expect(res.text.length).toBeLessThan(4096);
    });

    it('shows a key as long as the body cut short', async () => {
      const key = 'k'.repeat(100_000);
      const res = await postText(JSON.stringify({ ...validEvent(), [key]: 1 }), 'application/json');
      const problem = expectProblem(res, 400, '/special-events', true);
      expect(problem.errors).toEqual([{ field: `${'k'.repeat(64)}…`, message: 'not a property of this resource' }]);
      expect(res.text.length).toBeLessThan(1024);
    });
  });

  describe('unknown routes: 404 problem details', () => {
    it.each([
      ['GET', '/nope'],
      ['POST', '/'],
      ['GET', '/special-eventsX'],
      ['POST', '/special-events-x'],
      ['DELETE', '/nope/deeper/still'],
      ['GET', '/health'],
      ['POST', '/openapi.json'],
      ['GET', '/nope/%E0%A4%A'],
    ])('%s %s', async (method, path) => {
      const res = await request(t.baseUrl)
        [method.toLowerCase() as 'get'](path)
        .set('Content-Type', 'application/json')
        .send('{"a":1}');
      const body = expectProblem(res, 404, path);
      expect(body.type).toBe('about:blank');
      expect(body.title).toBe('Not Found');
    });

    it('instance is the path without the query string', async () => {
      expectProblem(await request(t.baseUrl).get('/nope?token=secret&x=%E0%A4%A'), 404, '/nope');
    });

    it('the same 404 with or without credentials', async () => {
      const anonymous = await request(t.baseUrl).get('/nope');
      const authenticated = await request(t.baseUrl).get('/nope').set('Authorization', AUTH);
      expectProblem(authenticated, 404, '/nope');
      expect(authenticated.text).toBe(anonymous.text);
    });
  });

  describe('every error is problem details with exactly type, title, status, detail, instance', () => {
    const id = randomUUID();
    const cases: [string, number, string, boolean, () => request.Test][] = [
      ['invalid body (validation)', 400, '/special-events', true, () => post({ name: '', price: '25' })],
      ['non-UUID id (validation)', 400, '/special-events/not-a-uuid', true, () => del('/special-events/not-a-uuid')],
      ['malformed JSON', 400, '/special-events', false, () => postText('{"name": ', 'application/json')],
      [
        'JSON nested too deeply',
        400,
        '/special-events',
        false,
        () => postText(`{"name":${'['.repeat(50_000)}${']'.repeat(50_000)}}`, 'application/json'),
      ],
      ['no credentials', 401, '/special-events', false, () => post(validEvent(), null)],
      ['no such event', 404, `/special-events/${id}`, false, () => del(`/special-events/${id}`)],
      ['deeper path', 404, `/special-events/${id}/x`, false, () => del(`/special-events/${id}/x`)],
      [
        'other method',
        405,
        '/special-events',
        false,
        () => request(t.baseUrl).put('/special-events').set('Authorization', AUTH),
      ],
      [
        'body over 256 KiB',
        413,
        '/special-events',
        false,
        () =>
          postText(JSON.stringify({ ...validEvent(), eventDescription: 'x'.repeat(256 * 1024) }), 'application/json'),
      ],
      ['not JSON', 415, '/special-events', false, () => postText(JSON.stringify(validEvent()), 'text/plain')],
    ];

    it.each(cases)('%s: %i', async (_label, status, instance, withErrors, send) => {
      const res = await send();
      const body = expectProblem(res, status, instance, withErrors);
      expect(body.title).toBe(STATUS_CODES[status]);
      // Validation problems have their own type and name the fields; the others are about:blank.
      const errors = (body.errors as Body[] | undefined) ?? [];
      expect({ type: body.type, named: errors.length > 0 }).toEqual({
        type: withErrors ? 'urn:museum:problem:validation' : 'about:blank',
        named: withErrors,
      });
      for (const error of errors) {
        expect(Object.keys(error).sort()).toEqual(['field', 'message']);
        expect(error.field).toEqual(expect.any(String));
        expect(error.message).toEqual(expect.any(String));
      }
    });

    it('409: an existing eventId', async () => {
      const event = validEvent();
      expectStatus(await post(event), 201);
      const body = expectProblem(await post(event), 409, '/special-events');
      expect(body.type).toBe('about:blank');
      expectStatus(await del(`/special-events/${event.eventId as string}`), 204);
    });

    it('405 carries Allow', async () => {
      const res = await request(t.baseUrl).put('/special-events').set('Authorization', AUTH);
      expectProblem(res, 405, '/special-events');
      expect(res.headers.allow).toBe('GET, HEAD, POST');
    });

    it('405 on public paths too, without credentials: Allow lists GET and the HEAD Express answers with it', async () => {
      for (const path of ['/health/live', '/health/ready', '/metrics']) {
        const res = await request(t.baseUrl).put(path);
        const body = expectProblem(res, 405, path);
        expect(body.detail).toBe('PUT is not supported here; use GET, HEAD.');
        expect(res.headers.allow).toBe('GET, HEAD');
      }
      expectProblem(await request(t.baseUrl).get('/health/live/deeper'), 404, '/health/live/deeper');
    });
  });

  describe('malformed percent-encoding in the path: 4xx, never 5xx', () => {
    it.each(['/special-events/%E0%A4%A', '/special-events/%', '/special-events/%zz', '/special-events/%C0%AF'])(
      'DELETE %s: 400 with credentials, 401 without',
      async (path) => {
        const res = await del(path);
        const body = expectProblem(res, 400, path, true);
        expect((body.errors as Body[]).map((error) => error.field)).toEqual(['eventId']);
        expectUnauthorized(await del(path, null), path);
      },
    );

    it('PUT on such a path with credentials: 405', async () => {
      expectProblem(
        await request(t.baseUrl).put('/special-events/%E0%A4%A').set('Authorization', AUTH),
        405,
        '/special-events/%E0%A4%A',
      );
    });

    it('malformed percent-encoding in the query is ignored', async () => {
      const event = validEvent();
      const res = await request(t.baseUrl)
        .post('/special-events?x=%E0%A4%A&y=%')
        .set('Authorization', AUTH)
        .send(event);
      expectStatus(res, 201);
      expect(res.body).toStrictEqual(event);
      expectStatus(await del(`/special-events/${event.eventId as string}?z=%E0`), 204);
    });
  });

  describe('requests Node refuses before Express sees them', () => {
    it('headers over the limit (20 KB cookie): 431 problem details', async () => {
      const raw = await rawExchange(
        t.baseUrl,
        `POST /special-events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${AUTH}\r\n` +
          `Cookie: test=${'x'.repeat(20_000)}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
      );
      expectRawProblem(parseRaw(raw), 431);
    });

    it('a 100 KB request line: 431 problem details', async () => {
      const raw = await rawExchange(t.baseUrl, `GET /nope/${'x'.repeat(100_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      expectRawProblem(parseRaw(raw), 431);
    });

    it.each([
      ['not HTTP at all', 'GARBAGE\r\n\r\n'],
      [
        'a broken chunked body',
        `POST /special-events HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      ],
      ['a header without a colon', 'GET /health/live HTTP/1.1\r\nHost: x\r\nNoColonHere\r\n\r\n'],
      [
        'both Content-Length and chunked',
        'POST /special-events HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      ],
    ])('%s: 400 problem details', async (_label, text) => {
      expectRawProblem(parseRaw(await rawExchange(t.baseUrl, text)), 400);
    });
  });

  describe('no request input gets a 5xx', () => {
    const event = (): Body => validEvent();
    const json = (value: unknown): string => JSON.stringify(value);
    /** [label, status, has `errors`, body, Content-Type, more headers] */
    const cases: [string, number, boolean, string, string, Record<string, string>?][] = [
      ['null', 400, false, 'null', 'application/json'],
      ['an array', 400, true, '[]', 'application/json'],
      ['a string', 400, false, '"text"', 'application/json'],
      ['a number', 400, false, '123', 'application/json'],
      ['an empty body', 400, true, '', 'application/json'],
      ['only white space', 400, false, '  \n ', 'application/json'],
      ['__proto__', 400, true, '{"__proto__":{"admin":true},"name":"x"}', 'application/json'],
      [
        'constructor.prototype',
        400,
        true,
        json({ ...event(), constructor: { prototype: { admin: true } } }),
        'application/json',
      ],
      [
        'an infinite price (1e400)',
        400,
        true,
        json(event()).replace(/"price":[\d.]+/, '"price":1e400'),
        'application/json',
      ],
      [
        'a deeply nested name',
        400,
        false,
        `{"name":${'{"a":'.repeat(30_000)}1${'}'.repeat(30_000)}}`,
        'application/json',
      ],
      [
        'a deeply nested top-level array',
        400,
        false,
        `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
        'application/json',
      ],
      [
        '60 000 dates',
        400,
        true,
        json({ ...event(), dates: Array.from({ length: 60_000 }, () => 'a') }),
        'application/json',
      ],
      ['a 250 KB name', 400, true, json({ ...event(), name: 'x'.repeat(250_000) }), 'application/json'],
      ['an unpaired surrogate', 400, true, json(event()).replace('"name":"', '"name":"\\ud800'), 'application/json'],
      ['a UTF-16 charset', 415, false, json(event()), 'application/json; charset=utf-16'],
      ['a Latin-1 charset', 415, false, json(event()), 'application/json; charset=latin1'],
      ['garbage gzip', 400, false, 'not gzip at all', 'application/json', { 'Content-Encoding': 'gzip' }],
      [
        'an unknown Content-Encoding',
        415,
        false,
        json(event()),
        'application/json',
        { 'Content-Encoding': 'compress' },
      ],
      ['a multipart body', 415, false, '--x\r\n\r\n--x--', 'multipart/form-data; boundary=x'],
      ['a form body', 415, false, 'name=x&price=1', 'application/x-www-form-urlencoded'],
    ];

    it.each(cases)('%s: %i', async (_label, status, withErrors, body, contentType, headers) => {
      expectProblem(await postText(body, contentType, headers), status, '/special-events', withErrors);
    });

    it('Content-Encoding br is accepted like gzip and deflate, limited after decompression; the 415 names all four', async () => {
      /** The bytes as they are (supertest would JSON-encode a Buffer sent as application/json). */
      const postEncoded = async (bytes: Buffer, encoding: string): Promise<RawResponse> =>
        parseRaw(
          await rawExchange(
            t.baseUrl,
            Buffer.concat([
              Buffer.from(
                `POST /special-events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${AUTH}\r\nConnection: close\r\n` +
                  `Content-Type: application/json\r\nContent-Encoding: ${encoding}\r\nContent-Length: ${bytes.length}\r\n\r\n`,
              ),
              bytes,
            ]),
          ),
        );
      for (const [encoding, compress] of [
        ['gzip', gzipSync],
        ['deflate', deflateSync],
        ['br', brotliCompressSync],
      ] as const) {
        const sent = validEvent({ name: `Compressed with ${encoding}` });
        const created = await postEncoded(compress(json(sent)), encoding);
        expect({ status: created.status, body: created.body }).toEqual({ status: 201, body: json(sent) });
        // 300 KiB of spaces: a few hundred bytes on the wire, over the limit once decompressed.
        const bomb = compress(`${' '.repeat(300 * 1024)}${json(validEvent())}`);
        expect(bomb.length).toBeLessThan(2048);
        expect(expectRawProblem(await postEncoded(bomb, encoding), 413).detail).toBe(
          'The request body must be at most 262144 bytes.',
        );
      }
      const unknown = await postEncoded(Buffer.from(json(validEvent())), 'zstd');
      expect(expectRawProblem(unknown, 415).detail).toBe(
        'This Content-Encoding is not supported; send identity, gzip, deflate or br.',
      );
    });

    it('a body with bytes that are not UTF-8: 400, nothing stored', async () => {
      const sent = validEvent({ name: 'NAME' });
      const [before, after] = json(sent).split('NAME');
      const bytes = Buffer.concat([Buffer.from(before), Buffer.from([0x61, 0xff, 0xfe, 0x62]), Buffer.from(after)]);
      const raw = await rawExchange(
        t.baseUrl,
        Buffer.from(
          `POST /special-events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${AUTH}\r\nConnection: close\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${bytes.length}\r\n\r\n${bytes.toString('latin1')}`,
          'latin1',
        ),
      );
      // Not stored with U+FFFD in place of the bytes: the client could not compare what it sent.
      expectRawProblem(parseRaw(raw), 400);
      expectProblem(
        await del(`/special-events/${sent.eventId as string}`),
        404,
        `/special-events/${sent.eventId as string}`,
      );
    });

    it.each([
      ['a NUL', '/special-events/%00'],
      ['an encoded path traversal', '/special-events/..%2F..%2Fetc%2Fpasswd'],
      ['a 5000-character id', `/special-events/${'a'.repeat(5000)}`],
      ['a UUID with a trailing space', `/special-events/${randomUUID()}%20`],
    ])('DELETE with %s: 400 naming eventId', async (_label, path) => {
      const body = expectProblem(await del(path), 400, path, true);
      expect((body.errors as Body[]).map((error) => error.field)).toEqual(['eventId']);
    });

    it('a malformed test cookie changes nothing', async () => {
      const id = randomUUID();
      const res = await del(`/special-events/${id}`).set('Cookie', 'test=%E0%A4%A; test; =; ;;');
      expectProblem(res, 404, `/special-events/${id}`);
    });

    it('a huge Authorization header: 401', async () => {
      expectUnauthorized(await post(validEvent(), `Basic ${'A'.repeat(12_000)}`), '/special-events');
      expectUnauthorized(await post(validEvent(), basicHeader('u'.repeat(5000), 'p'.repeat(5000))), '/special-events');
    });
  });

  describe('unexpected errors: 500 with a reference, details only in the log', () => {
    function findLogged(reference: string): Record<string, unknown> | undefined {
      return t.logs.find((entry) => entry.correlationId === reference);
    }

    it('a failing create: 500 problem details that show nothing internal', async () => {
      vi.spyOn(SpecialEventsService.prototype, 'create').mockRejectedValueOnce(
        new Error('boom SELECT secret FROM users at /work/main/src/x.ts:1:2'),
      );
      const event = validEvent();
      const res = await post(event);
      const body = expectProblem(res, 500, '/special-events');
      expect(body.type).toBe('about:blank');
      for (const hidden of ['boom', 'SELECT', 'secret', 'stack', '/work/', 'Error:'])
        expect(res.text).not.toContain(hidden);
      const reference = UUID.exec(body.detail as string)?.[0];
      expect(body.detail).toMatch(UUID);

      const logged = findLogged(reference as string);
      expect(logged).toMatchObject({ level: 50, msg: 'Unexpected error', method: 'POST', path: '/special-events' });
      // The operator gets what the client does not.
      expect(JSON.stringify(logged)).toContain('boom SELECT secret');
      expect(JSON.stringify(logged)).not.toContain(AUTH.slice('Basic '.length));
      // The failed create stored nothing.
      expectProblem(
        await del(`/special-events/${event.eventId as string}`),
        404,
        `/special-events/${event.eventId as string}`,
      );
    });

    it('a failing delete, and a thrown non-Error: 500s with different references', async () => {
      vi.spyOn(SpecialEventsService.prototype, 'delete')
        .mockRejectedValueOnce(Object.assign(new Error('ENOENT: /work/main/data/x'), { code: 'EWHATEVER' }))
        .mockRejectedValueOnce('a plain string thrown: secret');
      const id = randomUUID();
      const first = expectProblem(await del(`/special-events/${id}`), 500, `/special-events/${id}`);
      const second = expectProblem(await del(`/special-events/${id}`), 500, `/special-events/${id}`);
      const references = [first, second].map((body) => UUID.exec(body.detail as string)?.[0]);
      expect(references[0]).toBeDefined();
      expect(references[1]).toBeDefined();
      expect(references[0]).not.toBe(references[1]);
      for (const reference of references) expect(findLogged(reference as string)).toMatchObject({ level: 50 });
      // Back to normal once the fault is gone.
      expectProblem(await del(`/special-events/${id}`), 404, `/special-events/${id}`);
    });
  });
});

// =============================================================================================
// Database unavailable: its own app, whose DataSource is closed under it
// =============================================================================================

describe('database unavailable', () => {
  const t = useTestApp();

  // Runs before the app closes: closing needs the DataSource the tests closed under it.
  afterAll(async () => {
    const dataSource = t.app.get(DataSource);
    if (!dataSource.isInitialized) await dataSource.initialize();
  });

  function expectUnavailable(res: Response, instance: string): void {
    expectProblem(res, 503, instance);
    expect(res.headers['retry-after']).toMatch(/^[1-9]\d*$/);
  }

  it('503 with Retry-After for create, delete, new credentials and readiness; liveness stays 200', async () => {
    const http = request(t.baseUrl);
    const kept = validEvent();
    expectStatus(await http.post('/special-events').set('Authorization', AUTH).send(kept), 201);
    expectStatus(await http.get('/health/ready'), 200);

    await t.app.get(DataSource).destroy();

    expectUnavailable(
      await http.post('/special-events').set('Authorization', AUTH).send(validEvent()),
      '/special-events',
    );
    const id = randomUUID();
    expectUnavailable(await http.delete(`/special-events/${id}`).set('Authorization', AUTH), `/special-events/${id}`);
    // Credentials not yet cached need the users table: 503 too, never a 401 or a 500.
    expectUnavailable(
      await http
        .post('/special-events')
        .set('Authorization', basicHeader('someone-else', 'some-password-123'))
        .send(validEvent()),
      '/special-events',
    );
    expectUnavailable(await http.get('/health/ready'), '/health/ready');
    expect((await http.get('/health/live')).body).toStrictEqual({ status: 'ok' });
    // What needs no database still answers as usual.
    expectUnauthorized(await http.post('/special-events').send(validEvent()), '/special-events');
    expectProblem(
      await http.post('/special-events').set('Authorization', AUTH).send({ name: 1 }),
      400,
      '/special-events',
      true,
    );
    expect(t.logs.some((entry) => entry.msg === 'Database unavailable' && entry.level === 40)).toBe(true);

    // Once the connection is open again, the same process serves requests: nothing stays broken.
    // Readiness counts the writes that failed until one succeeds (or WRITE_FAILURE_UNREADY_MS).
    await t.app.get(DataSource).initialize();
    expectUnavailable(await http.get('/health/ready'), '/health/ready');
    expectStatus(await http.delete(`/special-events/${kept.eventId as string}`).set('Authorization', AUTH), 204);
    expectStatus(await http.get('/health/ready'), 200);
    expectStatus(await http.post('/special-events').set('Authorization', AUTH).send(validEvent()), 201);
  });
});
