import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { MuseumClock } from '../../src/domain/museum-clock.js';
import { type Case, type ContractCases, getAuthed, JSON_TYPE, send, viewer } from '../helpers/contract.js';
import { expectStatus, validEvent } from '../helpers/problem-assertions.js';
import { AUTH, type TestApp } from '../helpers/test-app.js';
import { setHoursOn } from '../museum-hours/api.js';
import { checkInTicket } from '../tickets/api.js';
import { orderDate, placeGeneralOrder } from './api.js';

/** The orders' operations in the contract table (test/openapi-contract.e2e-spec.ts). */

const ORDERS = '/orders';
const ONE = '/orders/{orderId}';
const CANCEL = '/orders/{orderId}/cancel';

const place = (t: TestApp, body: unknown, auth: string | null = AUTH) =>
  send(t, 'post', ORDERS, {
    headers: { ...(auth === null ? {} : { Authorization: auth }), 'Content-Type': JSON_TYPE },
    body: JSON.stringify(body),
  });
const cancel = (t: TestApp, path: string, auth: string | null = AUTH) =>
  send(t, 'post', `${path}/cancel`, { headers: auth === null ? {} : { Authorization: auth } });

/** An open day of the contract's clock, and a general line for it. */
async function generalLine(t: TestApp, quantity = 1, hours: object = {}, later = 0): Promise<Record<string, unknown>> {
  const date = orderDate(t, later);
  expectStatus(await setHoursOn(t.baseUrl, date, { timeOpen: '09:00', timeClose: '18:00', ...hours }), 200);
  return { ticketType: 'general', ticketDate: date, quantity };
}

const cases: Case[] = [
  {
    app: 'main',
    method: 'post',
    path: ORDERS,
    status: 201,
    what: 'two lines',
    send: async (t) => {
      const line = await generalLine(t);
      return place(t, { email: 'a@example.com', lines: [line, { ...line, quantity: 2 }] });
    },
  },
  {
    app: 'main',
    method: 'post',
    path: ORDERS,
    status: 400,
    what: 'a quantity of 51',
    send: async (t) => place(t, { email: 'a@example.com', lines: [{ ...(await generalLine(t)), quantity: 51 }] }),
  },
  {
    app: 'main',
    method: 'post',
    path: ORDERS,
    status: 401,
    what: 'no credentials',
    send: (t) => place(t, { email: 'a@example.com', lines: [] }, null),
  },
  {
    app: 'main',
    method: 'post',
    path: ORDERS,
    status: 403,
    what: 'a viewer',
    send: async (t) => place(t, { email: 'a@example.com', lines: [await generalLine(t)] }, await viewer(t)),
  },
  {
    app: 'main',
    method: 'post',
    path: ORDERS,
    status: 404,
    what: 'a line for no event',
    send: async (t) =>
      place(t, {
        email: 'a@example.com',
        lines: [{ ticketType: 'event', eventId: randomUUID(), ticketDate: orderDate(t), quantity: 1 }],
      }),
  },
  {
    app: 'main',
    method: 'post',
    path: ORDERS,
    status: 409,
    what: 'a line asking more than is left',
    send: async (t) => place(t, { email: 'a@example.com', lines: [await generalLine(t, 3, { capacity: 2 }, 1)] }),
  },
  {
    app: 'main',
    method: 'post',
    path: ORDERS,
    status: 422,
    what: 'a line for a date the event does not have',
    send: async (t) => {
      const event = validEvent({ dates: ['2090-01-01'] });
      expectStatus(await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(event), 201);
      const line = { ticketType: 'event', eventId: event.eventId, ticketDate: orderDate(t), quantity: 1 };
      return place(t, { email: 'a@example.com', lines: [line] });
    },
  },
  {
    app: 'main',
    method: 'get',
    path: ONE,
    status: 200,
    what: 'a placed order',
    send: async (t) => getAuthed(t, await placeGeneralOrder(t)),
  },
  {
    app: 'main',
    method: 'get',
    path: ONE,
    status: 400,
    what: 'an id that is no UUID',
    send: (t) => getAuthed(t, '/orders/nope'),
  },
  {
    app: 'main',
    method: 'get',
    path: ONE,
    status: 401,
    what: 'no credentials',
    send: (t) => send(t, 'get', `/orders/${randomUUID()}`),
  },
  {
    app: 'main',
    method: 'get',
    path: ONE,
    status: 404,
    what: 'an unknown id',
    send: (t) => getAuthed(t, `/orders/${randomUUID()}`),
  },
  {
    app: 'main',
    method: 'post',
    path: CANCEL,
    status: 200,
    what: 'a placed order',
    send: async (t) => cancel(t, await placeGeneralOrder(t)),
  },
  {
    app: 'main',
    method: 'post',
    path: CANCEL,
    status: 400,
    what: 'an id that is no UUID',
    send: (t) => cancel(t, '/orders/nope'),
  },
  {
    app: 'main',
    method: 'post',
    path: CANCEL,
    status: 401,
    what: 'no credentials',
    send: (t) => cancel(t, `/orders/${randomUUID()}`, null),
  },
  {
    app: 'main',
    method: 'post',
    path: CANCEL,
    status: 403,
    what: 'a viewer',
    send: async (t) => cancel(t, await placeGeneralOrder(t), await viewer(t)),
  },
  {
    app: 'main',
    method: 'post',
    path: CANCEL,
    status: 404,
    what: 'an unknown id',
    send: (t) => cancel(t, `/orders/${randomUUID()}`),
  },
  {
    app: 'main',
    method: 'post',
    path: CANCEL,
    status: 409,
    what: 'an order with a checked-in ticket',
    send: async (t) => {
      // Only today's tickets check in: an order for the museum clock's day.
      const day = t.app.get(MuseumClock).today();
      expectStatus(await setHoursOn(t.baseUrl, day, { timeOpen: '00:00', timeClose: '23:59' }), 200);
      const placed = await request(t.baseUrl)
        .post(ORDERS)
        .set('Authorization', AUTH)
        .send({ email: 'a@example.com', lines: [{ ticketType: 'general', ticketDate: day, quantity: 1 }] });
      expectStatus(placed, 201);
      const [ticket] = placed.body.tickets as { ticketId: string }[];
      expectStatus(await checkInTicket(t.baseUrl, ticket.ticketId), 200);
      return cancel(t, `/orders/${placed.body.orderId as string}`);
    },
  },
];

const contract: ContractCases = { cases };

export default contract;
