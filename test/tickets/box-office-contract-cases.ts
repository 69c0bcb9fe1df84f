import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { MuseumClock } from '../../src/domain/museum-clock.js';
import { AUTH, type TestApp } from '../helpers/test-app.js';
import { seedTicket } from '../helpers/tickets.js';
import {
  type Case,
  exhaustFailures,
  getAuthed,
  HUGE_HEADER,
  type Method,
  postAuthed,
  send,
  viewer,
} from '../helpers/contract.js';

/** The box office's ticket operations (cancel, search) in the contract table, joined to contract-cases.ts. */

const TICKET_CANCEL = '/tickets/{ticketId}/cancel';
const TICKETS = '/tickets';

/** A ticket for 1 January 2026, written straight into the table: a cancel needs no particular day. */
const seeded = async (t: TestApp): Promise<string> => (await seedTicket(t, { ticketDate: '2026-01-01' })).ticketId;
const cancel = (t: TestApp, ticketId: string, headers: Record<string, string> = {}) =>
  send(t, 'post', `/tickets/${ticketId}/cancel`, { headers: { Authorization: AUTH, ...headers } });

export const BOX_OFFICE_CASES: readonly Case[] = [
  {
    app: 'main',
    method: 'post',
    path: TICKET_CANCEL,
    status: 200,
    what: 'an active ticket',
    send: async (t) => cancel(t, await seeded(t)),
  },
  {
    app: 'main',
    method: 'post',
    path: TICKET_CANCEL,
    status: 400,
    what: 'a malformed id',
    send: (t) => postAuthed(t, '/tickets/nope/cancel'),
  },
  {
    app: 'main',
    method: 'post',
    path: TICKET_CANCEL,
    status: 401,
    what: 'no credentials',
    send: (t) => send(t, 'post', `/tickets/${randomUUID()}/cancel`),
  },
  {
    app: 'main',
    method: 'post',
    path: TICKET_CANCEL,
    status: 403,
    what: 'a viewer',
    send: async (t) => cancel(t, await seeded(t), { Authorization: await viewer(t) }),
  },
  {
    app: 'main',
    method: 'post',
    path: TICKET_CANCEL,
    status: 404,
    what: 'an unknown ticket',
    send: (t) => cancel(t, randomUUID()),
  },
  {
    app: 'main',
    method: 'post',
    path: TICKET_CANCEL,
    status: 409,
    what: 'a checked-in ticket',
    send: async (t) => {
      const { ticketId } = await seedTicket(t, { ticketDate: t.app.get(MuseumClock).today() });
      expect((await postAuthed(t, `/tickets/${ticketId}/check-in`)).status).toBe(200);
      return cancel(t, ticketId);
    },
  },
  {
    app: 'main',
    method: 'post',
    path: TICKET_CANCEL,
    status: 422,
    what: 'an Idempotency-Key used for another ticket',
    send: async (t) => {
      const key = randomUUID();
      expect((await cancel(t, await seeded(t), { 'Idempotency-Key': key })).status).toBe(200);
      return cancel(t, await seeded(t), { 'Idempotency-Key': key });
    },
  },
  {
    app: 'main',
    method: 'post',
    path: TICKET_CANCEL,
    status: 431,
    what: 'headers over 16 KiB',
    send: (t) => cancel(t, randomUUID(), HUGE_HEADER),
  },
  {
    app: 'failure-limit-2',
    method: 'post',
    path: TICKET_CANCEL,
    status: 429,
    what: 'valid credentials after too many failures',
    send: async (t) => {
      await exhaustFailures(t);
      return cancel(t, randomUUID());
    },
  },
  {
    app: 'database-destroyed',
    method: 'post',
    path: TICKET_CANCEL,
    status: 503,
    what: 'the database is gone',
    send: (t) => cancel(t, randomUUID()),
  },
  {
    app: 'main',
    method: 'get',
    path: TICKETS,
    status: 200,
    what: 'a page of tickets',
    send: async (t) => {
      await seeded(t);
      return getAuthed(t, '/tickets?ticketDate=2026-01-01&limit=2');
    },
  },
  {
    app: 'main',
    method: 'get',
    path: TICKETS,
    status: 200,
    what: 'every match as CSV',
    send: async (t) => {
      await seeded(t);
      return send(t, 'get', '/tickets?ticketDate=2026-01-01', { headers: { Authorization: AUTH, Accept: 'text/csv' } });
    },
  },
  {
    app: 'main',
    method: 'get',
    path: TICKETS,
    status: 400,
    what: 'an unknown filter',
    send: (t) => getAuthed(t, '/tickets?evntId=1'),
  },
  {
    app: 'main',
    method: 'get',
    path: TICKETS,
    status: 401,
    what: 'no credentials',
    send: (t) => send(t, 'get', TICKETS),
  },
  {
    app: 'main',
    method: 'get',
    path: TICKETS,
    status: 403,
    what: 'a viewer searching by email',
    send: async (t) => send(t, 'get', '/tickets?email=a@example.com', { headers: { Authorization: await viewer(t) } }),
  },
  {
    app: 'main',
    method: 'get',
    path: TICKETS,
    status: 431,
    what: 'headers over 16 KiB',
    send: (t) => send(t, 'get', TICKETS, { headers: { Authorization: AUTH, ...HUGE_HEADER } }),
  },
  {
    app: 'failure-limit-2',
    method: 'get',
    path: TICKETS,
    status: 429,
    what: 'valid credentials after too many failures',
    send: async (t) => {
      await exhaustFailures(t);
      return getAuthed(t, TICKETS);
    },
  },
  {
    app: 'database-destroyed',
    method: 'get',
    path: TICKETS,
    status: 503,
    what: 'the database is gone',
    send: (t) => getAuthed(t, TICKETS),
  },
  {
    app: 'database-destroyed',
    method: 'get',
    path: TICKETS,
    status: 503,
    what: 'the database is gone, as CSV: a problem, not a cut-off export',
    send: (t) => send(t, 'get', TICKETS, { headers: { Authorization: AUTH, Accept: 'text/csv' } }),
  },
];

export const BOX_OFFICE_COMPLETE: readonly (readonly [string, Method])[] = [
  [TICKET_CANCEL, 'post'],
  [TICKETS, 'get'],
];
