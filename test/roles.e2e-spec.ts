import { randomUUID } from 'node:crypto';
import { METHODS } from 'node:http';
import request, { type Response } from 'supertest';
import { DataSource } from 'typeorm';
import { beforeAll, describe, expect, it } from 'vitest';
import { PasswordHasher } from '../src/auth/password-hasher.js';
import { MuseumClock } from '../src/domain/museum-clock.js';
import { UsersRepository } from '../src/auth/users.repository.js';
import { UsersService } from '../src/auth/users.service.js';
import { expectProblem, expectStatus, expectUnauthorized, validEvent } from './helpers/problem-assertions.js';
import { AUTH, basicHeader, TEST_USER, useTestApp, type TestApp } from './helpers/test-app.js';
import { seedTicket } from './helpers/tickets.js';

/**
 * Roles (issues 19 and 28): a viewer lists and reads, box office also sells tickets and checks
 * them in (but changes no event), an editor does everything on special events, an admin also
 * manages calendar feed tokens and webhooks. Every route the app has registered is tried
 * anonymously and as each role, from a table keyed by the registered routes
 * themselves: a new route without a row here fails the test, so no route ships without a decision
 * about who may call it.
 */

const VIEWER = { user: 'kiosk', password: 'kiosk-password-1234' };
const VIEWER_AUTH = basicHeader(VIEWER.user, VIEWER.password);
const BOX_OFFICE = { user: 'door', password: 'door-password-12345' };
const EDITOR = { user: 'curator', password: 'curator-password-1234' };
const WEBHOOK_URL = 'http://127.0.0.1:9/hook';

/** The bootstrap user (TEST_USER, from ADMIN_USERNAME) is the admin. */
type Caller = 'anonymous' | 'viewer' | 'box-office' | 'editor' | 'admin';
const CALLERS = ['anonymous', 'viewer', 'box-office', 'editor', 'admin'] as const;
const AUTHORIZATION: Record<Caller, string | undefined> = {
  anonymous: undefined,
  viewer: VIEWER_AUTH,
  'box-office': basicHeader(BOX_OFFICE.user, BOX_OFFICE.password),
  editor: basicHeader(EDITOR.user, EDITOR.password),
  admin: AUTH,
};

/** True when `caller` holds at least `role`. */
const atLeast = (caller: Caller, role: Exclude<Caller, 'anonymous'>): boolean =>
  CALLERS.indexOf(caller) >= CALLERS.indexOf(role);

interface RouteCase {
  /** Sends the route's request as `caller` (setting up what it needs first) and checks the answer. */
  readonly check: (t: TestApp, caller: Caller) => Promise<void>;
}

function send(t: TestApp, method: string, path: string, caller: Caller): request.Test {
  const req = request(t.baseUrl)[method.toLowerCase() as 'get'](path);
  const authorization = AUTHORIZATION[caller];
  return authorization === undefined ? req : req.set('Authorization', authorization);
}

async function createEvent(t: TestApp): Promise<string> {
  const event = validEvent();
  expectStatus(await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(event), 201);
  return event.eventId as string;
}

async function eventExists(t: TestApp, eventId: string): Promise<boolean> {
  const rows = (await t.app
    .get(DataSource)
    .query('SELECT event_id FROM special_events WHERE event_id = ?', [eventId])) as unknown[];
  return rows.length === 1;
}

async function createToken(t: TestApp): Promise<{ tokenId: string; token: string }> {
  const res = await request(t.baseUrl).post('/calendar-tokens').set('Authorization', AUTH).send({});
  expectStatus(res, 201);
  return res.body as { tokenId: string; token: string };
}

async function tokenCount(t: TestApp): Promise<number> {
  const rows = (await t.app.get(DataSource).query('SELECT COUNT(*) AS n FROM calendar_tokens')) as { n: unknown }[];
  return Number(rows[0].n);
}

async function tokenExists(t: TestApp, tokenId: string): Promise<boolean> {
  const rows = (await t.app
    .get(DataSource)
    .query('SELECT token_id FROM calendar_tokens WHERE token_id = ?', [tokenId])) as unknown[];
  return rows.length === 1;
}

/** 401 for anyone without credentials; then each role as given. */
function authenticated(
  answers: Record<Exclude<Caller, 'anonymous'>, (res: Response, path: string) => void>,
  method: string,
  makePath: (t: TestApp) => Promise<string> | string,
): RouteCase {
  return {
    async check(t, caller) {
      const path = await makePath(t);
      const res = await send(t, method, path, caller);
      if (caller === 'anonymous') expectUnauthorized(res, path.split('?')[0]);
      else answers[caller](res, path);
    },
  };
}

