import { STATUS_CODES } from 'node:http';
import { Ajv, type AnySchema } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { DataSource } from 'typeorm';
import { beforeAll, describe, expect, it } from 'vitest';
import { UsersService } from '../src/auth/users.service.js';
import { MuseumClock } from '../src/domain/museum-clock.js';
import { MuseumHoursService } from '../src/museum-hours/museum-hours.service.js';
import { AUTH, basicHeader, TEST_USER, useTestApp, type TestApp } from './helpers/test-app.js';
import { seedTicket, type SeededTicket } from './helpers/tickets.js';

/**
 * The OpenAPI document against the service (issue 6, item 1): the document lints clean with the
 * repository's redocly.yaml, and real responses of every documented operation (each status the
 * service produces, driven for real) are checked against it: the status is documented, the
 * media type is one documented for it (no body for 204), the body validates against the
 * documented schema (Ajv), and every documented header is sent and matches its schema. In the
 * other direction, every status documented for create and delete is produced by a case here.
 */

const addFormats = addFormatsModule.default;
const ROOT = resolve(import.meta.dirname, '..');
const run = promisify(execFile);

type Json = Record<string, unknown>;
interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json>; securitySchemes: Record<string, Json> };
  security?: Record<string, string[]>[];
}
interface Operation {
  operationId: string;
  parameters?: Json[];
  security?: Record<string, string[]>[];
  responses: Record<string, DocumentedResponse>;
}
interface DocumentedResponse {
  description: string;
  headers?: Record<string, { required?: boolean; schema: Json }>;
  content?: Record<string, { schema: Json; example?: Json }>;
}

