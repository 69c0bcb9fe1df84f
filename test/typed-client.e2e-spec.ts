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
  type Ticket,
  type TicketConfirmation,
  type CreatedWebhookSubscription,
  type WebhookSubscription,
  type MuseumDailyHours,
  type WeeklyHours,
  type StoredHoursException,
} from '../client/index.js';
import { CHALLENGE } from './helpers/problem-assertions.js';
import { basicHeader, TEST_USER, useTestApp } from './helpers/test-app.js';
import { decodeQr } from './helpers/tickets.js';

/**
 * The typed client a frontend team uses (issue 6, item 2): client/schema.d.ts is what
 * openapi-typescript generates from the document the service serves now (a stale client fails
 * here: run `npm run client:generate`), and createMuseumClient drives every operation.
 */

const ROOT = resolve(import.meta.dirname, '..');
/** Non-ASCII and a colon: the client must send the credentials UTF-8 encoded (RFC 7617). */
const PASSWORD = 'Kraken: 🦀 ñandú — Ünïcødé 12';

const t = useTestApp({ ADMIN_PASSWORD: PASSWORD, WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
let museum: MuseumClient;

beforeAll(() => {
  museum = createMuseumClient(t.baseUrl, { username: TEST_USER, password: PASSWORD });
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

describe('createMuseumClient: webhook subscriptions (admin)', () => {
  it('subscribes, lists, enables and removes, typed; a refused URL is a typed 422 problem', async () => {
    const created = await museum.POST('/webhooks', {
      body: { url: 'http://127.0.0.1:9/hook', description: 'CMS cache' },
    });
    expectTypeOf(created.data).toEqualTypeOf<CreatedWebhookSubscription | undefined>();
    expect(created.response.status).toBe(201);
    const webhookId = created.data?.webhookId ?? '';
    expect(created.data?.secret).toMatch(/^whsec_/);

    const listed = await museum.GET('/webhooks');
    expectTypeOf(listed.data).toEqualTypeOf<WebhookSubscription[] | undefined>();
    expect(listed.data?.map((webhook) => webhook.webhookId)).toContain(webhookId);

    const enabled = await museum.POST('/webhooks/{webhookId}/enable', { params: { path: { webhookId } } });
    expect(enabled.data).toMatchObject({ webhookId, enabled: true });

    const removed = await museum.DELETE('/webhooks/{webhookId}', { params: { path: { webhookId } } });
    expect(removed.response.status).toBe(204);

    const refused = await museum.POST('/webhooks', { body: { url: 'https://169.254.169.254/' } });
    expect(refused.response.status).toBe(422);
    expectTypeOf(refused.error).toEqualTypeOf<Problem | undefined>();
    expect(refused.error).toMatchObject({ status: 422, type: 'urn:museum:problem:webhook-url-refused' });
  });

  it('buys an event ticket, reads it, fetches its QR code and checks it in by the scanned code: typed', async () => {
    // A month ahead: within the sales' horizon (366 days), and not today.
    const saleDate = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const event = { ...newEvent(), dates: [saleDate], capacity: 10 };
    expect((await museum.POST('/special-events', { body: event })).response.status).toBe(201);
    const bought = await museum.POST('/tickets', {
      body: { ticketType: 'event', eventId: event.eventId, ticketDate: saleDate, email: 'todd@example.com' },
    });
    expectTypeOf(bought.data).toEqualTypeOf<TicketConfirmation | undefined>();
    expect(bought.response.status).toBe(201);
    const ticketId = bought.data?.ticketId as string;
    expect(bought.response.headers.get('Location')).toBe(`/tickets/${ticketId}`);

    const read = await museum.GET('/tickets/{ticketId}', { params: { path: { ticketId } } });
    expectTypeOf(read.data).toEqualTypeOf<Ticket | undefined>();
    expect(read.data).toMatchObject({ ticketId, status: 'active', price: 19.99, email: 'todd@example.com' });

    const code = await museum.GET('/tickets/{ticketId}/qr', { params: { path: { ticketId } }, parseAs: 'arrayBuffer' });
    expect(code.response.headers.get('Content-Type')).toBe('image/png');
    const scanned = decodeQr(Buffer.from(code.data as ArrayBuffer));
    expect(scanned).toBe(bought.data?.confirmationCode);

    // 409: the ticket is for a month ahead, not today; the typed problem says why.
    const early = await museum.POST('/check-ins', { body: { code: scanned } });
    expect(early.response.status).toBe(409);
    expectTypeOf(early.error).toMatchTypeOf<Problem | undefined>();
    expect(early.error?.type).toBe('urn:museum:problem:ticket-not-for-today');
  });
});

describe('createMuseumClient: museum hours', () => {
  it('sets the week and a date, reads the hours typed; a bad time is a typed 400, a missing exception a 404', async () => {
    const week: WeeklyHours = {
      monday: { timeOpen: '09:00', timeClose: '18:00', capacity: 50 },
      tuesday: { timeOpen: '09:00', timeClose: '18:00' },
      wednesday: null,
      thursday: null,
      friday: null,
      saturday: null,
      sunday: null,
    };
    const set = await museum.PUT('/museum-hours/weekly', { body: week });
    expectTypeOf(set.data).toEqualTypeOf<WeeklyHours | undefined>();
    expect({ status: set.response.status, data: set.data }).toStrictEqual({ status: 200, data: week });

    // 2088-03-01 is a Monday; its exception closes it.
    const closed = await museum.PUT('/museum-hours/{date}', {
      params: { path: { date: '2088-03-01' } },
      body: { closed: true },
    });
    expectTypeOf(closed.data).toEqualTypeOf<StoredHoursException | undefined>();
    expect(closed.data).toStrictEqual({ date: '2088-03-01', closed: true });

    const hours = await museum.GET('/museum-hours', { params: { query: { startDate: '2088-03-01', limit: 2 } } });
    expectTypeOf(hours.data).toEqualTypeOf<MuseumDailyHours[] | undefined>();
    expect(hours.data).toStrictEqual([
      { date: '2088-03-02', timeOpen: '09:00', timeClose: '18:00' },
      { date: '2088-03-08', timeOpen: '09:00', timeClose: '18:00', ticketsAvailable: 50 },
    ]);

    const bad = await museum.PUT('/museum-hours/{date}', {
      params: { path: { date: '2088-03-02' } },
      body: { timeOpen: '18:00', timeClose: '09:00' },
    });
    expectTypeOf(bad.error).toEqualTypeOf<Problem | undefined>();
    expect(bad.error?.errors).toStrictEqual([
      { field: 'timeClose', message: 'timeClose must be after timeOpen (a day may not run past midnight)' },
    ]);

    const removed = await museum.DELETE('/museum-hours/{date}', { params: { path: { date: '2088-03-01' } } });
    expect(removed.response.status).toBe(204);
    const again = await museum.DELETE('/museum-hours/{date}', { params: { path: { date: '2088-03-01' } } });
    expect({ status: again.response.status, title: again.error?.title }).toStrictEqual({
      status: 404,
      title: 'Not Found',
    });
    const read = await museum.GET('/museum-hours/weekly');
    expect(read.data).toStrictEqual(week);
  });
});