const forbidden = (res: Response, path: string, needed = 'editor', held: string = 'viewer'): void => {
  const problem = expectProblem(res, 403, path);
  expect(problem.detail).toBe(`This operation needs the ${needed} role; your role is ${held}.`);
};

/** The same answer for every authenticated caller. */
const everyRole = (answer: (res: Response, path: string) => void) => ({
  viewer: answer,
  'box-office': answer,
  editor: answer,
  admin: answer,
});

/** Only an admin gets `success`; a viewer and an editor are told the admin role is needed. */
const adminOnly = (success: (res: Response, path: string) => void) => ({
  viewer: (res: Response, path: string) => forbidden(res, path, 'admin', 'viewer'),
  'box-office': (res: Response, path: string) => forbidden(res, path, 'admin', 'box-office'),
  editor: (res: Response, path: string) => forbidden(res, path, 'admin', 'editor'),
  admin: success,
});

/** A viewer is told box office is needed; box office and above get `success`. */
const boxOfficeUp = (success: (res: Response, path: string) => void) => ({
  viewer: (res: Response, path: string) => forbidden(res, path, 'box-office', 'viewer'),
  'box-office': success,
  editor: success,
  admin: success,
});

/** A 200 with a file of the door page, of the given media type. */
const expectPage =
  (type: string) =>
  (res: Response): void => {
    expect({ status: res.status, type: res.headers['content-type'] }).toEqual({
      status: 200,
      type: `${type}; charset=utf-8`,
    });
  };

/** A webhook subscription to a receiver that is never there (deliveries fail quietly in the background). */
async function createWebhook(t: TestApp): Promise<string> {
  const res = await request(t.baseUrl).post('/webhooks').set('Authorization', AUTH).send({ url: WEBHOOK_URL });
  expectStatus(res, 201);
  return (res.body as { webhookId: string }).webhookId;
}

async function webhookExists(t: TestApp, webhookId: string): Promise<boolean> {
  const rows = (await t.app
    .get(DataSource)
    .query('SELECT webhook_id FROM webhook_subscriptions WHERE webhook_id = ?', [webhookId])) as unknown[];
  return rows.length === 1;
}

async function ticketStatus(t: TestApp, ticketId: string): Promise<string> {
  const rows = (await t.app.get(DataSource).query('SELECT status FROM tickets WHERE ticket_id = ?', [ticketId])) as {
    status: string;
  }[];
  return rows[0].status;
}

/** A 200 with a PNG (no text body to show, unlike expectStatus). */
function expectPng(res: Response): void {
  expect({ status: res.status, type: res.headers['content-type'] }).toEqual({ status: 200, type: 'image/png' });
}

/** Anyone, with or without credentials, gets `status`. */
function open(method: string, path: string, status: number): RouteCase {
  return {
    async check(t, caller) {
      expectStatus(await send(t, method, path, caller), status);
    },
  };
}

const CLOSED_WEEK = {
  monday: null,
  tuesday: null,
  wednesday: null,
  thursday: null,
  friday: null,
  saturday: null,
  sunday: null,
};

let hoursDays = 0;
/** A date of its own for each museum-hours case, so that no case meets another's exception. */
function hoursDate(): string {
  hoursDays++;
  return new Date(Date.UTC(2090, 0, hoursDays)).toISOString().slice(0, 10);
}

