import { suiteDate } from '../helpers/clock.js';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { expect } from 'vitest';
import { MuseumClock } from '../../src/domain/museum-clock.js';
import { seedTicket } from '../helpers/tickets.js';
import request, { type Response } from 'supertest';
import { expectProblem, expectStatus, expectUnauthorized, validEvent } from '../helpers/problem-assertions.js';
import { atLeast, authenticated, everyRole, forbidden, type RoleRows, send } from '../helpers/roles.js';
import { AUTH, type TestApp } from '../helpers/test-app.js';

/** Who may call the tickets' routes (test/roles.e2e-spec.ts). */

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

const rows: RoleRows = {
  // Tickets (issue 28): everyone reads them; box office and above check them in and cancel them.
  'POST /tickets': {
    async check(t, caller) {
      // A month after the table's museum clock (useMuseumClock): within the sales' horizon (366 days).
      const saleDate = suiteDate(30);
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
    'DELETE',
    () => '/tickets',
  ),
  // A search shows what a read shows: codes and emails for box office and up, who alone may
  // search by email.
  'GET /tickets': {
    async check(t, caller) {
      const email = `search-${randomUUID().slice(0, 8)}@example.com`;
      const eventId = randomUUID();
      const { ticketId, confirmationCode } = await seedTicket(t, { ticketDate: '2026-01-01', eventId, email });
      const path = `/tickets?email=${email}`;
      const res = await send(t, 'GET', path, caller);
      if (caller === 'anonymous') expectUnauthorized(res, '/tickets');
      else if (caller === 'viewer') {
        expectProblem(res, 403, '/tickets');
        const page = await send(t, 'GET', `/tickets?eventId=${eventId}`, caller);
        expectStatus(page, 200);
        expect(page.body).toEqual([expect.objectContaining({ ticketId })]);
        expect(page.body[0]).not.toHaveProperty('confirmationCode');
        expect(page.body[0]).not.toHaveProperty('email');
      } else {
        expectStatus(res, 200);
        expect(res.body).toEqual([expect.objectContaining({ ticketId, confirmationCode, email })]);
      }
    },
  },
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
  'POST /tickets/:ticketId/cancel': {
    async check(t, caller) {
      const { ticketId } = await seedTicket(t, { ticketDate: '2026-01-01' });
      const path = `/tickets/${ticketId}/cancel`;
      const res = await send(t, 'POST', path, caller);
      if (caller === 'anonymous') expectUnauthorized(res, path);
      if (caller === 'viewer') forbidden(res, path, 'box-office', 'viewer');
      if (atLeast(caller, 'box-office')) expectStatus(res, 200);
      expect(await ticketStatus(t, ticketId)).toBe(atLeast(caller, 'box-office') ? 'cancelled' : 'active');
    },
  },
  'ALL /tickets/:ticketId/cancel': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'GET',
    () => `/tickets/${randomUUID()}/cancel`,
  ),
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
};

export default rows;
