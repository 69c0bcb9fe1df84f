import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { MuseumClock } from '../../src/domain/museum-clock.js';
import { AUTH, type TestApp } from '../helpers/test-app.js';
import { seedTicket, type SeededTicket } from '../helpers/tickets.js';
import { BOX_OFFICE_CASES, BOX_OFFICE_COMPLETE } from './box-office-contract-cases.js';
import {
  type ContractCases,
  type Exchange,
  exhaustFailures,
  getAuthed,
  HUGE_HEADER,
  type Json,
  JSON_TYPE,
  newEvent,
  post,
  postAuthed,
  send,
  viewer,
} from '../helpers/contract.js';

/** The tickets' operations in the contract table (test/openapi-contract.e2e-spec.ts). */

const TICKETS = '/tickets';
const TICKET = '/tickets/{ticketId}';
const TICKET_QR = '/tickets/{ticketId}/qr';
const TICKET_CHECK_IN = '/tickets/{ticketId}/check-in';
const CHECK_INS = '/check-ins';

/** A ticket for today in the museum's time zone, written straight into the table. */
const ticketToday = (t: TestApp): Promise<SeededTicket> =>
  seedTicket(t, { ticketDate: t.app.get(MuseumClock).today() });
/**
 * A month after the table's museum clock (CONTRACT_NOW, 2031-03-05): within the sales' horizon
 * (366 days), and a Friday, which no case's hours open (the museum-hours cases open Mondays and
 * Tuesdays), so a general ticket for it is refused as closed.
 */
const SALE_DATE = '2031-04-04';
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

const contract: ContractCases = {
  cases: [
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
        send(t, 'post', CHECK_INS, {
          headers: { Authorization: AUTH, 'Content-Type': 'text/plain' },
          body: 'ticket-x',
        }),
    },
    ...BOX_OFFICE_CASES,
  ],
  complete: [[TICKETS, 'post'], [TICKET, 'get'], [TICKET_QR, 'get'], ...BOX_OFFICE_COMPLETE],
};

export default contract;
