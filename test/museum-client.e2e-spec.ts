import { suiteDate, useMuseumClock } from './helpers/clock.js';
import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { components } from '../.test-build/museum-api/schema.js';
import { featureRows } from './helpers/feature-rows.js';
import {
  type MuseumClient,
  type MuseumClientKit,
  type MuseumClientRows,
  museumClient,
  type MuseumEvent,
  museumEvent,
  museumSchemaProblems,
} from './helpers/museum-client.js';
import { useTestApp } from './helpers/test-app.js';

/**
 * A client generated from the Redocly Museum API (`test/fixtures/museum-api/museum-openapi.yaml`, a
 * copy under its MIT licence) works against this service unchanged.
 * `npm run museum-client:generate` writes openapi-typescript's types into the gitignored
 * .test-build/museum-api/ (`npm run typecheck` and `npm run lint` run it first, so the calls below
 * are type-checked against the Museum API's own types); openapi-fetch sends the requests, and the
 * only code added to it is a middleware that adds the Basic credentials, as the issue asks
 * (test/helpers/museum-client.ts).
 *
 * Every successful body is also validated at run time against the Museum API's schema (Ajv), so
 * a shape the generated types would mistype fails here rather than in a frontend.
 *
 * The events' operations are tried here; the other features' (the hours, tickets) in their
 * folders' `museum-client-rows.ts`, run in this file's describe.
 */

const FEATURES = (await featureRows<MuseumClientRows>('museum-client-rows')).map(({ rows }) => rows);

const t = useTestApp();
useMuseumClock(t);
let museum: MuseumClient;

beforeAll(() => {
  museum = museumClient(t.baseUrl);
});

/** What the features' tests get (test/helpers/museum-client.ts). */
const kit: MuseumClientKit = {
  t,
  get museum() {
    return museum;
  },
  create,
};

async function create(event: MuseumEvent): Promise<MuseumEvent & { eventId: string }> {
  const { data, error, response } = await museum.POST('/special-events', { body: event });
  expect({ status: response.status, error }).toStrictEqual({ status: 201, error: undefined });
  expect(museumSchemaProblems('SpecialEvent', data)).toStrictEqual([]);
  expect(data).toStrictEqual({ ...event, eventId: expect.any(String) as unknown });
  return data as MuseumEvent & { eventId: string };
}

