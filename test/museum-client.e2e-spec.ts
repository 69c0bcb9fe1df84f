import { Ajv, type AnySchema } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { parse } from 'yaml';
import type { components, paths } from '../.test-build/museum-api/schema.js';
import { basicHeader, TEST_PASSWORD, TEST_USER, useTestApp } from './helpers/test-app.js';
import { DataSource } from 'typeorm';
import { decodeQr } from './helpers/tickets.js';

/**
 * A client generated from the Redocly Museum API (`test/fixtures/museum-api/museum-openapi.yaml`, a
 * copy under its MIT licence) works against this service unchanged.
 * `npm run museum-client:generate` writes openapi-typescript's types into the gitignored
 * .test-build/museum-api/ (`npm run typecheck` and `npm run lint` run it first, so the calls below
 * are type-checked against the Museum API's own types); openapi-fetch sends the requests, and the
 * only code added to it is a middleware that adds the Basic credentials, as the issue asks.
 *
 * Every successful body is also validated at run time against the Museum API's schema (Ajv), so
 * a shape the generated types would mistype fails here rather than in a frontend.
 */

const ROOT = resolve(import.meta.dirname, '..');
const MUSEUM_API = resolve(ROOT, 'test/fixtures/museum-api/museum-openapi.yaml');

type MuseumEvent = components['schemas']['SpecialEvent'];

interface MuseumDocument {
  readonly components: { readonly schemas: Record<string, unknown> };
}

const addFormats = addFormatsModule.default;
const museumDocument = parse(readFileSync(MUSEUM_API, 'utf8')) as MuseumDocument;
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
// OpenAPI's numeric formats, which JSON Schema does not define (the Museum API's price is `float`).
for (const format of ['int32', 'int64', 'float', 'double']) ajv.addFormat(format, true);

/** What is wrong with `value` as the Museum API's schema `name` (empty: nothing). */
function museumSchemaProblems(name: string, value: unknown): string[] {
  const validate = ajv.compile({
    $ref: `#/components/schemas/${name}`,
    components: museumDocument.components,
  } as AnySchema);
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}

/** The credentials, added to every request by openapi-fetch's middleware: the client is otherwise as generated. */
function basicCredentials(username: string, password: string): Middleware {
  const authorization = basicHeader(username, password);
  return {
    onRequest({ request }) {
      request.headers.set('Authorization', authorization);
      return request;
    },
  };
}

function museumClient(baseUrl: string, password = TEST_PASSWORD): Client<paths> {
  const client = createClient<paths>({ baseUrl });
  client.use(basicCredentials(TEST_USER, password));
  return client;
}

const t = useTestApp();
let museum: Client<paths>;

beforeAll(() => {
  museum = museumClient(t.baseUrl);
});

/**
 * The Museum API's own create example, with dates of a year no other test of this file uses, so
 * that a date-range list finds exactly the events of one test.
 */