/** Every registered route (`METHOD path` as Express holds it) and what each caller gets there. */
const ROUTES: Record<string, RouteCase> = {
  'POST /special-events': {
    async check(t, caller) {
      const event = validEvent();
      const res = await send(t, 'POST', '/special-events', caller).send(event);
      if (caller === 'anonymous') expectUnauthorized(res, '/special-events');
      if (caller === 'viewer' || caller === 'box-office') forbidden(res, '/special-events', 'editor', caller);
      if (atLeast(caller, 'editor')) expectStatus(res, 201);
      expect(await eventExists(t, event.eventId as string)).toBe(atLeast(caller, 'editor'));
    },
  },
  'DELETE /special-events/:eventId': {
    async check(t, caller) {
      const eventId = await createEvent(t);
      const res = await send(t, 'DELETE', `/special-events/${eventId}`, caller);
      if (caller === 'anonymous') expectUnauthorized(res, `/special-events/${eventId}`);
      if (caller === 'viewer' || caller === 'box-office')
        forbidden(res, `/special-events/${eventId}`, 'editor', caller);
      if (atLeast(caller, 'editor')) expectStatus(res, 204);
      expect(await eventExists(t, eventId)).toBe(!atLeast(caller, 'editor'));
    },
  },
  'GET /special-events': authenticated(
    everyRole((res) => expectStatus(res, 200)),
    'GET',
    () => '/special-events?limit=1',
  ),
  'GET /special-events/:eventId': authenticated(
    everyRole((res) => expectStatus(res, 200)),
    'GET',
    (t) => createEvent(t).then((eventId) => `/special-events/${eventId}`),
  ),
  'PATCH /special-events/:eventId': {
    async check(t, caller) {
      const eventId = await createEvent(t);
      const path = `/special-events/${eventId}`;
      const res = await send(t, 'PATCH', path, caller).send({ name: `Patched by ${caller}` });
      if (caller === 'anonymous') expectUnauthorized(res, path);
      if (caller === 'viewer' || caller === 'box-office') forbidden(res, path, 'editor', caller);
      if (atLeast(caller, 'editor')) expectStatus(res, 200);
      const rows = (await t.app
        .get(DataSource)
        .query('SELECT name FROM special_events WHERE event_id = ?', [eventId])) as {
        name: string;
      }[];
      expect(rows[0].name === `Patched by ${caller}`).toBe(atLeast(caller, 'editor'));
    },
  },
  // Methods the paths do not support: the same 405 for every role (no role could do more).
  'ALL /special-events': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'PUT',
    () => '/special-events',
  ),
  'ALL /special-events/:eventId': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'PUT',
    () => `/special-events/${randomUUID()}`,
  ),
  'ALL /special-events/*rest': authenticated(
    everyRole((res, path) => expectProblem(res, 404, path)),
    'GET',
    () => `/special-events/${randomUUID()}/more`,
  ),
  'POST /webhooks': {
    async check(t, caller) {
      const before = (await t.app.get(DataSource).query('SELECT webhook_id FROM webhook_subscriptions')) as unknown[];
      const res = await send(t, 'POST', '/webhooks', caller).send({ url: WEBHOOK_URL });
      if (caller === 'anonymous') expectUnauthorized(res, '/webhooks');
      else if (caller === 'admin') expectStatus(res, 201);
      else forbidden(res, '/webhooks', 'admin', caller);
      const after = (await t.app.get(DataSource).query('SELECT webhook_id FROM webhook_subscriptions')) as unknown[];
      expect(after.length - before.length).toBe(caller === 'admin' ? 1 : 0);
    },
  },
  'GET /webhooks': authenticated(
    adminOnly((res) => expectStatus(res, 200)),
    'GET',
    () => '/webhooks',
  ),
  'DELETE /webhooks/:webhookId': {
    async check(t, caller) {
      const webhookId = await createWebhook(t);
      const path = `/webhooks/${webhookId}`;
      const res = await send(t, 'DELETE', path, caller);
      if (caller === 'anonymous') expectUnauthorized(res, path);
      else if (caller === 'admin') expectStatus(res, 204);
      else forbidden(res, path, 'admin', caller);
      expect(await webhookExists(t, webhookId)).toBe(caller !== 'admin');
    },
  },
  'POST /webhooks/:webhookId/enable': authenticated(
    adminOnly((res) => expectStatus(res, 200)),
    'POST',
    (t) => createWebhook(t).then((webhookId) => `/webhooks/${webhookId}/enable`),
  ),
  'ALL /webhooks': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'PUT',
    () => '/webhooks',
  ),
  'ALL /webhooks/:webhookId': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'PUT',
    () => `/webhooks/${randomUUID()}`,
  ),
  'ALL /webhooks/:webhookId/enable': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'GET',
    () => `/webhooks/${randomUUID()}/enable`,
  ),
  'ALL /webhooks/*rest': authenticated(
    everyRole((res, path) => expectProblem(res, 404, path)),
    'GET',
    () => `/webhooks/${randomUUID()}/more`,
  ),
  // The calendar feed (docs/api.md, Calendar feed): read like the list; its tokens are the admin's.
  'GET /special-events.ics': authenticated(
    everyRole((res) => expectStatus(res, 200)),
    'GET',
    () => '/special-events.ics?startDate=2026-01-01',
  ),
  'ALL /special-events.ics': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'PUT',
    () => '/special-events.ics',
  ),
  'ALL /special-events.ics/*rest': authenticated(
    everyRole((res, path) => expectProblem(res, 404, path)),
    'GET',
    () => '/special-events.ics/more',
  ),
  'POST /calendar-tokens': {
    async check(t, caller) {
      const before = await tokenCount(t);
      const res = await send(t, 'POST', '/calendar-tokens', caller).send({ description: `by ${caller}` });
      if (caller === 'anonymous') expectUnauthorized(res, '/calendar-tokens');
      if (caller !== 'anonymous' && caller !== 'admin') forbidden(res, '/calendar-tokens', 'admin', caller);
      if (caller === 'admin') expectStatus(res, 201);
      expect(await tokenCount(t)).toBe(before + (caller === 'admin' ? 1 : 0));
    },
  },
  'GET /calendar-tokens': {
    async check(t, caller) {
      const res = await send(t, 'GET', '/calendar-tokens', caller);
      if (caller === 'anonymous') expectUnauthorized(res, '/calendar-tokens');
      if (caller !== 'anonymous' && caller !== 'admin') forbidden(res, '/calendar-tokens', 'admin', caller);
      if (caller === 'admin') expectStatus(res, 200);
    },
  },
  'DELETE /calendar-tokens/:tokenId': {
    async check(t, caller) {
      const { tokenId } = await createToken(t);
      const path = `/calendar-tokens/${tokenId}`;
      const res = await send(t, 'DELETE', path, caller);
      if (caller === 'anonymous') expectUnauthorized(res, path);
      if (caller !== 'anonymous' && caller !== 'admin') forbidden(res, path, 'admin', caller);
      if (caller === 'admin') expectStatus(res, 204);
      expect(await tokenExists(t, tokenId)).toBe(caller !== 'admin');
    },
  },
  'ALL /calendar-tokens': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'PUT',
    () => '/calendar-tokens',
  ),
  'ALL /calendar-tokens/:tokenId': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'GET',
    () => `/calendar-tokens/${randomUUID()}`,
  ),
  'ALL /calendar-tokens/*rest': authenticated(
    everyRole((res, path) => expectProblem(res, 404, path)),
    'GET',
    () => `/calendar-tokens/${randomUUID()}/more`,
  ),
  // The token is the credential: the same feed for anyone who holds it, with or without a user.
  'GET /calendar/:token.ics': {
    async check(t, caller) {
      const { token } = await createToken(t);
      expectStatus(await send(t, 'GET', `/calendar/${token}.ics?startDate=2026-01-01`, caller), 200);
      expectProblem(
        await send(t, 'GET', `/calendar/${Buffer.alloc(32).toString('base64url')}.ics`, caller),
        404,
        '/calendar/{token}.ics',
      );
    },
  },
  'ALL /calendar/:token.ics': open('PUT', '/calendar/anything.ics', 405),
  'ALL /calendar/*rest': open('GET', '/calendar/anything/more', 404),
  // Tickets (issue 28): everyone reads them; box office and above check them in.
  'POST /tickets': {
    async check(t, caller) {
      // A month ahead: within the sales' horizon (366 days).
      const saleDate = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
      const event = validEvent({ dates: [saleDate] });
      expectStatus(await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(event), 201);
      const res = await send(t, 'POST', '/tickets', caller).send({
        ticketType: 'event',
        eventId: event.eventId,
        ticketDate: saleDate,
      });
      if (caller === 'anonymous') expectUnauthorized(res, '/tickets');
      if (caller === 'viewer') forbidden(res, '/tickets', 'box-office', 'viewer');
      if (atLeast(caller, 'box-office')) expectStatus(res, 201);
      const rows = (await t.app
        .get(DataSource)
        .query('SELECT COUNT(*) AS n FROM tickets WHERE event_id = ?', [event.eventId])) as { n: unknown }[];
      expect(Number(rows[0].n)).toBe(atLeast(caller, 'box-office') ? 1 : 0);
    },
  },
  'ALL /tickets': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'GET',
    () => '/tickets',
  ),
  // The confirmation code admits the holder: a viewer reads a ticket without it (nor the email),
  // and not its QR code.
  'GET /tickets/:ticketId': {
    async check(t, caller) {
      const { ticketId, confirmationCode } = await seedTicket(t, { ticketDate: '2026-01-01', email: 'a@example.com' });
      const path = `/tickets/${ticketId}`;
      const res = await send(t, 'GET', path, caller);
      if (caller === 'anonymous') {
        expectUnauthorized(res, path);
        return;
      }
      expectStatus(res, 200);
      expect(res.body).toMatchObject({ ticketId });
      if (atLeast(caller, 'box-office')) {
        expect(res.body).toMatchObject({ confirmationCode, email: 'a@example.com' });
      } else {
        expect(res.body).not.toHaveProperty('confirmationCode');
        expect(res.body).not.toHaveProperty('email');
      }
    },
  },
  'GET /tickets/:ticketId/qr': authenticated(
    {
      viewer: (res, path) => forbidden(res, path, 'box-office', 'viewer'),
      'box-office': expectPng,
      editor: expectPng,
      admin: expectPng,
    },
    'GET',
    async (t) => `/tickets/${(await seedTicket(t, { ticketDate: '2026-01-01' })).ticketId}/qr`,
  ),
  'POST /tickets/:ticketId/check-in': {
    async check(t, caller) {
      const { ticketId } = await seedTicket(t, { ticketDate: t.app.get(MuseumClock).today() });
      const path = `/tickets/${ticketId}/check-in`;
      const res = await send(t, 'POST', path, caller);
      if (caller === 'anonymous') expectUnauthorized(res, path);
      if (caller === 'viewer') forbidden(res, path, 'box-office', 'viewer');
      if (atLeast(caller, 'box-office')) expectStatus(res, 200);
      expect(await ticketStatus(t, ticketId)).toBe(atLeast(caller, 'box-office') ? 'checked-in' : 'active');
    },
  },
  'POST /check-ins': {
    async check(t, caller) {
      const { ticketId, confirmationCode } = await seedTicket(t, { ticketDate: t.app.get(MuseumClock).today() });
      const res = await send(t, 'POST', '/check-ins', caller).send({ code: confirmationCode });
      if (caller === 'anonymous') expectUnauthorized(res, '/check-ins');
      if (caller === 'viewer') forbidden(res, '/check-ins', 'box-office', 'viewer');
      if (atLeast(caller, 'box-office')) expectStatus(res, 200);
      expect(await ticketStatus(t, ticketId)).toBe(atLeast(caller, 'box-office') ? 'checked-in' : 'active');
    },
  },
  'ALL /tickets/:ticketId': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'DELETE',
    () => `/tickets/${randomUUID()}`,
  ),
  'ALL /tickets/:ticketId/qr': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'POST',
    () => `/tickets/${randomUUID()}/qr`,
  ),
  'ALL /tickets/:ticketId/check-in': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'GET',
    () => `/tickets/${randomUUID()}/check-in`,
  ),
  'ALL /tickets/*rest': authenticated(
    everyRole((res, path) => expectProblem(res, 404, path)),
    'GET',
    () => `/tickets/${randomUUID()}/more/deeper`,
  ),
  'ALL /check-ins': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'GET',
    () => '/check-ins',
  ),
  'ALL /check-ins/*rest': authenticated(
    everyRole((res, path) => expectProblem(res, 404, path)),
    'GET',
    () => '/check-ins/more',
  ),
  // Museum hours (docs/api.md, Museum hours): viewers read them; editors and admins set them.
  'GET /museum-hours': authenticated(
    everyRole((res) => expectStatus(res, 200)),
    'GET',
    () => '/museum-hours?startDate=2090-01-01',
  ),
  'GET /museum-hours/weekly': authenticated(
    everyRole((res) => expectStatus(res, 200)),
    'GET',
    () => '/museum-hours/weekly',
  ),
  'PUT /museum-hours/weekly': {
    async check(t, caller) {
      const week = { ...CLOSED_WEEK, monday: { timeOpen: '09:00', timeClose: caller === 'admin' ? '17:00' : '18:00' } };
      const res = await send(t, 'PUT', '/museum-hours/weekly', caller).send(week);
      if (caller === 'anonymous') expectUnauthorized(res, '/museum-hours/weekly');
      if (caller === 'viewer' || caller === 'box-office') forbidden(res, '/museum-hours/weekly', 'editor', caller);
      if (atLeast(caller, 'editor')) {
        expectStatus(res, 200);
        expect(res.body).toEqual(week);
      }
    },
  },
  'PUT /museum-hours/:date': {
    async check(t, caller) {
      const path = `/museum-hours/${hoursDate()}`;
      const res = await send(t, 'PUT', path, caller).send({ closed: true });
      if (caller === 'anonymous') expectUnauthorized(res, path);
      if (caller === 'viewer' || caller === 'box-office') forbidden(res, path, 'editor', caller);
      if (atLeast(caller, 'editor')) expectStatus(res, 200);
      const again = await request(t.baseUrl).delete(path).set('Authorization', AUTH);
      expectStatus(again, atLeast(caller, 'editor') ? 204 : 404);
    },
  },
  'DELETE /museum-hours/:date': {
    async check(t, caller) {
      const path = `/museum-hours/${hoursDate()}`;
      expectStatus(await request(t.baseUrl).put(path).set('Authorization', AUTH).send({ closed: true }), 200);
      const res = await send(t, 'DELETE', path, caller);
      if (caller === 'anonymous') expectUnauthorized(res, path);
      if (caller === 'viewer' || caller === 'box-office') forbidden(res, path, 'editor', caller);
      if (atLeast(caller, 'editor')) expectStatus(res, 204);
      const again = await request(t.baseUrl).delete(path).set('Authorization', AUTH);
      expectStatus(again, atLeast(caller, 'editor') ? 404 : 204);
    },
  },
  'ALL /museum-hours': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'POST',
    () => '/museum-hours',
  ),
  'ALL /museum-hours/weekly': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'POST',
    () => '/museum-hours/weekly',
  ),
  'ALL /museum-hours/:date': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'GET',
    () => '/museum-hours/2090-01-01',
  ),
  'ALL /museum-hours/*rest': authenticated(
    everyRole((res, path) => expectProblem(res, 404, path)),
    'GET',
    () => '/museum-hours/2090-01-01/more',
  ),
  // The door scanner page and its files (docs/door.md): box office and above, as check-in.
  'GET /door': authenticated(boxOfficeUp(expectPage('text/html')), 'GET', () => '/door'),
  'GET /door/:file': authenticated(boxOfficeUp(expectPage('text/javascript')), 'GET', () => '/door/door.js'),
  'ALL /door': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'POST',
    () => '/door',
  ),
  'ALL /door/:file': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'PUT',
    () => '/door/door.js',
  ),
  'ALL /door/*rest': authenticated(
    everyRole((res, path) => expectProblem(res, 404, path)),
    'GET',
    () => '/door/page/door.js',
  ),
  'GET /health/live': open('GET', '/health/live', 200),
  'GET /health/ready': open('GET', '/health/ready', 200),
  'GET /metrics': open('GET', '/metrics', 200),
  'GET /openapi.json': open('GET', '/openapi.json', 200),
  'GET /': open('GET', '/', 302),
  // The answers installRouteDefaults adds on public paths: public too, for anyone.
  'ALL /health/live': open('PUT', '/health/live', 405),
  'ALL /health/ready': open('POST', '/health/ready', 405),
  'ALL /health/*rest': open('GET', '/health/nothing-here', 404),
  'ALL /metrics': open('DELETE', '/metrics', 405),
  'ALL /metrics/*rest': open('GET', '/metrics/nothing-here', 404),
};

