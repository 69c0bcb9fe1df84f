import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { expect } from 'vitest';
import { AUTH, TEST_USER, type TestApp } from '../helpers/test-app.js';
import {
  type ContractCases,
  created,
  type Exchange,
  exhaustFailures,
  HUGE_HEADER,
  type Json,
  JSON_TYPE,
  type Operation,
  newEvent,
  post,
  send,
  viewer,
  WRONG_AUTH,
} from '../helpers/contract.js';

/** The special events' operations in the contract table (test/openapi-contract.e2e-spec.ts). */

const CREATE = '/special-events';
const ITEM = '/special-events/{eventId}';
const AVAILABILITY = '/special-events/{eventId}/availability';

const del = (t: TestApp, eventId: string, headers: Record<string, string> = {}): Promise<Exchange> =>
  send(t, 'delete', `/special-events/${eventId}`, { headers: { Authorization: AUTH, ...headers } });

const getItem = (t: TestApp, eventId: string, headers: Record<string, string> = {}): Promise<Exchange> =>
  send(t, 'get', `/special-events/${eventId}`, { headers: { Authorization: AUTH, ...headers } });

const list = (t: TestApp, query: string, headers: Record<string, string> = {}): Promise<Exchange> =>
  send(t, 'get', `${CREATE}${query}`, { headers: { Authorization: AUTH, ...headers } });

const patch = (t: TestApp, eventId: string, body: string, headers: Record<string, string> = {}): Promise<Exchange> =>
  send(t, 'patch', `/special-events/${eventId}`, {
    headers: { Authorization: AUTH, 'Content-Type': 'application/merge-patch+json', ...headers },
    body,
  });