function museumEvent(year: number, overrides: Partial<MuseumEvent> = {}): MuseumEvent {
  return {
    name: 'Mermaid Treasure Identification and Analysis',
    location: 'Under the seaaa 🦀 🎶 🌊.',
    eventDescription:
      'Join us as we review and classify a rare collection of 20 thingamabobs, gadgets, gizmos, whoosits, and whatsits, kindly donated by Ariel.',
    dates: [`${year}-09-05`, `${year}-09-08`],
    price: 0,
    ...overrides,
  };
}

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

  it('reads the museum hours (getMuseumHours): MuseumHours, closed days left out, paged by page and limit', async () => {
    // The week is set through this service's own write side, which the Museum API does not have.
    const week = await fetch(`${t.baseUrl}/museum-hours/weekly`, {
      method: 'PUT',
      headers: { Authorization: basicHeader(TEST_USER, TEST_PASSWORD), 'Content-Type': 'application/json' },
      body: JSON.stringify({
        monday: { timeOpen: '09:00', timeClose: '18:00' },
        tuesday: { timeOpen: '09:00', timeClose: '18:00' },
        wednesday: { timeOpen: '09:00', timeClose: '18:00' },
        thursday: { timeOpen: '09:00', timeClose: '18:00' },
        friday: { timeOpen: '09:00', timeClose: '18:00', capacity: 200 },
        saturday: null,
        sunday: null,
      }),
    });
    expect(week.status).toBe(200);
    // 2023-09-11 is a Monday, as in the Museum API's example.
    const { data, error, response } = await museum.GET('/museum-hours', {
      params: { query: { startDate: '2023-09-11', limit: 6 } },
    });
    expectTypeOf(data).toEqualTypeOf<components['schemas']['MuseumHours'] | undefined>();
    expect({ status: response.status, error }).toStrictEqual({ status: 200, error: undefined });
    expect(museumSchemaProblems('MuseumHours', data)).toStrictEqual([]);
    expect(data?.map((day) => day.date)).toStrictEqual([
      '2023-09-11',
      '2023-09-12',
      '2023-09-13',
      '2023-09-14',
      '2023-09-15',
      '2023-09-18',
    ]);
    expect(data?.[0]).toStrictEqual({ date: '2023-09-11', timeOpen: '09:00', timeClose: '18:00' });
    const second = await museum.GET('/museum-hours', {
      params: { query: { startDate: '2023-09-11', page: 2, limit: 3 } },
    });
    expect(second.data?.map((day) => day.date)).toStrictEqual(['2023-09-14', '2023-09-15', '2023-09-18']);
    const bad = await museum.GET('/museum-hours', { params: { query: { startDate: '2023-09-11', limit: 31 } } });
    expect(bad.response.status).toBe(400);
    expect(museumSchemaProblems('Error', bad.error)).toStrictEqual([]);
  });

  it('buys both kinds of ticket (buyMuseumTickets) and fetches a QR code (getTicketCode) that holds the confirmation code', async () => {
    // A week and eight days ahead (the museum's time zone is UTC here): dates no run reaches, within any horizon.
    const day = (ahead: number): string => new Date(Date.now() + ahead * 86_400_000).toISOString().slice(0, 10);
    const [eventDay, openDay] = [day(7), day(8)];
    const event = await create(museumEvent(2099, { dates: [eventDay] }));
    // The opening hours are this service's addition (the Museum API has no write side): set with plain fetch.
    const opened = await fetch(`${t.baseUrl}/museum-hours/${openDay}`, {
      method: 'PUT',
      headers: { Authorization: basicHeader(TEST_USER, TEST_PASSWORD), 'Content-Type': 'application/json' },
      body: JSON.stringify({ timeOpen: '09:00', timeClose: '18:00' }),
    });
    expect(opened.status).toBe(200);

    const general = await museum.POST('/tickets', {
      body: { ticketType: 'general', ticketDate: openDay, email: 'todd@example.com' },
    });
    expect({ status: general.response.status, error: general.error }).toStrictEqual({ status: 201, error: undefined });
    expect(museumSchemaProblems('MuseumTicketsConfirmation', general.data)).toStrictEqual([]);
    expect(general.data).toStrictEqual({
      message: 'Museum general entry ticket purchased',
      ticketId: expect.any(String) as unknown,
      ticketType: 'general',
      ticketDate: openDay,
      confirmationCode: expect.stringMatching(/^ticket-/) as unknown,
    });

    const special = await museum.POST('/tickets', {
      body: { ticketType: 'event', eventId: event.eventId, ticketDate: eventDay, email: 'todd@example.com' },
    });
    expect({ status: special.response.status, error: special.error }).toStrictEqual({ status: 201, error: undefined });
    expect(museumSchemaProblems('MuseumTicketsConfirmation', special.data)).toStrictEqual([]);
    expect(special.data).toMatchObject({
      message: 'Museum special event ticket purchased',
      ticketType: 'event',
      ticketDate: eventDay,
      eventId: event.eventId,
    });

    for (const bought of [general.data, special.data]) {
      const code = await museum.GET('/tickets/{ticketId}/qr', {
        params: { path: { ticketId: bought?.ticketId as string } },
        parseAs: 'arrayBuffer',
      });
      expect(code.response.status).toBe(200);
      expect(code.response.headers.get('content-type')).toBe('image/png');
      expect(decodeQr(Buffer.from(code.data as ArrayBuffer))).toBe(bought?.confirmationCode);
    }

    const missing = await museum.GET('/tickets/{ticketId}/qr', {
      params: { path: { ticketId: '0196a8f4-6e2b-7c3d-9e4f-5a6b7c8d9e0f' } },
    });
    expect(missing.response.status).toBe(404);
    expect(museumSchemaProblems('Error', missing.error)).toStrictEqual([]);
  });

  it('credentials come only from the middleware: with a wrong password every operation is a 401', async () => {
    const intruder = museumClient(t.baseUrl, 'not the password');
    const eventDay = new Date(Date.now() + 9 * 86_400_000).toISOString().slice(0, 10);
    const eventId = (await create(museumEvent(2046, { dates: [eventDay] }))).eventId;
    const bought = await museum.POST('/tickets', { body: { ticketType: 'event', eventId, ticketDate: eventDay } });
    expect(bought.response.status).toBe(201);
    const ticketId = bought.data?.ticketId as string;
    const statuses = [
      (await intruder.GET('/special-events')).response.status,
      (await intruder.GET('/special-events/{eventId}', { params: { path: { eventId } } })).response.status,
      (await intruder.PATCH('/special-events/{eventId}', { params: { path: { eventId } }, body: { price: 1 } }))
        .response.status,
      (await intruder.DELETE('/special-events/{eventId}', { params: { path: { eventId } } })).response.status,
      (await intruder.GET('/museum-hours')).response.status,
      (await intruder.POST('/tickets', { body: { ticketType: 'event', eventId, ticketDate: eventDay } })).response
        .status,
      (await intruder.GET('/tickets/{ticketId}/qr', { params: { path: { ticketId } }, parseAs: 'arrayBuffer' }))
        .response.status,
    ];
    expect(statuses).toStrictEqual([401, 401, 401, 401, 401, 401, 401]);
    const unchanged = await museum.GET('/special-events/{eventId}', { params: { path: { eventId } } });
    expect(unchanged.data?.price).toBe(0);
    // The intruder's purchase sold nothing: only the one ticket bought with the right password.
    const sold = (await t.app
      .get(DataSource)
      .query('SELECT COUNT(*) AS n FROM tickets WHERE event_id = ?', [eventId])) as { n: unknown }[];
    expect(Number(sold[0].n)).toBe(1);
  });
});