/**
 * The app's routes as Express has them registered: `METHOD path`, or `ALL path` for a route that
 * answers every method (Nest's @All()).
 */
function registeredRoutes(t: TestApp): string[] {
  const express = t.app.getHttpAdapter().getInstance() as unknown as {
    router: { stack: { route?: { path: string; methods: Record<string, boolean> } }[] };
  };
  return express.router.stack.flatMap(({ route }) => {
    if (route === undefined) return [];
    const methods = Object.keys(route.methods).map((method) => method.toUpperCase());
    if (METHODS.every((method) => methods.includes(method))) return [`ALL ${route.path}`];
    return methods.map((method) => `${method} ${route.path}`);
  });
}

describe('roles: every registered route, tried by each kind of caller', () => {
  const t = useTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });

  beforeAll(async () => {
    await t.app.get(UsersService).add(VIEWER.user, VIEWER.password, 'viewer');
    await t.app.get(UsersService).add(BOX_OFFICE.user, BOX_OFFICE.password, 'box-office');
    await t.app.get(UsersService).add(EDITOR.user, EDITOR.password, 'editor');
  }, 60_000);

  it('every registered route has a row in the table, and every row is a registered route', () => {
    const registered = registeredRoutes(t).filter((route) => !isSwaggerUi(route));
    expect([...new Set(registered)].sort()).toEqual(Object.keys(ROUTES).sort());
  });

  for (const [route, routeCase] of Object.entries(ROUTES)) {
    for (const caller of CALLERS) {
      it(`${route}: ${caller}`, async () => {
        await routeCase.check(t, caller);
      });
    }
  }

  it('a role changed on this instance is in force on the next request', async () => {
    const user = `switch-${randomUUID().slice(0, 8)}`;
    const password = 'switch-password-1234';
    const authorization = basicHeader(user, password);
    const users = t.app.get(UsersService);
    await users.add(user, password, 'viewer');
    const post = () =>
      request(t.baseUrl).post('/special-events').set('Authorization', authorization).send(validEvent());
    forbidden(await post(), '/special-events');
    await users.setRole(user, 'editor');
    expectStatus(await post(), 201);
    await users.setRole(user, 'viewer');
    forbidden(await post(), '/special-events');
  });

  it('the bootstrap user (ADMIN_USERNAME) is an admin', async () => {
    expect((await t.app.get(UsersService).find(TEST_USER))?.role).toBe('admin');
  });
});