const contract: ContractCases = {
  cases: [
    // POST /special-events
    {
      app: 'main',
      method: 'post',
      path: CREATE,
      status: 201,
      what: 'a valid event',
      send: (t) => post(t, JSON.stringify(newEvent())),
    },
    {
      app: 'main',
      method: 'post',
      path: CREATE,
      status: 201,
      what: 'no eventId (generated)',
      send: (t) => post(t, JSON.stringify({ ...newEvent(), eventId: undefined })),
    },
    {
      app: 'main',
      method: 'post',
      path: CREATE,
      status: 400,
      what: 'invalid fields and an unknown property',
      send: (t) => post(t, JSON.stringify({ name: '', location: 5, eventDescripton: 'typo', dates: 'x', price: '25' })),
    },
    {
      app: 'main',
      method: 'post',
      path: CREATE,
      status: 400,
      what: 'malformed JSON',
      send: (t) => post(t, '{"name": "Pirates",'),
    },
    {
      app: 'main',
      method: 'post',
      path: CREATE,
      status: 400,
      what: 'a JSON array, not an object',
      send: (t) => post(t, '[1, 2]'),
    },
    {
      app: 'main',
      method: 'post',
      path: CREATE,
      status: 401,
      what: 'no credentials',
      send: (t) =>
        send(t, 'post', CREATE, { headers: { 'Content-Type': JSON_TYPE }, body: JSON.stringify(newEvent()) }),
    },
    {
      app: 'main',
      method: 'post',
      path: CREATE,
      status: 401,
      what: 'a wrong password',
      send: (t) => post(t, JSON.stringify(newEvent()), { Authorization: WRONG_AUTH }),
    },
    {
      app: 'main',
      method: 'post',
      path: CREATE,
      status: 409,
      what: 'an eventId that exists',
      send: async (t) => post(t, JSON.stringify(newEvent(await created(t)))),
    },
    {
      app: 'main',
      method: 'post',
      path: CREATE,
      status: 201,
      what: 'a replay of an idempotent create (Idempotent-Replayed)',
      send: async (t) => {
        const body = JSON.stringify(newEvent());
        const key = randomUUID();
        expect((await post(t, body, { 'Idempotency-Key': key })).status).toBe(201);
        return post(t, body, { 'Idempotency-Key': key });
      },
    },
    {
      app: 'main',
      method: 'post',
      path: CREATE,
      status: 403,
      what: 'a viewer',
      send: async (t) => post(t, JSON.stringify(newEvent()), { Authorization: await viewer(t) }),
    },
    {
      app: 'main',
      method: 'post',
      path: CREATE,
      status: 422,
      what: 'an Idempotency-Key used for another body',
      send: async (t) => {
        const key = randomUUID();
        expect((await post(t, JSON.stringify(newEvent()), { 'Idempotency-Key': key })).status).toBe(201);
        return post(t, JSON.stringify(newEvent()), { 'Idempotency-Key': key });
      },
    },
    {
      app: 'main',
      method: 'post',
      path: CREATE,
      status: 413,
      what: 'a body over 256 KiB',
      send: (t) => post(t, JSON.stringify({ ...newEvent(), eventDescription: 'x'.repeat(300 * 1024) })),
    },
    {
      app: 'main',
      method: 'post',
      path: CREATE,
      status: 415,
      what: 'text/plain',
      send: (t) => post(t, JSON.stringify(newEvent()), { 'Content-Type': 'text/plain' }),
    },
    {
      app: 'main',
      method: 'post',
      path: CREATE,
      status: 431,
      what: 'headers over 16 KiB',
      send: (t) => post(t, JSON.stringify(newEvent()), HUGE_HEADER),
    },
    {
      app: 'failure-limit-2',
      method: 'post',
      path: CREATE,
      status: 429,
      what: 'valid credentials after too many failures',
      send: async (t) => {
        await exhaustFailures(t);
        return post(t, JSON.stringify(newEvent()));
      },
    },
    {
      app: 'database-destroyed',
      method: 'post',
      path: CREATE,
      status: 503,
      what: 'the database gone',
      send: (t) => post(t, JSON.stringify(newEvent())),
    },

    // DELETE /special-events/{eventId}
    {
      app: 'main',
      method: 'delete',
      path: ITEM,
      status: 204,
      what: 'an existing event, with the test cookie',
      send: async (t) => del(t, await created(t), { Cookie: 'test=anything' }),
    },
    {
      app: 'main',
      method: 'delete',
      path: ITEM,
      status: 204,
      what: 'an existing event in upper case',
      send: async (t) => del(t, (await created(t)).toUpperCase()),
    },
    { app: 'main', method: 'delete', path: ITEM, status: 400, what: 'not a UUID', send: (t) => del(t, 'not-a-uuid') },
    {
      app: 'main',
      method: 'delete',
      path: ITEM,
      status: 401,
      what: 'no credentials',
      send: (t) => send(t, 'delete', `/special-events/${randomUUID()}`),
    },
    {
      app: 'main',
      method: 'delete',
      path: ITEM,
      status: 403,
      what: 'a viewer',
      send: async (t) => del(t, await created(t), { Authorization: await viewer(t) }),
    },
    {
      app: 'main',
      method: 'delete',
      path: ITEM,
      status: 404,
      what: 'no such event',
      send: (t) => del(t, randomUUID()),
    },
    {
      app: 'main',
      method: 'delete',
      path: ITEM,
      status: 412,
      what: 'a stale If-Match',
      send: async (t) => del(t, await created(t), { 'If-Match': '"stale"' }),
    },
    {
      app: 'main',
      method: 'delete',
      path: ITEM,
      status: 404,
      what: 'an event already deleted',
      send: async (t) => {
        const eventId = await created(t);
        expect((await del(t, eventId)).status).toBe(204);
        return del(t, eventId);
      },
    },
    {
      app: 'main',
      method: 'delete',
      path: ITEM,
      status: 431,
      what: 'headers over 16 KiB',
      send: (t) => del(t, randomUUID(), HUGE_HEADER),
    },
    {
      app: 'failure-limit-2',
      method: 'delete',
      path: ITEM,
      status: 429,
      what: 'valid credentials after too many failures',
      send: async (t) => {
        await exhaustFailures(t);
        return del(t, randomUUID());
      },
    },
    {
      app: 'database-destroyed',
      method: 'delete',
      path: ITEM,
      status: 503,
      what: 'the database gone',
      send: (t) => del(t, randomUUID()),
    },

    // GET /special-events
    {
      app: 'main',
      method: 'get',
      path: CREATE,
      status: 200,
      what: 'a page with a next one (Link)',
      send: async (t) => {
        await created(t);
        await created(t);
        return list(t, '?limit=1');
      },
    },
    {
      app: 'main',
      method: 'get',
      path: CREATE,
      status: 200,
      what: 'a date range, the last page (no Link)',
      send: (t) => list(t, '?startDate=2023-09-01&endDate=2023-09-30&limit=100'),
    },
    {
      app: 'main',
      method: 'get',
      path: CREATE,
      status: 400,
      what: 'invalid parameters',
      send: (t) => list(t, '?limit=0&startDate=2023-02-30&sort=name'),
    },
    {
      app: 'main',
      method: 'get',
      path: CREATE,
      status: 401,
      what: 'no credentials',
      send: (t) => send(t, 'get', CREATE),
    },
    {
      app: 'main',
      method: 'get',
      path: CREATE,
      status: 431,
      what: 'headers over 16 KiB',
      send: (t) => list(t, '', HUGE_HEADER),
    },
    {
      app: 'failure-limit-2',
      method: 'get',
      path: CREATE,
      status: 429,
      what: 'valid credentials after too many failures',
      send: async (t) => {
        await exhaustFailures(t);
        return list(t, '');
      },
    },
    {
      app: 'database-destroyed',
      method: 'get',
      path: CREATE,
      status: 503,
      what: 'the database gone',
      send: (t) => list(t, '?startDate=2023-09-01'),
    },

    // GET /special-events/{eventId}
    {
      app: 'main',
      method: 'get',
      path: ITEM,
      status: 200,
      what: 'an event',
      send: async (t) => getItem(t, await created(t)),
    },
    {
      app: 'main',
      method: 'get',
      path: ITEM,
      status: 304,
      what: 'If-None-Match with the current ETag',
      send: async (t) => {
        const eventId = await created(t);
        const etag = (await getItem(t, eventId)).headers.get('etag') ?? '';
        return getItem(t, eventId, { 'If-None-Match': etag });
      },
    },
    { app: 'main', method: 'get', path: ITEM, status: 400, what: 'not a UUID', send: (t) => getItem(t, 'not-a-uuid') },
    {
      app: 'main',
      method: 'get',
      path: ITEM,
      status: 401,
      what: 'no credentials',
      send: (t) => send(t, 'get', `/special-events/${randomUUID()}`),
    },
    {
      app: 'main',
      method: 'get',
      path: ITEM,
      status: 404,
      what: 'no such event',
      send: (t) => getItem(t, randomUUID()),
    },
    {
      app: 'main',
      method: 'get',
      path: ITEM,
      status: 431,
      what: 'headers over 16 KiB',
      send: (t) => getItem(t, randomUUID(), HUGE_HEADER),
    },
    {
      app: 'failure-limit-2',
      method: 'get',
      path: ITEM,
      status: 429,
      what: 'valid credentials after too many failures',
      send: async (t) => {
        await exhaustFailures(t);
        return getItem(t, randomUUID());
      },
    },
    {
      app: 'database-destroyed',
      method: 'get',
      path: ITEM,
      status: 503,
      what: 'the database gone',
      send: (t) => getItem(t, randomUUID()),
    },

    // GET /special-events/{eventId}/availability
    {
      app: 'main',
      method: 'get',
      path: AVAILABILITY,
      status: 200,
      what: "an event's dates and seats",
      send: async (t) => getItem(t, `${await created(t)}/availability`),
    },
    {
      app: 'main',
      method: 'get',
      path: AVAILABILITY,
      status: 400,
      what: 'not a UUID',
      send: (t) => getItem(t, 'not-a-uuid/availability'),
    },
    {
      app: 'main',
      method: 'get',
      path: AVAILABILITY,
      status: 401,
      what: 'no credentials',
      send: (t) => send(t, 'get', `/special-events/${randomUUID()}/availability`),
    },
    {
      app: 'main',
      method: 'get',
      path: AVAILABILITY,
      status: 404,
      what: 'no such event',
      send: (t) => getItem(t, `${randomUUID()}/availability`),
    },
    {
      app: 'main',
      method: 'get',
      path: AVAILABILITY,
      status: 431,
      what: 'headers over 16 KiB',
      send: (t) => getItem(t, `${randomUUID()}/availability`, HUGE_HEADER),
    },
    {
      app: 'failure-limit-2',
      method: 'get',
      path: AVAILABILITY,
      status: 429,
      what: 'valid credentials after too many failures',
      send: async (t) => {
        await exhaustFailures(t);
        return getItem(t, `${randomUUID()}/availability`);
      },
    },
    {
      app: 'database-destroyed',
      method: 'get',
      path: AVAILABILITY,
      status: 503,
      what: 'the database gone',
      send: (t) => getItem(t, `${randomUUID()}/availability`),
    },

    // PATCH /special-events/{eventId}
    {
      app: 'main',
      method: 'patch',
      path: ITEM,
      status: 200,
      what: 'a replay of an idempotent update (Idempotent-Replayed)',
      send: async (t) => {
        const eventId = await created(t);
        const key = randomUUID();
        expect((await patch(t, eventId, '{"price":5}', { 'Idempotency-Key': key })).status).toBe(200);
        return patch(t, eventId, '{"price":5}', { 'Idempotency-Key': key });
      },
    },
    {
      app: 'main',
      method: 'patch',
      path: ITEM,
      status: 403,
      what: 'a viewer',
      send: async (t) => patch(t, await created(t), '{"price":5}', { Authorization: await viewer(t) }),
    },
    {
      app: 'main',
      method: 'patch',
      path: ITEM,
      status: 409,
      what: 'the same update while another request with its Idempotency-Key is in flight',
      send: async (t) => {
        const eventId = await created(t);
        const done = randomUUID();
        expect((await patch(t, eventId, '{"price":6}', { 'Idempotency-Key': done })).status).toBe(200);
        // The kept request's fingerprint, under a second key whose request has not finished yet.
        const dataSource = t.app.get(DataSource);
        const [{ fingerprint }] = (await dataSource.query(
          'SELECT fingerprint FROM idempotency_keys WHERE idempotency_key = ?',
          [done],
        )) as { fingerprint: string }[];
        const inFlight = randomUUID();
        await dataSource.query(
          'INSERT INTO idempotency_keys (username, idempotency_key, fingerprint, claim, expires_at) VALUES (?, ?, ?, ?, ?)',
          [TEST_USER, inFlight, fingerprint, 'still-running', Date.now() + 60_000],
        );
        return patch(t, eventId, '{"price":6}', { 'Idempotency-Key': inFlight });
      },
    },
    {
      app: 'main',
      method: 'patch',
      path: ITEM,
      status: 422,
      what: 'an Idempotency-Key used for another update',
      send: async (t) => {
        const eventId = await created(t);
        const key = randomUUID();
        expect((await patch(t, eventId, '{"price":7}', { 'Idempotency-Key': key })).status).toBe(200);
        return patch(t, eventId, '{"price":8}', { 'Idempotency-Key': key });
      },
    },
    {
      app: 'main',
      method: 'patch',
      path: ITEM,
      status: 200,
      what: 'a merge patch with the current If-Match',
      send: async (t) => {
        const eventId = await created(t);
        const etag = (await getItem(t, eventId)).headers.get('etag') ?? '';
        return patch(t, eventId, '{"name":"Renamed","price":0.1}', { 'If-Match': etag });
      },
    },
    {
      app: 'main',
      method: 'patch',
      path: ITEM,
      status: 200,
      what: 'application/json, no If-Match',
      send: async (t) => patch(t, await created(t), '{"dates":[]}', { 'Content-Type': JSON_TYPE }),
    },
    {
      app: 'main',
      method: 'patch',
      path: ITEM,
      status: 400,
      what: 'null for a required field and an unknown property',
      send: async (t) => patch(t, await created(t), '{"name":null,"eventDescripton":"typo"}'),
    },
    {
      app: 'main',
      method: 'patch',
      path: ITEM,
      status: 400,
      what: 'an empty patch',
      send: async (t) => patch(t, await created(t), '{}'),
    },
    {
      app: 'main',
      method: 'patch',
      path: ITEM,
      status: 401,
      what: 'no credentials',
      send: (t) =>
        send(t, 'patch', `/special-events/${randomUUID()}`, {
          headers: { 'Content-Type': 'application/merge-patch+json' },
          body: '{"name":"x"}',
        }),
    },
    {
      app: 'main',
      method: 'patch',
      path: ITEM,
      status: 404,
      what: 'no such event',
      send: (t) => patch(t, randomUUID(), '{"name":"x"}'),
    },
    {
      app: 'main',
      method: 'patch',
      path: ITEM,
      status: 412,
      what: 'a stale If-Match',
      send: async (t) => patch(t, await created(t), '{"name":"x"}', { 'If-Match': '"stale"' }),
    },
    {
      app: 'main',
      method: 'patch',
      path: ITEM,
      status: 413,
      what: 'a body over 256 KiB',
      send: async (t) => patch(t, await created(t), JSON.stringify({ eventDescription: 'x'.repeat(300 * 1024) })),
    },
    {
      app: 'main',
      method: 'patch',
      path: ITEM,
      status: 415,
      what: 'text/plain',
      send: async (t) => patch(t, await created(t), '{"name":"x"}', { 'Content-Type': 'text/plain' }),
    },
    {
      app: 'main',
      method: 'patch',
      path: ITEM,
      status: 431,
      what: 'headers over 16 KiB',
      send: (t) => patch(t, randomUUID(), '{"name":"x"}', HUGE_HEADER),
    },
    {
      app: 'failure-limit-2',
      method: 'patch',
      path: ITEM,
      status: 429,
      what: 'valid credentials after too many failures',
      send: async (t) => {
        await exhaustFailures(t);
        return patch(t, randomUUID(), '{"name":"x"}');
      },
    },
    {
      app: 'database-destroyed',
      method: 'patch',
      path: ITEM,
      status: 503,
      what: 'the database gone',
      send: (t) => patch(t, randomUUID(), '{"name":"x"}'),
    },
  ],
  complete: [
    [CREATE, 'post'],
    [CREATE, 'get'],
    [ITEM, 'get'],
    [ITEM, 'patch'],
    [ITEM, 'delete'],
  ],
  documentChecks: {
    'list, get and update carry the Museum API operation ids and parameters, and this service additions': ({ doc }) => {
      expect(doc.paths[CREATE].get.operationId).toBe('listSpecialEvents');
      expect(doc.paths[ITEM].get.operationId).toBe('getSpecialEvent');
      expect(doc.paths[ITEM].patch.operationId).toBe('updateSpecialEvent');
      const parameters = (operation: Operation) =>
        Object.fromEntries((operation.parameters ?? []).map((p) => [`${p.in as string} ${p.name as string}`, p]));
      const listed = parameters(doc.paths[CREATE].get);
      expect(Object.keys(listed).sort()).toEqual(
        ['query cursor', 'query endDate', 'query limit', 'query page', 'query startDate'].sort(),
      );
      expect(listed['query startDate']).toMatchObject({
        required: false,
        schema: { type: 'string', format: 'date' },
      });
      expect(listed['query limit']).toMatchObject({
        required: false,
        schema: { minimum: 1, maximum: 100, default: 10 },
      });
      expect(Object.keys(parameters(doc.paths[ITEM].get))).toEqual(
        expect.arrayContaining(['path eventId', 'header If-None-Match']),
      );
      expect(Object.keys(parameters(doc.paths[ITEM].patch))).toEqual(
        expect.arrayContaining(['path eventId', 'header If-Match']),
      );
      const body = (doc.paths[ITEM].patch as unknown as { requestBody: { content: Json } }).requestBody.content;
      expect(Object.keys(body).sort()).toEqual(['application/json', 'application/merge-patch+json']);
      expect(doc.paths[CREATE].get.responses['200'].headers?.Link).toMatchObject({ required: false });
      expect(doc.paths[ITEM].get.responses['200'].headers?.ETag).toMatchObject({ required: true });
    },
    'DELETE documents the optional `test` cookie': ({ doc }) => {
      const cookie = doc.paths[ITEM].delete.parameters?.find((p) => p.in === 'cookie');
      expect(cookie).toMatchObject({ name: 'test', in: 'cookie', required: false, schema: { type: 'string' } });
    },
  },
};

export default contract;