/** A real HTTP exchange, as a client sees it. */
interface Exchange {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type AppKind = 'main' | 'failure-limit-2' | 'database-destroyed';

interface Case {
  readonly app: AppKind;
  readonly method: Method;
  /** The documented path (template). */
  readonly path: string;
  readonly status: number;
  readonly what: string;
  /** Sends the request (and any it needs first) and returns the response to check. */
  readonly send: (t: TestApp) => Promise<Exchange>;
}

const JSON_TYPE = 'application/json';
const byNumber = (a: number, b: number): number => a - b;
const CREATE = '/special-events';
const ITEM = '/special-events/{eventId}';
const CALENDAR = '/special-events.ics';
const TOKEN_FEED = '/calendar/{token}.ics';
const TOKENS = '/calendar-tokens';
const TOKEN_ITEM = '/calendar-tokens/{tokenId}';
const TICKETS = '/tickets';
const TICKET = '/tickets/{ticketId}';
const TICKET_QR = '/tickets/{ticketId}/qr';
const TICKET_CHECK_IN = '/tickets/{ticketId}/check-in';
const CHECK_INS = '/check-ins';
/** A well-formed token that was never issued. */
const UNKNOWN_TOKEN_FEED = `/calendar/${'A'.repeat(43)}.ics`;
const WRONG_AUTH = basicHeader(TEST_USER, 'not the password');
/** Over Node's 16 KiB limit for request headers: answered 431 before any routing. */
const HUGE_HEADER = { 'X-Padding': 'p'.repeat(20 * 1024) };

const newEvent = (eventId: string = randomUUID()): Json => ({
  eventId,
  name: 'Mermaid Treasure Identification and Analysis',
  location: 'Under the seaaa 🦀 🎶 🌊.',
  eventDescription: 'Join us as we review and classify a rare collection of 20 thingamabobs.',
  dates: ['2023-09-05', '2023-09-08'],
  price: 19.99,
});

async function send(
  t: TestApp,
  method: Method,
  path: string,
  init: { headers?: Record<string, string>; body?: string } = {},
): Promise<Exchange> {
  const res = await fetch(`${t.baseUrl}${path}`, {
    method: method.toUpperCase(),
    headers: init.headers,
    body: init.body,
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const post = (t: TestApp, body: string, headers: Record<string, string> = {}): Promise<Exchange> =>
  send(t, 'post', CREATE, { headers: { Authorization: AUTH, 'Content-Type': JSON_TYPE, ...headers }, body });

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

const postToken = (t: TestApp, body: string, headers: Record<string, string> = {}): Promise<Exchange> =>
  send(t, 'post', TOKENS, { headers: { Authorization: AUTH, 'Content-Type': JSON_TYPE, ...headers }, body });

const deleteToken = (t: TestApp, id: string, headers: Record<string, string> = {}): Promise<Exchange> =>
  send(t, 'delete', `${TOKENS}/${id}`, { headers: { Authorization: AUTH, ...headers } });

/** A new calendar token: its body as created. */
async function newToken(t: TestApp): Promise<{ tokenId: string; feedUrl: string }> {
  const res = await postToken(t, '{}');
  expect(res.status).toBe(201);
  return JSON.parse(res.text) as { tokenId: string; feedUrl: string };
}

const tokenId = async (t: TestApp): Promise<string> => (await newToken(t)).tokenId;
const tokenFeedPath = async (t: TestApp): Promise<string> => (await newToken(t)).feedUrl;

async function created(t: TestApp): Promise<string> {
  const eventId = randomUUID();
  const res = await post(t, JSON.stringify(newEvent(eventId)));
  expect(res.status).toBe(201);
  return eventId;
}

/** Credentials of a new user with the viewer role. */
async function viewer(t: TestApp): Promise<string> {
  const username = `viewer-${randomUUID().slice(0, 8)}`;
  await t.app.get(UsersService).add(username, 'viewer-password-1', 'viewer');
  return basicHeader(username, 'viewer-password-1');
}

/** Failed authentications until the address is refused with 429 (the limit is 2 in that app). */
async function exhaustFailures(t: TestApp): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const res = await post(t, JSON.stringify(newEvent()), { Authorization: WRONG_AUTH });
    expect([401, 429]).toContain(res.status);
    if (res.status === 429) return;
  }
  throw new Error('no 429 after 3 failed authentications with AUTH_FAILURE_LIMIT=2');
}

/** A webhook subscription to a receiver that is not there (its deliveries fail in the background). */
const WEBHOOK_URL = 'http://127.0.0.1:9/hook';
const postWebhook = (t: TestApp, body: string, headers: Record<string, string> = {}): Promise<Exchange> =>
  send(t, 'post', '/webhooks', { headers: { Authorization: AUTH, 'Content-Type': JSON_TYPE, ...headers }, body });

async function webhook(t: TestApp): Promise<string> {
  const res = await postWebhook(t, JSON.stringify({ url: WEBHOOK_URL }));
  expect(res.status).toBe(201);
  return (JSON.parse(res.text) as { webhookId: string }).webhookId;
}

/** A ticket for today in the museum's time zone, written straight into the table. */
const ticketToday = (t: TestApp): Promise<SeededTicket> =>
  seedTicket(t, { ticketDate: t.app.get(MuseumClock).today() });
const getAuthed = (t: TestApp, path: string): Promise<Exchange> =>
  send(t, 'get', path, { headers: { Authorization: AUTH } });
const postAuthed = (t: TestApp, path: string, body?: string): Promise<Exchange> =>
  send(t, 'post', path, {
    headers: { Authorization: AUTH, ...(body === undefined ? {} : { 'Content-Type': JSON_TYPE }) },
    body,
  });
/** A month ahead: within the sales' horizon (366 days), and never today on the real clock. */
const SALE_DATE = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
/** An event on sale on SALE_DATE, with a capacity or none. */
async function saleEvent(t: TestApp, capacity?: number): Promise<string> {
  const eventId = randomUUID();
  const res = await post(
    t,
    JSON.stringify({ ...newEvent(eventId), dates: [SALE_DATE], ...(capacity === undefined ? {} : { capacity }) }),
  );
  expect(res.status).toBe(201);
  return eventId;
}
const buyTicket = (t: TestApp, body: Json, headers: Record<string, string> = {}): Promise<Exchange> =>
  send(t, 'post', TICKETS, {
    headers: { Authorization: AUTH, 'Content-Type': JSON_TYPE, ...headers },
    body: JSON.stringify(body),
  });
const scan = (t: TestApp, code: string): Promise<Exchange> => postAuthed(t, CHECK_INS, JSON.stringify({ code }));

const HOURS = '/museum-hours';
const WEEKLY = '/museum-hours/weekly';
const HOURS_DATE = '/museum-hours/{date}';
const WEEK = {
  monday: { timeOpen: '09:00', timeClose: '18:00', capacity: 100 },
  tuesday: { timeOpen: '09:00', timeClose: '18:00' },
  wednesday: null,
  thursday: null,
  friday: null,
  saturday: null,
  sunday: null,
};

let hoursDays = 0;
/** A date of its own for each museum-hours case that writes one. */
function hoursDate(): string {
  hoursDays++;
  return new Date(Date.UTC(2090, 0, hoursDays)).toISOString().slice(0, 10);
}

const putHours = (t: TestApp, path: string, body: string, headers: Record<string, string> = {}): Promise<Exchange> =>
  send(t, 'put', path, { headers: { Authorization: AUTH, 'Content-Type': JSON_TYPE, ...headers }, body });

/** The statuses every museum-hours operation shares: 401, 429, 431, 503 (and 403 for the writes). */
function museumHoursCommonCases(
  method: Method,
  path: string,
  request: (t: TestApp, headers?: Record<string, string>) => Promise<Exchange>,
  writes: boolean,
): Case[] {
  const cases: Case[] = [
    {
      app: 'main',
      method,
      path,
      status: 401,
      what: 'no credentials',
      send: (t) => request(t, { Authorization: '' }),
    },
    {
      app: 'main',
      method,
      path,
      status: 431,
      what: 'headers over 16 KiB',
      send: (t) => request(t, HUGE_HEADER),
    },
    {
      app: 'failure-limit-2',
      method,
      path,
      status: 429,
      what: 'valid credentials after too many failures',
      send: async (t) => {
        await exhaustFailures(t);
        return request(t);
      },
    },
    { app: 'database-destroyed', method, path, status: 503, what: 'the database gone', send: (t) => request(t) },
  ];
  if (writes) {
    cases.push({
      app: 'main',
      method,
      path,
      status: 403,
      what: 'a viewer',
      send: async (t) => request(t, { Authorization: await viewer(t) }),
    });
  }
  return cases;
}

const MUSEUM_HOURS_CASES: readonly Case[] = [
  // GET /museum-hours (getMuseumHours)
  {
    app: 'main',
    method: 'get',
    path: HOURS,
    status: 200,
    what: 'open days, one with ticketsAvailable',
    send: async (t) => {
      await putHours(t, WEEKLY, JSON.stringify(WEEK));
      return send(t, 'get', `${HOURS}?startDate=2090-01-01&limit=30`, { headers: { Authorization: AUTH } });
    },
  },
  {
    app: 'main',
    method: 'get',
    path: HOURS,
    status: 400,
    what: 'a limit over 30',
    send: (t) => send(t, 'get', `${HOURS}?limit=31`, { headers: { Authorization: AUTH } }),
  },
  ...museumHoursCommonCases(
    'get',
    HOURS,
    (t, headers = {}) => send(t, 'get', HOURS, { headers: { Authorization: AUTH, ...headers } }),
    false,
  ),
  // GET /museum-hours/weekly
  {
    app: 'main',
    method: 'get',
    path: WEEKLY,
    status: 200,
    what: 'the week',
    send: (t) => send(t, 'get', WEEKLY, { headers: { Authorization: AUTH } }),
  },
  ...museumHoursCommonCases(
    'get',
    WEEKLY,
    (t, headers = {}) => send(t, 'get', WEEKLY, { headers: { Authorization: AUTH, ...headers } }),
    false,
  ),
  // PUT /museum-hours/weekly
  {
    app: 'main',
    method: 'put',
    path: WEEKLY,
    status: 200,
    what: 'a week',
    send: (t) => putHours(t, WEEKLY, JSON.stringify(WEEK)),
  },
  {
    app: 'main',
    method: 'put',
    path: WEEKLY,
    status: 400,
    what: 'a day closing before it opens',
    send: (t) => putHours(t, WEEKLY, JSON.stringify({ ...WEEK, monday: { timeOpen: '18:00', timeClose: '09:00' } })),
  },
  {
    app: 'main',
    method: 'put',
    path: WEEKLY,
    status: 413,
    what: 'a body over 256 KiB',
    send: (t) => putHours(t, WEEKLY, JSON.stringify({ ...WEEK, padding: 'x'.repeat(300 * 1024) })),
  },
  {
    app: 'main',
    method: 'put',
    path: WEEKLY,
    status: 415,
    what: 'text/plain',
    send: (t) => putHours(t, WEEKLY, JSON.stringify(WEEK), { 'Content-Type': 'text/plain' }),
  },
  ...museumHoursCommonCases('put', WEEKLY, (t, headers) => putHours(t, WEEKLY, JSON.stringify(WEEK), headers), true),
  // PUT /museum-hours/{date}
  {
    app: 'main',
    method: 'put',
    path: HOURS_DATE,
    status: 200,
    what: 'hours of its own',
    send: (t) => putHours(t, `${HOURS}/${hoursDate()}`, '{"timeOpen":"10:00","timeClose":"14:00","capacity":20}'),
  },
  {
    app: 'main',
    method: 'put',
    path: HOURS_DATE,
    status: 200,
    what: 'closed',
    send: (t) => putHours(t, `${HOURS}/${hoursDate()}`, '{"closed":true}'),
  },
  {
    app: 'main',
    method: 'put',
    path: HOURS_DATE,
    status: 400,
    what: 'closed with hours',
    send: (t) => putHours(t, `${HOURS}/${hoursDate()}`, '{"closed":true,"timeOpen":"10:00"}'),
  },
  {
    app: 'main',
    method: 'put',
    path: HOURS_DATE,
    status: 409,
    what: 'closing a date with a ticket sold',
    send: async (t) => {
      const date = hoursDate();
      await putHours(t, `${HOURS}/${date}`, '{"timeOpen":"10:00","timeClose":"14:00"}');
      expect(await t.app.get(MuseumHoursService).admitGeneral(date, [])).toEqual({ outcome: 'admitted' });
      return putHours(t, `${HOURS}/${date}`, '{"closed":true}');
    },
  },
  {
    app: 'main',
    method: 'put',
    path: HOURS_DATE,
    status: 413,
    what: 'a body over 256 KiB',
    send: (t) => putHours(t, `${HOURS}/${hoursDate()}`, JSON.stringify({ closed: true, note: 'x'.repeat(300 * 1024) })),
  },
  {
    app: 'main',
    method: 'put',
    path: HOURS_DATE,
    status: 415,
    what: 'text/plain',
    send: (t) => putHours(t, `${HOURS}/${hoursDate()}`, '{"closed":true}', { 'Content-Type': 'text/plain' }),
  },
  ...museumHoursCommonCases(
    'put',
    HOURS_DATE,
    (t, headers) => putHours(t, `${HOURS}/${hoursDate()}`, '{"closed":true}', headers),
    true,
  ),
  // DELETE /museum-hours/{date}
  {
    app: 'main',
    method: 'delete',
    path: HOURS_DATE,
    status: 204,
    what: 'an exception',
    send: async (t) => {
      const date = hoursDate();
      await putHours(t, `${HOURS}/${date}`, '{"closed":true}');
      return send(t, 'delete', `${HOURS}/${date}`, { headers: { Authorization: AUTH } });
    },
  },
  {
    app: 'main',
    method: 'delete',
    path: HOURS_DATE,
    status: 400,
    what: 'not a date',
    send: (t) => send(t, 'delete', `${HOURS}/2090-02-30`, { headers: { Authorization: AUTH } }),
  },
  {
    app: 'main',
    method: 'delete',
    path: HOURS_DATE,
    status: 404,
    what: 'no exception that date',
    send: (t) => send(t, 'delete', `${HOURS}/${hoursDate()}`, { headers: { Authorization: AUTH } }),
  },
  ...museumHoursCommonCases(
    'delete',
    HOURS_DATE,
    (t, headers = {}) => send(t, 'delete', `${HOURS}/${hoursDate()}`, { headers: { Authorization: AUTH, ...headers } }),
    true,
  ),
];

const CASES: readonly Case[] = [
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
    send: (t) => send(t, 'post', CREATE, { headers: { 'Content-Type': JSON_TYPE }, body: JSON.stringify(newEvent()) }),
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
  { app: 'main', method: 'delete', path: ITEM, status: 404, what: 'no such event', send: (t) => del(t, randomUUID()) },
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
  { app: 'main', method: 'get', path: ITEM, status: 404, what: 'no such event', send: (t) => getItem(t, randomUUID()) },
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

  // Webhooks (admin only)
  {
    app: 'main',
    method: 'post',
    path: '/webhooks',
    status: 201,
    what: 'a URL on an allowed host',
    send: (t) => postWebhook(t, JSON.stringify({ url: WEBHOOK_URL, description: 'Newsletter' })),
  },
  {
    app: 'main',
    method: 'post',
    path: '/webhooks',
    status: 400,
    what: 'a relative URL',
    send: (t) => postWebhook(t, JSON.stringify({ url: '/hook' })),
  },
  {
    app: 'main',
    method: 'post',
    path: '/webhooks',
    status: 401,
    what: 'no credentials',
    send: (t) => send(t, 'post', '/webhooks', { headers: { 'Content-Type': JSON_TYPE }, body: '{}' }),
  },
  {
    app: 'main',
    method: 'post',
    path: '/webhooks',
    status: 403,
    what: 'a viewer',
    send: async (t) => postWebhook(t, JSON.stringify({ url: WEBHOOK_URL }), { Authorization: await viewer(t) }),
  },
  {
    app: 'main',
    method: 'post',
    path: '/webhooks',
    status: 422,
    what: 'a loopback address not allowed',
    send: (t) => postWebhook(t, JSON.stringify({ url: 'https://127.0.0.2/hook' })),
  },
  {
    app: 'main',
    method: 'get',
    path: '/webhooks',
    status: 200,
    what: 'the subscriptions',
    send: async (t) => {
      await webhook(t);
      return send(t, 'get', '/webhooks', { headers: { Authorization: AUTH } });
    },
  },
  {
    app: 'main',
    method: 'get',
    path: '/webhooks',
    status: 403,
    what: 'a viewer',
    send: async (t) => send(t, 'get', '/webhooks', { headers: { Authorization: await viewer(t) } }),
  },
  {
    app: 'main',
    method: 'delete',
    path: '/webhooks/{webhookId}',
    status: 204,
    what: 'an existing subscription',
    send: async (t) => send(t, 'delete', `/webhooks/${await webhook(t)}`, { headers: { Authorization: AUTH } }),
  },
  {
    app: 'main',
    method: 'delete',
    path: '/webhooks/{webhookId}',
    status: 404,
    what: 'an unknown id',
    send: (t) => send(t, 'delete', `/webhooks/${randomUUID()}`, { headers: { Authorization: AUTH } }),
  },
  {
    app: 'main',
    method: 'delete',
    path: '/webhooks/{webhookId}',
    status: 400,
    what: 'a malformed id',
    send: (t) => send(t, 'delete', '/webhooks/nope', { headers: { Authorization: AUTH } }),
  },
  {
    app: 'main',
    method: 'post',
    path: '/webhooks/{webhookId}/enable',
    status: 200,
    what: 'an existing subscription',
    send: async (t) => send(t, 'post', `/webhooks/${await webhook(t)}/enable`, { headers: { Authorization: AUTH } }),
  },
  {
    app: 'main',
    method: 'post',
    path: '/webhooks/{webhookId}/enable',
    status: 404,
    what: 'an unknown id',
    send: (t) => send(t, 'post', `/webhooks/${randomUUID()}/enable`, { headers: { Authorization: AUTH } }),
  },

  // POST /tickets (buyMuseumTickets)
  {
    app: 'main',
    method: 'post',
    path: TICKETS,
    status: 201,
    what: 'an event ticket',
    send: async (t) => buyTicket(t, { ticketType: 'event', eventId: await saleEvent(t), ticketDate: SALE_DATE }),
  },
  {
    app: 'main',
    method: 'post',
    path: TICKETS,
    status: 400,
    what: 'an unknown ticket type and a date in the past',
    send: (t) => buyTicket(t, { ticketType: 'vip', ticketDate: '2020-01-01' }),
  },
  {
    app: 'main',
    method: 'post',
    path: TICKETS,
    status: 401,
    what: 'no credentials',
    send: (t) => send(t, 'post', TICKETS, { headers: { 'Content-Type': JSON_TYPE }, body: '{}' }),
  },
  {
    app: 'main',
    method: 'post',
    path: TICKETS,
    status: 403,
    what: 'a viewer',
    send: async (t) =>
      buyTicket(
        t,
        { ticketType: 'event', eventId: await saleEvent(t), ticketDate: SALE_DATE },
        { Authorization: await viewer(t) },
      ),
  },
  {
    app: 'main',
    method: 'post',
    path: TICKETS,
    status: 404,
    what: 'an unknown event',
    send: (t) => buyTicket(t, { ticketType: 'event', eventId: randomUUID(), ticketDate: SALE_DATE }),
  },
  {
    app: 'main',
    method: 'post',
    path: TICKETS,
    status: 409,
    what: 'sold out',
    send: async (t) => {
      const eventId = await saleEvent(t, 1);
      expect((await buyTicket(t, { ticketType: 'event', eventId, ticketDate: SALE_DATE })).status).toBe(201);
      return buyTicket(t, { ticketType: 'event', eventId, ticketDate: SALE_DATE });
    },
  },
  {
    app: 'main',
    method: 'post',
    path: TICKETS,
    status: 413,
    what: 'a body over 256 KiB',
    send: (t) => buyTicket(t, { ticketType: 'general', ticketDate: SALE_DATE, email: 'x'.repeat(300 * 1024) }),
  },
  {
    app: 'main',
    method: 'post',
    path: TICKETS,
    status: 415,
    what: 'not JSON',
    send: (t) =>
      send(t, 'post', TICKETS, { headers: { Authorization: AUTH, 'Content-Type': 'text/plain' }, body: 'x' }),
  },
  {
    app: 'main',
    method: 'post',
    path: TICKETS,
    status: 422,
    what: 'a date the museum is closed',
    send: (t) => buyTicket(t, { ticketType: 'general', ticketDate: SALE_DATE }),
  },
  {
    app: 'main',
    method: 'post',
    path: TICKETS,
    status: 431,
    what: 'headers over 16 KiB',
    send: (t) => buyTicket(t, { ticketType: 'general', ticketDate: SALE_DATE }, HUGE_HEADER),
  },
  {
    app: 'failure-limit-2',
    method: 'post',
    path: TICKETS,
    status: 429,
    what: 'valid credentials after too many failures',
    send: async (t) => {
      await exhaustFailures(t);
      return buyTicket(t, { ticketType: 'general', ticketDate: SALE_DATE });
    },
  },
  {
    app: 'database-destroyed',
    method: 'post',
    path: TICKETS,
    status: 503,
    what: 'the database is gone',
    send: (t) => buyTicket(t, { ticketType: 'event', eventId: randomUUID(), ticketDate: SALE_DATE }),
  },

  // Tickets after their purchase: reads, the QR code, check-ins
  {
    app: 'main',
    method: 'get',
    path: TICKET,
    status: 200,
    what: 'a ticket',
    send: async (t) => getAuthed(t, `/tickets/${(await ticketToday(t)).ticketId}`),
  },
  {
    app: 'main',
    method: 'get',
    path: TICKET,
    status: 400,
    what: 'a malformed id',
    send: (t) => getAuthed(t, '/tickets/nope'),
  },
  {
    app: 'main',
    method: 'get',
    path: TICKET,
    status: 401,
    what: 'no credentials',
    send: (t) => send(t, 'get', `/tickets/${randomUUID()}`),
  },
  {
    app: 'main',
    method: 'get',
    path: TICKET,
    status: 404,
    what: 'an unknown ticket',
    send: (t) => getAuthed(t, `/tickets/${randomUUID()}`),
  },
  {
    app: 'main',
    method: 'get',
    path: TICKET_QR,
    status: 200,
    what: 'the PNG',
    send: async (t) => getAuthed(t, `/tickets/${(await ticketToday(t)).ticketId}/qr`),
  },
  {
    app: 'main',
    method: 'get',
    path: TICKET_QR,
    status: 400,
    what: 'a malformed id',
    send: (t) => getAuthed(t, '/tickets/nope/qr'),
  },
  {
    app: 'main',
    method: 'get',
    path: TICKET_QR,
    status: 404,
    what: 'an unknown ticket',
    send: (t) => getAuthed(t, `/tickets/${randomUUID()}/qr`),
  },
  {
    app: 'main',
    method: 'get',
    path: TICKET_QR,
    status: 403,
    what: 'a viewer',
    send: async (t) =>
      send(t, 'get', `/tickets/${(await ticketToday(t)).ticketId}/qr`, {
        headers: { Authorization: await viewer(t) },
      }),
  },
  {
    app: 'main',
    method: 'get',
    path: TICKET,
    status: 431,
    what: 'headers over 16 KiB',
    send: (t) => send(t, 'get', `/tickets/${randomUUID()}`, { headers: { Authorization: AUTH, ...HUGE_HEADER } }),
  },
  {
    app: 'failure-limit-2',
    method: 'get',
    path: TICKET,
    status: 429,
    what: 'valid credentials after too many failures',
    send: async (t) => {
      await exhaustFailures(t);
      return getAuthed(t, `/tickets/${randomUUID()}`);
    },
  },
  {
    app: 'database-destroyed',
    method: 'get',
    path: TICKET,
    status: 503,
    what: 'the database is gone',
    send: (t) => getAuthed(t, `/tickets/${randomUUID()}`),
  },
  {
    app: 'main',
    method: 'get',
    path: TICKET_QR,
    status: 401,
    what: 'no credentials',
    send: (t) => send(t, 'get', `/tickets/${randomUUID()}/qr`),
  },
  {
    app: 'main',
    method: 'get',
    path: TICKET_QR,
    status: 431,
    what: 'headers over 16 KiB',
    send: (t) => send(t, 'get', `/tickets/${randomUUID()}/qr`, { headers: { Authorization: AUTH, ...HUGE_HEADER } }),
  },
  {
    app: 'failure-limit-2',
    method: 'get',
    path: TICKET_QR,
    status: 429,
    what: 'valid credentials after too many failures',
    send: async (t) => {
      await exhaustFailures(t);
      return getAuthed(t, `/tickets/${randomUUID()}/qr`);
    },
  },
  {
    app: 'database-destroyed',
    method: 'get',
    path: TICKET_QR,
    status: 503,
    what: 'the database is gone',
    send: (t) => getAuthed(t, `/tickets/${randomUUID()}/qr`),
  },
  {
    app: 'main',
    method: 'post',
    path: TICKET_CHECK_IN,
    status: 200,
    what: 'the first scan today',
    send: async (t) => postAuthed(t, `/tickets/${(await ticketToday(t)).ticketId}/check-in`),
  },
  {
    app: 'main',
    method: 'post',
    path: TICKET_CHECK_IN,
    status: 400,
    what: 'a malformed id',
    send: (t) => postAuthed(t, '/tickets/nope/check-in'),
  },
  {
    app: 'main',
    method: 'post',
    path: TICKET_CHECK_IN,
    status: 403,
    what: 'a viewer',
    send: async (t) =>
      send(t, 'post', `/tickets/${(await ticketToday(t)).ticketId}/check-in`, {
        headers: { Authorization: await viewer(t) },
      }),
  },
  {
    app: 'main',
    method: 'post',
    path: TICKET_CHECK_IN,
    status: 404,
    what: 'an unknown ticket',
    send: (t) => postAuthed(t, `/tickets/${randomUUID()}/check-in`),
  },
  {
    app: 'main',
    method: 'post',
    path: TICKET_CHECK_IN,
    status: 409,
    what: 'a second scan',
    send: async (t) => {
      const { ticketId } = await ticketToday(t);
      expect((await postAuthed(t, `/tickets/${ticketId}/check-in`)).status).toBe(200);
      return postAuthed(t, `/tickets/${ticketId}/check-in`);
    },
  },
  {
    app: 'main',
    method: 'post',
    path: CHECK_INS,
    status: 200,
    what: "the QR code's text",
    send: async (t) => scan(t, (await ticketToday(t)).confirmationCode),
  },
  {
    app: 'main',
    method: 'post',
    path: CHECK_INS,
    status: 400,
    what: 'not a code',
    send: (t) => scan(t, 'nope'),
  },
  {
    app: 'main',
    method: 'post',
    path: CHECK_INS,
    status: 404,
    what: 'an unknown code',
    send: (t) => scan(t, `ticket-${'B'.repeat(22)}`),
  },
  {
    app: 'main',
    method: 'post',
    path: CHECK_INS,
    status: 409,
    what: 'a ticket for another day',
    send: async (t) => scan(t, (await seedTicket(t, { ticketDate: '2020-01-01' })).confirmationCode),
  },
  {
    app: 'main',
    method: 'post',
    path: CHECK_INS,
    status: 415,
    what: 'not JSON',
    send: (t) =>
      send(t, 'post', CHECK_INS, { headers: { Authorization: AUTH, 'Content-Type': 'text/plain' }, body: 'ticket-x' }),
  },

  // GET /special-events.ics
  {
    app: 'main',
    method: 'get',
    path: CALENDAR,
    status: 200,
    what: 'the feed',
    send: async (t) => {
      await created(t);
      return send(t, 'get', `${CALENDAR}?startDate=2023-09-01`, { headers: { Authorization: AUTH } });
    },
  },
  {
    app: 'main',
    method: 'get',
    path: CALENDAR,
    status: 304,
    what: 'If-None-Match with the current ETag',
    send: async (t) => {
      const first = await send(t, 'get', CALENDAR, { headers: { Authorization: AUTH } });
      return send(t, 'get', CALENDAR, {
        headers: { Authorization: AUTH, 'If-None-Match': first.headers.get('etag') ?? '' },
      });
    },
  },
  {
    app: 'main',
    method: 'get',
    path: CALENDAR,
    status: 400,
    what: 'endDate before startDate',
    send: (t) =>
      send(t, 'get', `${CALENDAR}?startDate=2023-09-02&endDate=2023-09-01`, { headers: { Authorization: AUTH } }),
  },
  {
    app: 'main',
    method: 'get',
    path: CALENDAR,
    status: 401,
    what: 'no credentials',
    send: (t) => send(t, 'get', CALENDAR),
  },
  {
    app: 'main',
    method: 'get',
    path: CALENDAR,
    status: 431,
    what: 'headers over 16 KiB',
    send: (t) => send(t, 'get', CALENDAR, { headers: { Authorization: AUTH, ...HUGE_HEADER } }),
  },
  {
    app: 'failure-limit-2',
    method: 'get',
    path: CALENDAR,
    status: 429,
    what: 'valid credentials after too many failures',
    send: async (t) => {
      await exhaustFailures(t);
      return send(t, 'get', CALENDAR, { headers: { Authorization: AUTH } });
    },
  },
  {
    app: 'database-destroyed',
    method: 'get',
    path: CALENDAR,
    status: 503,
    what: 'the database gone',
    send: (t) => send(t, 'get', CALENDAR, { headers: { Authorization: AUTH } }),
  },

  // GET /calendar/{token}.ics
  {
    app: 'main',
    method: 'get',
    path: TOKEN_FEED,
    status: 200,
    what: 'a valid token',
    send: async (t) => send(t, 'get', await tokenFeedPath(t)),
  },
  {
    app: 'main',
    method: 'get',
    path: TOKEN_FEED,
    status: 304,
    what: 'If-None-Match with the current ETag',
    send: async (t) => {
      const path = await tokenFeedPath(t);
      const first = await send(t, 'get', path);
      return send(t, 'get', path, { headers: { 'If-None-Match': first.headers.get('etag') ?? '' } });
    },
  },
  {
    app: 'main',
    method: 'get',
    path: TOKEN_FEED,
    status: 400,
    what: 'a valid token, an invalid startDate',
    send: async (t) => send(t, 'get', `${await tokenFeedPath(t)}?startDate=2023-02-30`),
  },
  {
    app: 'main',
    method: 'get',
    path: TOKEN_FEED,
    status: 404,
    what: 'an unknown token',
    send: (t) => send(t, 'get', UNKNOWN_TOKEN_FEED),
  },
  {
    app: 'main',
    method: 'get',
    path: TOKEN_FEED,
    status: 431,
    what: 'headers over 16 KiB',
    send: (t) => send(t, 'get', UNKNOWN_TOKEN_FEED, { headers: HUGE_HEADER }),
  },
  {
    app: 'database-destroyed',
    method: 'get',
    path: TOKEN_FEED,
    status: 503,
    what: 'the database gone',
    send: (t) => send(t, 'get', UNKNOWN_TOKEN_FEED),
  },

  // POST /calendar-tokens
  {
    app: 'main',
    method: 'post',
    path: TOKENS,
    status: 201,
    what: 'a description',
    send: (t) => postToken(t, '{"description":"Front desk"}'),
  },
  {
    app: 'main',
    method: 'post',
    path: TOKENS,
    status: 201,
    what: 'no description',
    send: (t) => postToken(t, '{}'),
  },
  {
    app: 'main',
    method: 'post',
    path: TOKENS,
    status: 400,
    what: 'a description over 200 characters and an unknown property',
    send: (t) => postToken(t, JSON.stringify({ description: 'x'.repeat(201), token: 'mine' })),
  },
  {
    app: 'main',
    method: 'post',
    path: TOKENS,
    status: 401,
    what: 'no credentials',
    send: (t) => send(t, 'post', TOKENS, { headers: { 'Content-Type': JSON_TYPE }, body: '{}' }),
  },
  {
    app: 'main',
    method: 'post',
    path: TOKENS,
    status: 403,
    what: 'a viewer',
    send: async (t) => postToken(t, '{}', { Authorization: await viewer(t) }),
  },
  {
    app: 'main',
    method: 'post',
    path: TOKENS,
    status: 413,
    what: 'a body over 256 KiB',
    send: (t) => postToken(t, JSON.stringify({ description: 'x'.repeat(300 * 1024) })),
  },
  {
    app: 'main',
    method: 'post',
    path: TOKENS,
    status: 415,
    what: 'text/plain',
    send: (t) => postToken(t, '{}', { 'Content-Type': 'text/plain' }),
  },
  {
    app: 'main',
    method: 'post',
    path: TOKENS,
    status: 431,
    what: 'headers over 16 KiB',
    send: (t) => postToken(t, '{}', HUGE_HEADER),
  },
  {
    app: 'failure-limit-2',
    method: 'post',
    path: TOKENS,
    status: 429,
    what: 'valid credentials after too many failures',
    send: async (t) => {
      await exhaustFailures(t);
      return postToken(t, '{}');
    },
  },
  {
    app: 'database-destroyed',
    method: 'post',
    path: TOKENS,
    status: 503,
    what: 'the database gone',
    send: (t) => postToken(t, '{}'),
  },

  // GET /calendar-tokens
  {
    app: 'main',
    method: 'get',
    path: TOKENS,
    status: 200,
    what: 'the tokens',
    send: async (t) => {
      await postToken(t, '{}');
      return send(t, 'get', TOKENS, { headers: { Authorization: AUTH } });
    },
  },
  {
    app: 'main',
    method: 'get',
    path: TOKENS,
    status: 401,
    what: 'no credentials',
    send: (t) => send(t, 'get', TOKENS),
  },
  {
    app: 'main',
    method: 'get',
    path: TOKENS,
    status: 403,
    what: 'a viewer',
    send: async (t) => send(t, 'get', TOKENS, { headers: { Authorization: await viewer(t) } }),
  },
  {
    app: 'main',
    method: 'get',
    path: TOKENS,
    status: 431,
    what: 'headers over 16 KiB',
    send: (t) => send(t, 'get', TOKENS, { headers: { Authorization: AUTH, ...HUGE_HEADER } }),
  },
  {
    app: 'failure-limit-2',
    method: 'get',
    path: TOKENS,
    status: 429,
    what: 'valid credentials after too many failures',
    send: async (t) => {
      await exhaustFailures(t);
      return send(t, 'get', TOKENS, { headers: { Authorization: AUTH } });
    },
  },
  {
    app: 'database-destroyed',
    method: 'get',
    path: TOKENS,
    status: 503,
    what: 'the database gone',
    send: (t) => send(t, 'get', TOKENS, { headers: { Authorization: AUTH } }),
  },

  // DELETE /calendar-tokens/{tokenId}
  {
    app: 'main',
    method: 'delete',
    path: TOKEN_ITEM,
    status: 204,
    what: 'a token',
    send: async (t) => deleteToken(t, await tokenId(t)),
  },
  {
    app: 'main',
    method: 'delete',
    path: TOKEN_ITEM,
    status: 400,
    what: 'not a UUID',
    send: (t) => deleteToken(t, 'not-a-uuid'),
  },
  {
    app: 'main',
    method: 'delete',
    path: TOKEN_ITEM,
    status: 401,
    what: 'no credentials',
    send: (t) => send(t, 'delete', `${TOKENS}/${randomUUID()}`),
  },
  {
    app: 'main',
    method: 'delete',
    path: TOKEN_ITEM,
    status: 403,
    what: 'a viewer',
    send: async (t) => deleteToken(t, await tokenId(t), { Authorization: await viewer(t) }),
  },
  {
    app: 'main',
    method: 'delete',
    path: TOKEN_ITEM,
    status: 404,
    what: 'an unknown token',
    send: (t) => deleteToken(t, randomUUID()),
  },
  {
    app: 'main',
    method: 'delete',
    path: TOKEN_ITEM,
    status: 431,
    what: 'headers over 16 KiB',
    send: (t) => deleteToken(t, randomUUID(), HUGE_HEADER),
  },
  {
    app: 'failure-limit-2',
    method: 'delete',
    path: TOKEN_ITEM,
    status: 429,
    what: 'valid credentials after too many failures',
    send: async (t) => {
      await exhaustFailures(t);
      return deleteToken(t, randomUUID());
    },
  },
  {
    app: 'database-destroyed',
    method: 'delete',
    path: TOKEN_ITEM,
    status: 503,
    what: 'the database gone',
    send: (t) => deleteToken(t, randomUUID()),
  },

  // Health
  {
    app: 'main',
    method: 'get',
    path: '/health/live',
    status: 200,
    what: 'up',
    send: (t) => send(t, 'get', '/health/live'),
  },
  {
    app: 'main',
    method: 'get',
    path: '/health/live',
    status: 431,
    what: 'headers over 16 KiB',
    send: (t) => send(t, 'get', '/health/live', { headers: HUGE_HEADER }),
  },
  {
    app: 'main',
    method: 'get',
    path: '/health/ready',
    status: 200,
    what: 'database up',
    send: (t) => send(t, 'get', '/health/ready'),
  },
  {
    app: 'main',
    method: 'get',
    path: '/health/ready',
    status: 431,
    what: 'headers over 16 KiB',
    send: (t) => send(t, 'get', '/health/ready', { headers: HUGE_HEADER }),
  },
  {
    app: 'database-destroyed',
    method: 'get',
    path: '/health/ready',
    status: 503,
    what: 'the database gone',
    send: (t) => send(t, 'get', '/health/ready'),
  },
  {
    app: 'database-destroyed',
    method: 'get',
    path: '/health/live',
    status: 200,
    what: 'up, database gone',
    send: (t) => send(t, 'get', '/health/live'),
  },

  // Metrics (Prometheus text format)
  {
    app: 'main',
    method: 'get',
    path: '/metrics',
    status: 200,
    what: 'the metrics',
    send: (t) => send(t, 'get', '/metrics'),
  },
  {
    app: 'main',
    method: 'get',
    path: '/metrics',
    status: 431,
    what: 'headers over 16 KiB',
    send: (t) => send(t, 'get', '/metrics', { headers: HUGE_HEADER }),
  },
  ...MUSEUM_HOURS_CASES,
];

async function fetchDocument(t: TestApp): Promise<OpenApiDocument> {
  const res = await fetch(`${t.baseUrl}/openapi.json`);
  expect(res.status).toBe(200);
  return (await res.json()) as OpenApiDocument;
}

/** Ajv on the document's schemas: `#/components/schemas/...` references resolve inside the root. */
function schemaValidator(doc: OpenApiDocument): (schema: Json, value: unknown) => string[] {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  // OpenAPI's numeric formats, which JSON Schema does not define.
  for (const format of ['int32', 'int64', 'float', 'double']) ajv.addFormat(format, true);
  return (schema, value) => {
    const validate = ajv.compile({ allOf: [schema], components: { schemas: doc.components.schemas } } as AnySchema);
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
  };
}

/** Checks one real response against what the document says about the operation. */
/**
 * What the document gets wrong about one real response (empty: nothing): the status must be
 * documented for the operation; with no documented content there is no body and no Content-Type,
 * else the media type is a documented one and the body validates against its schema; every
 * required documented header is sent, and every documented header sent matches its schema.
 */
function documentationProblems(doc: OpenApiDocument, c: Case, res: Exchange): string[] {
  const operation = doc.paths[c.path]?.[c.method];
  if (operation === undefined) return [`${c.method} ${c.path} is not documented`];
  const documented = operation.responses[String(res.status)];
  if (documented === undefined) {
    return [`status ${res.status} is not documented for ${c.method} ${c.path} (body: ${res.text.slice(0, 300)})`];
  }
  const validate = schemaValidator(doc);
  const problems: string[] = [];
  const contentType = res.headers.get('content-type');
  if (documented.content === undefined) {
    if (res.text !== '' || contentType !== null)
      problems.push(`a body where none is documented: ${contentType} ${res.text}`);
  } else {
    const mediaType = (contentType ?? '').split(';')[0].trim().toLowerCase();
    const media = documented.content[mediaType];
    if (media === undefined) {
      problems.push(`Content-Type ${contentType} is not one of ${Object.keys(documented.content).join(', ')}`);
    } else {
      const body: unknown = /^application\/([a-z.+-]+\+)?json$/.test(mediaType) ? JSON.parse(res.text) : res.text;
      problems.push(...validate(media.schema, body).map((error) => `body ${error}: ${res.text.slice(0, 300)}`));
    }
  }
  for (const [name, header] of Object.entries(documented.headers ?? {})) {
    const value = res.headers.get(name);
    if (value === null) {
      if (header.required) problems.push(`documented header ${name} is missing`);
      continue;
    }
    const typed = header.schema.type === 'integer' || header.schema.type === 'number' ? Number(value) : value;
    problems.push(...validate(header.schema, typed).map((error) => `header ${name}: ${value} ${error}`));
  }
  return problems;
}

/** One app at a time: each describe starts its own and closes it before the next starts. */
function describeApp(
  kind: AppKind,
  env: Record<string, string>,
  options: {
    prepare?: (t: TestApp) => Promise<void>;
    more?: (ctx: () => { t: TestApp; doc: OpenApiDocument }) => void;
  } = {},
): void {
  describe(`${kind} app`, () => {
    const t = useTestApp(env);
    let doc: OpenApiDocument;

    beforeAll(async () => {
      doc = await fetchDocument(t);
      await options.prepare?.(t);
    });

    const cases = CASES.filter((c) => c.app === kind);
    it.each(cases.map((c) => [`${c.method.toUpperCase()} ${c.path} ${c.status}: ${c.what}`, c] as const))(
      'real response matches the document: %s',
      async (_name, c) => {
        const res = await c.send(t);
        expect({ status: res.status, body: res.text.slice(0, 500) }).toEqual({
          status: c.status,
          body: expect.any(String) as unknown,
        });
        expect(documentationProblems(doc, c, res)).toEqual([]);
      },
    );

    options.more?.(() => ({ t, doc }));
  });
}

describeApp(
  'main',
  { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' },
  {
    more: (ctx) => {
      it('the document lints clean with redocly.yaml: exit 0, no errors, no warnings, nothing ignored', async () => {
        const dir = mkdtempSync(join(tmpdir(), 'museum-openapi-'));
        try {
          const file = join(dir, 'openapi.json');
          writeFileSync(file, JSON.stringify(ctx().doc));
          // execFile rejects on a non-zero exit: the lint must pass as well as report zero problems.
          const { stdout } = await run(
            join(ROOT, 'node_modules/.bin/redocly'),
            ['lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format', 'json'],
            { cwd: ROOT, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
          );
          const report = JSON.parse(stdout) as { totals: Json; problems: Json[] };
          expect(report.problems).toEqual([]);
          expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      });

      it('every status documented for the special-events, calendar and museum-hours operations is produced by a case of this file', () => {
        const { doc } = ctx();
        for (const [path, method] of [
          [CREATE, 'post'],
          [CREATE, 'get'],
          [ITEM, 'get'],
          [ITEM, 'patch'],
          [ITEM, 'delete'],
          [CALENDAR, 'get'],
          [TOKEN_FEED, 'get'],
          [TOKENS, 'post'],
          [TOKENS, 'get'],
          [TOKEN_ITEM, 'delete'],
          [TICKETS, 'post'],
          [TICKET, 'get'],
          [TICKET_QR, 'get'],
          [HOURS, 'get'],
          [WEEKLY, 'get'],
          [WEEKLY, 'put'],
          [HOURS_DATE, 'put'],
          [HOURS_DATE, 'delete'],
        ] as const) {
          const documented = Object.keys(doc.paths[path][method].responses).map(Number).sort(byNumber);
          const produced = [
            ...new Set(CASES.filter((c) => c.path === path && c.method === method).map((c) => c.status)),
          ].sort(byNumber);
          expect({ path, method, documented }).toEqual({ path, method, documented: produced });
        }
      });

      it('documents exactly the operations the cases drive', () => {
        const documented = Object.entries(ctx().doc.paths).flatMap(([path, item]) =>
          Object.keys(item).map((m) => `${m} ${path}`),
        );
        const driven = [...new Set(CASES.map((c) => `${c.method} ${c.path}`))];
        expect(documented.sort()).toEqual(driven.sort());
      });

      it('the body validator is not vacuous: it resolves $refs and rejects what breaks the schema', () => {
        const validate = schemaValidator(ctx().doc);
        const event = { $ref: '#/components/schemas/SpecialEventResponse' };
        const good = { ...newEvent(), eventId: randomUUID() };
        expect(validate(event, good)).toEqual([]);
        expect(validate(event, { ...good, eventId: 'not-a-uuid' })).not.toEqual([]);
        expect(validate(event, { ...good, price: '19.99' })).not.toEqual([]);
        expect(validate(event, { ...good, name: undefined })).not.toEqual([]);
        const problem = { $ref: '#/components/schemas/ProblemDetailsSchema' };
        expect(validate(problem, { type: 'about:blank', title: 'Not Found', status: 404, detail: 'x' })).not.toEqual(
          [],
        );
      });

      it('list, get and update carry the Museum API operation ids and parameters, and this service additions', () => {
        const { doc } = ctx();
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
      });

      it('the calendar operations carry their operation ids, and the feeds answer text/calendar', () => {
        const { doc } = ctx();
        expect({
          calendar: doc.paths[CALENDAR].get.operationId,
          feed: doc.paths[TOKEN_FEED].get.operationId,
          create: doc.paths[TOKENS].post.operationId,
          list: doc.paths[TOKENS].get.operationId,
          delete: doc.paths[TOKEN_ITEM].delete.operationId,
        }).toEqual({
          calendar: 'getSpecialEventsCalendar',
          feed: 'getCalendarFeed',
          create: 'createCalendarToken',
          list: 'listCalendarTokens',
          delete: 'deleteCalendarToken',
        });
        for (const path of [CALENDAR, TOKEN_FEED]) {
          expect(Object.keys(doc.paths[path].get.responses['200'].content ?? {})).toEqual(['text/calendar']);
          expect(doc.paths[path].get.responses['304'].headers?.ETag).toMatchObject({ required: true });
        }
        expect(doc.paths[TOKEN_FEED].get.parameters?.find((p) => p.in === 'path')).toMatchObject({
          name: 'token',
          required: true,
        });
      });

      it("getMuseumHours keeps the Museum API's operation id, parameters and item shape; the writes have ids of their own", () => {
        const { doc } = ctx();
        expect({
          list: doc.paths[HOURS].get.operationId,
          week: doc.paths[WEEKLY].get.operationId,
          setWeek: doc.paths[WEEKLY].put.operationId,
          setDate: doc.paths[HOURS_DATE].put.operationId,
          deleteDate: doc.paths[HOURS_DATE].delete.operationId,
        }).toEqual({
          list: 'getMuseumHours',
          week: 'getWeeklyMuseumHours',
          setWeek: 'setWeeklyMuseumHours',
          setDate: 'setMuseumHoursException',
          deleteDate: 'deleteMuseumHoursException',
        });
        const parameters = Object.fromEntries(
          (doc.paths[HOURS].get.parameters ?? []).map((p) => [`${p.in as string} ${p.name as string}`, p]),
        );
        expect(Object.keys(parameters).sort()).toEqual(['query limit', 'query page', 'query startDate']);
        expect(parameters['query startDate']).toMatchObject({
          required: false,
          schema: { type: 'string', format: 'date' },
        });
        expect(parameters['query page']).toMatchObject({ required: false, schema: { type: 'integer', default: 1 } });
        expect(parameters['query limit']).toMatchObject({
          required: false,
          schema: { type: 'integer', minimum: 1, maximum: 30, default: 10 },
        });
        const validate = schemaValidator(doc);
        const schema = doc.paths[HOURS].get.responses['200'].content?.[JSON_TYPE].schema as Json;
        // The Museum API's own example answer validates; so does an item with ticketsAvailable.
        expect(validate(schema, [{ date: '2023-09-11', timeOpen: '09:00', timeClose: '18:00' }])).toEqual([]);
        expect(
          validate(schema, [{ date: '2023-09-11', timeOpen: '09:00', timeClose: '18:00', ticketsAvailable: 3 }]),
        ).toEqual([]);
        expect(validate(schema, [{ date: '2023-09-11', timeOpen: '9 am', timeClose: '18:00' }])).not.toEqual([]);
      });

      it('DELETE documents the optional `test` cookie', () => {
        const cookie = ctx().doc.paths[ITEM].delete.parameters?.find((p) => p.in === 'cookie');
        expect(cookie).toMatchObject({ name: 'test', in: 'cookie', required: false, schema: { type: 'string' } });
      });

      it('gives every problem response an example of its own status, and create its own 409 wording', () => {
        const { doc } = ctx();
        let problems = 0;
        for (const operations of Object.values(doc.paths)) {
          for (const operation of Object.values(operations)) {
            for (const [status, response] of Object.entries(operation.responses)) {
              const example = response.content?.['application/problem+json']?.example;
              if (example === undefined) continue;
              problems++;
              expect(example).toMatchObject({ status: Number(status), title: STATUS_CODES[Number(status)] });
            }
          }
        }
        expect(problems).toBeGreaterThan(10);
        // The create's own wording, and @Idempotent()'s for a key still in flight (Swagger joins them).
        const conflict = doc.paths[CREATE].post.responses['409'].description;
        expect(conflict).toContain('An event with this eventId already exists; the stored event is unchanged.');
        expect(conflict).toContain('A request with the same Idempotency-Key is still being processed');
        expect(doc.paths[CREATE].post.responses['415'].content?.['application/problem+json'].example?.status).toBe(415);
      });

      it('requires the HTTP Basic scheme for the whole API, and only @Public() operations say security: []', () => {
        const { doc } = ctx();
        expect(doc.components.securitySchemes.basic).toMatchObject({ type: 'http', scheme: 'basic' });
        expect(doc.security).toEqual([{ basic: [] }]);
        // Protected operations inherit the document's requirement.
        const { post: create, get: list } = doc.paths[CREATE];
        const { get, patch: update, delete: remove } = doc.paths[ITEM];
        for (const operation of [create, list, get, update, remove]) expect(operation.security).toBeUndefined();
        for (const path of ['/health/live', '/health/ready', '/metrics', TOKEN_FEED])
          expect(doc.paths[path].get.security).toEqual([]);
        for (const operation of [doc.paths[CALENDAR].get, doc.paths[TOKENS].post, doc.paths[TOKENS].get])
          expect(operation.security).toBeUndefined();
      });
    },
  },
);

describeApp('failure-limit-2', { AUTH_FAILURE_LIMIT: '2' });

describeApp(
  'database-destroyed',
  {},
  {
    prepare: async (t) => {
      await t.app.get(DataSource).destroy();
    },
  },
);