/** Swagger UI's own assets under /docs (its page, scripts and styles), public by design. */
function isSwaggerUi(route: string): boolean {
  return /^GET \/docs(\/|$)/.test(route);
}

describe('roles: a change made elsewhere (the users CLI, another instance)', () => {
  const CACHE_TTL_SECONDS = 1;
  const t = useTestApp({ AUTH_CACHE_TTL_SECONDS: String(CACHE_TTL_SECONDS) });

  it('is in force once AUTH_CACHE_TTL_SECONDS has passed, without the instance being told', async () => {
    const user = `remote-${randomUUID().slice(0, 8)}`;
    const password = 'remote-password-1234';
    const authorization = basicHeader(user, password);
    // As the users CLI does it: its own UsersService, without this instance's credential cache.
    const elsewhere = new UsersService(t.app.get(UsersRepository), new PasswordHasher());
    await elsewhere.add(user, password, 'editor');
    const post = () =>
      request(t.baseUrl).post('/special-events').set('Authorization', authorization).send(validEvent());
    expectStatus(await post(), 201);
    await elsewhere.setRole(user, 'viewer');
    await new Promise((resolve) => setTimeout(resolve, CACHE_TTL_SECONDS * 1000 + 300));
    forbidden(await post(), '/special-events');
  });
});

