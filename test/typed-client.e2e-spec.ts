import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';
import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  basicAuthorization,
  createMuseumClient,
  type MuseumClient,
  type NewSpecialEvent,
  type Problem,
  type SpecialEvent,
  type SpecialEventPatch,
} from '../client/index.js';
import { CHALLENGE } from './helpers/problem-assertions.js';
import { basicHeader, TEST_USER } from './helpers/test-app.js';
import { TYPED_CLIENT_PASSWORD, useTypedClient } from './helpers/typed-client.js';

/**
 * The typed client a frontend team uses (issue 6, item 2): client/schema.d.ts is what
 * openapi-typescript generates from the document the service serves now (a stale client fails
 * here: run `npm run client:generate`), and createMuseumClient drives every operation: the special events'
 * here, each feature's in its folder (test/<feature>/typed-client.e2e-spec.ts).
 */

const ROOT = resolve(import.meta.dirname, '..');
/** Non-ASCII and a colon: the client must send the credentials UTF-8 encoded (RFC 7617). */
const PASSWORD = TYPED_CLIENT_PASSWORD;

const { t, client } = useTypedClient();
let museum: MuseumClient;

beforeAll(() => {
  museum = client.museum;
});

const newEvent = (): NewSpecialEvent & { eventId: string } => ({
  eventId: randomUUID(),
  name: 'Pirates of the Permanent Collection',
  location: 'Hall 2 · الطابق الأول',
  eventDescription: 'Treasure maps, explained.',
  dates: ['2026-09-05', '2026-09-08'],
  price: 19.99,
});

describe('client/schema.d.ts', () => {
  it('is exactly what openapi-typescript generates from the served document (run `npm run client:generate`)', async () => {
    const document = (await (await fetch(`${t.baseUrl}/openapi.json`)).json()) as OpenAPI3;
    const generated = COMMENT_HEADER + astToString(await openapiTS(document, { silent: true }));
    const committed = readFileSync(resolve(ROOT, 'client/schema.d.ts'), 'utf8');
    expect(committed, 'client/schema.d.ts is stale: run `npm run client:generate`').toBe(generated);
  });
});

describe('createMuseumClient', () => {
  it('sends Basic credentials as UTF-8 (RFC 7617)', () => {
    expect(basicAuthorization({ username: TEST_USER, password: PASSWORD })).toBe(basicHeader(TEST_USER, PASSWORD));
    expect(() => basicAuthorization({ username: 'a:b', password: 'x' })).toThrow(TypeError);
  });

  it('creates an event: 201, the stored event typed, Location; then deletes it: 204', async () => {
    const event = newEvent();
    const created = await museum.POST('/special-events', { body: event });
    expectTypeOf(created.data).toEqualTypeOf<SpecialEvent | undefined>();
    expect(created.response.status).toBe(201);
    expect(created.error).toBeUndefined();
    expect(created.data).toStrictEqual(event);
    expect(created.response.headers.get('location')).toBe(`/special-events/${event.eventId}`);

    const deleted = await museum.DELETE('/special-events/{eventId}', { params: { path: { eventId: event.eventId } } });
    expect(deleted.response.status).toBe(204);
    expect(deleted.data).toBeUndefined();
    expect(deleted.error).toBeUndefined();

    const again = await museum.DELETE('/special-events/{eventId}', { params: { path: { eventId: event.eventId } } });
    expect(again.response.status).toBe(404);
    expect(again.error).toMatchObject({ status: 404, title: 'Not Found' });
  });

  it('a generated eventId comes back typed (eventId absent)', async () => {
    const { eventId: _omitted, ...withoutId } = newEvent();
    const { data, response } = await museum.POST('/special-events', { body: withoutId });
    expect(response.status).toBe(201);
    expect(data).toStrictEqual({
      ...withoutId,
      eventId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/) as unknown,
    });
  });

  it('a wrong password: the typed 401 problem and the Basic challenge', async () => {
    const intruder = createMuseumClient(t.baseUrl, { username: TEST_USER, password: 'not the password' });
    const { data, error, response } = await intruder.DELETE('/special-events/{eventId}', {
      params: { path: { eventId: randomUUID() } },
    });
    expectTypeOf(error).toEqualTypeOf<Problem | undefined>();
    expect(data).toBeUndefined();
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(CHALLENGE);
    expect(error).toStrictEqual({
      type: 'about:blank',
      title: 'Unauthorized',
      status: 401,
      detail: expect.any(String) as unknown,
      instance: expect.stringMatching(/^\/special-events\//) as unknown,
    });
  });

  it('a duplicate eventId: the typed 409 problem', async () => {
    const event = newEvent();
    expect((await museum.POST('/special-events', { body: event })).response.status).toBe(201);
    const { data, error, response } = await museum.POST('/special-events', {
      body: { ...event, name: 'Another name' },
    });
    expectTypeOf(error).toEqualTypeOf<Problem | undefined>();
    expect(data).toBeUndefined();
    expect(response.status).toBe(409);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(error).toStrictEqual({
      type: 'about:blank',
      title: 'Conflict',
      status: 409,
      detail: expect.any(String) as unknown,
      instance: '/special-events',
    });
    const deleted = await museum.DELETE('/special-events/{eventId}', { params: { path: { eventId: event.eventId } } });
    expect(deleted.response.status).toBe(204);
  });

  it('an invalid body: the typed 400 problem names the failing fields', async () => {
    const { error, response } = await museum.POST('/special-events', {
      body: { ...newEvent(), name: ' ', dates: [''] },
    });
    expect(response.status).toBe(400);
    expect(error?.errors?.map((e) => e.field).sort()).toEqual(['dates', 'name']);
  });

  it('lists, gets and updates: typed events, the Link header, ETag and If-Match', async () => {
    const event = { ...newEvent(), dates: ['2031-07-01'] };
    expect((await museum.POST('/special-events', { body: event })).response.status).toBe(201);
    const listed = await museum.GET('/special-events', {
      params: { query: { startDate: '2031-07-01', endDate: '2031-07-01', limit: 5 } },
    });
    expectTypeOf(listed.data).toEqualTypeOf<SpecialEvent[] | undefined>();
    expect(listed.data).toStrictEqual([event]);
    expect(listed.response.headers.get('link')).toBeNull();

    const got = await museum.GET('/special-events/{eventId}', { params: { path: { eventId: event.eventId } } });
    expect(got.data).toStrictEqual(event);
    const etag = got.response.headers.get('etag') ?? '';

    const change: SpecialEventPatch = { name: 'Renamed', price: 0.1 };
    const updated = await museum.PATCH('/special-events/{eventId}', {
      params: { path: { eventId: event.eventId }, header: { 'If-Match': etag } },
      body: change,
    });
    expect(updated.data).toStrictEqual({ ...event, ...change });
    const stale = await museum.PATCH('/special-events/{eventId}', {
      params: { path: { eventId: event.eventId }, header: { 'If-Match': etag } },
      body: { name: 'Lost' },
    });
    expect(stale.response.status).toBe(412);
    expect(stale.error).toMatchObject({ status: 412, title: 'Precondition Failed' });
  });
});