describe('a client generated from the Museum API (openapi-typescript + openapi-fetch)', () => {
  it('lists events in a date range (listSpecialEvents): a SpecialEventCollection, paged by page and limit', async () => {
    const first = await create(museumEvent(2041, { dates: ['2041-03-01'], name: 'First of 2041' }));
    const second = await create(museumEvent(2041, { dates: ['2041-03-02', '2041-12-31'], name: 'Second of 2041' }));
    const third = await create(museumEvent(2041, { dates: ['2041-03-03'], name: 'Third of 2041' }));
    await create(museumEvent(2042, { dates: ['2042-01-01'], name: 'Outside the range' }));

    const { data, error, response } = await museum.GET('/special-events', {
      params: { query: { startDate: '2041-01-01', endDate: '2041-12-31' } },
    });
    expectTypeOf(data).toEqualTypeOf<components['schemas']['SpecialEventCollection'] | undefined>();
    expect({ status: response.status, error }).toStrictEqual({ status: 200, error: undefined });
    expect(museumSchemaProblems('SpecialEventCollection', data)).toStrictEqual([]);
    // Ordered by first ISO date (README): the three of 2041, nothing of 2042.
    expect(data).toStrictEqual([first, second, third]);

    const pages = [];
    for (const page of [1, 2, 3]) {
      const paged = await museum.GET('/special-events', {
        params: { query: { startDate: '2041-01-01', endDate: '2041-12-31', page, limit: 2 } },
      });
      expect(paged.response.status).toBe(200);
      pages.push(paged.data);
    }
    expect(pages).toStrictEqual([[first, second], [third], []]);
  });

  it('gets an event (getSpecialEvent): 200 with the event; 404 once it is deleted', async () => {
    const created = await create(museumEvent(2043));
    const { data, error, response } = await museum.GET('/special-events/{eventId}', {
      params: { path: { eventId: created.eventId } },
    });
    expectTypeOf(data).toEqualTypeOf<MuseumEvent | undefined>();
    expect({ status: response.status, error }).toStrictEqual({ status: 200, error: undefined });
    expect(museumSchemaProblems('SpecialEvent', data)).toStrictEqual([]);
    expect(data).toStrictEqual(created);

    const deleted = await museum.DELETE('/special-events/{eventId}', {
      params: { path: { eventId: created.eventId } },
    });
    expect(deleted.response.status).toBe(204);
    const gone = await museum.GET('/special-events/{eventId}', { params: { path: { eventId: created.eventId } } });
    expect(gone.response.status).toBe(404);
    expect(gone.data).toBeUndefined();
    expect(gone.response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    // The Museum API's Error schema: `type` and `title` strings (ours adds the rest of RFC 9457).
    expect(museumSchemaProblems('Error', gone.error)).toStrictEqual([]);
    expect(gone.error).toMatchObject({ title: 'Not Found', status: 404 });
  });

  it('updates an event (updateSpecialEvent) with an application/json body of SpecialEventFields', async () => {
    const created = await create(museumEvent(2044));
    const fields: components['schemas']['SpecialEventFields'] = {
      name: 'Mermaid Treasure Identification and Analysis (sold out)',
      dates: ['2044-09-05', '2044-09-06', '2044-09-08'],
      price: 30.5,
    };
    const { data, error, response } = await museum.PATCH('/special-events/{eventId}', {
      params: { path: { eventId: created.eventId } },
      body: fields,
    });
    expectTypeOf(data).toEqualTypeOf<MuseumEvent | undefined>();
    expect({ status: response.status, error }).toStrictEqual({ status: 200, error: undefined });
    expect(museumSchemaProblems('SpecialEvent', data)).toStrictEqual([]);
    const updated = { ...created, ...fields };
    expect(data).toStrictEqual(updated);

    const read = await museum.GET('/special-events/{eventId}', { params: { path: { eventId: created.eventId } } });
    expect(read.data).toStrictEqual(updated);
    const listed = await museum.GET('/special-events', {
      params: { query: { startDate: '2044-09-06', endDate: '2044-09-06' } },
    });
    expect(listed.data).toStrictEqual([updated]);
  });

  it('the Museum API example update (price only) leaves the other fields as they were', async () => {
    const created = await create(museumEvent(2045, { price: 25 }));
    const { data, response } = await museum.PATCH('/special-events/{eventId}', {
      params: { path: { eventId: created.eventId } },
      body: { price: 35 },
    });
    expect(response.status).toBe(200);
    expect(data).toStrictEqual({ ...created, price: 35 });
  });

  it('a bad request is a problem the generated client reads as its Error: 400 for an eventId that is not a UUID', async () => {
    const { data, error, response } = await museum.GET('/special-events/{eventId}', {
      params: { path: { eventId: 'not-a-uuid' } },
    });
    expect(response.status).toBe(400);
    expect(data).toBeUndefined();
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(museumSchemaProblems('Error', error)).toStrictEqual([]);
    expect(error).toMatchObject({ title: 'Bad Request', status: 400 });
  });

  it.each(FEATURES.flatMap((rows) => rows.tests(kit)).map(({ title, run }) => [title, run] as const))(
    '%s',
    async (_title, run) => {
      expect.hasAssertions();
      await run();
    },
  );

  it('credentials come only from the middleware: with a wrong password every operation is a 401', async () => {
    const intruder = museumClient(t.baseUrl, 'not the password');
    const eventDay = suiteDate(9);
    const eventId = (await create(museumEvent(2046, { dates: [eventDay] }))).eventId;
    const statuses: (readonly [string, number])[] = [
      ['listSpecialEvents', (await intruder.GET('/special-events')).response.status],
      [
        'getSpecialEvent',
        (await intruder.GET('/special-events/{eventId}', { params: { path: { eventId } } })).response.status,
      ],
      [
        'updateSpecialEvent',
        (await intruder.PATCH('/special-events/{eventId}', { params: { path: { eventId } }, body: { price: 1 } }))
          .response.status,
      ],
      [
        'deleteSpecialEvent',
        (await intruder.DELETE('/special-events/{eventId}', { params: { path: { eventId } } })).response.status,
      ],
    ];
    // Each feature's operations (each checks that nothing of its changed).
    for (const rows of FEATURES) statuses.push(...(await rows.intruderStatuses(kit, intruder, { eventId, eventDay })));
    expect(statuses.length).toBeGreaterThan(4);
    expect(statuses).toStrictEqual(statuses.map(([operation]) => [operation, 401]));
    const unchanged = await museum.GET('/special-events/{eventId}', { params: { path: { eventId } } });
    expect(unchanged.data?.price).toBe(0);
  });
});