describe('a change made elsewhere is in force within a second, with the default cache TTL (issue 26)', () => {
  const t = useTestApp();

  it('a removal, a lowered role and a changed password made by another process are refused within 1 s while requests keep coming', async () => {
    const elsewhere = new UsersService(t.app.get(UsersRepository), new PasswordHasher());
    const post = (authorization: string) =>
      request(t.baseUrl).post('/special-events').set('Authorization', authorization).send(validEvent());
    const run = async (change: () => Promise<void>, refusedWith: number, authorization: string) => {
      expectStatus(await post(authorization), 201);
      expectStatus(await post(authorization), 201); // now from the credential cache
      // Requests keep coming while the change is made, as under load.
      let stop = false;
      const late: number[] = [];
      let changedAt = 0;
      const load = (async () => {
        while (!stop) {
          const sentAt = Date.now();
          const res = await post(authorization);
          if (changedAt > 0 && sentAt > changedAt + 1_000 && res.status !== refusedWith) late.push(res.status);
        }
      })();
      await change();
      changedAt = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      stop = true;
      await load;
      expect(late).toEqual([]);
      expect((await post(authorization)).status).toBe(refusedWith);
    };
    const user = (name: string) => `${name}-${randomUUID().slice(0, 8)}`;
    const password = 'elsewhere-password-1234';

    const removed = user('removed');
    await elsewhere.add(removed, password, 'editor');
    await run(() => elsewhere.remove(removed), 401, basicHeader(removed, password));

    const lowered = user('lowered');
    await elsewhere.add(lowered, password, 'editor');
    await run(() => elsewhere.setRole(lowered, 'viewer'), 403, basicHeader(lowered, password));

    const changed = user('changed');
    await elsewhere.add(changed, password, 'editor');
    await run(() => elsewhere.setPassword(changed, 'a-new-password-5678'), 401, basicHeader(changed, password));
  }, 60_000);
});
