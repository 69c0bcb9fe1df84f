import request from 'supertest';
import { DataSource } from 'typeorm';
import { beforeAll, describe, expect, it } from 'vitest';
import { UsersService } from '../../src/auth/users.service.js';
import { suiteDate, useMuseumClock } from '../helpers/clock.js';
import { expectProblem, expectStatus, validEvent } from '../helpers/problem-assertions.js';
import { AUTH, basicHeader, type TestApp, useTestApp } from '../helpers/test-app.js';
import { setHoursOn } from '../museum-hours/api.js';
import { cancelTicket, checkInTicket } from '../tickets/api.js';
import { cancelOrder, ORDERS_PATH, placeOrder, readOrder } from './api.js';

/**
 * POST /orders, GET /orders/{orderId} and POST /orders/{orderId}/cancel over HTTP, on each
 * database: every line's tickets sold in one transaction or none, the line that cannot be served
 * named; the order read with or without its secrets; a cancel giving every place back. On the
 * suite's museum clock.
 */

const VIEWER = { user: 'orders-viewer', password: 'viewer-password-12345' };
const VIEWER_AUTH = basicHeader(VIEWER.user, VIEWER.password);
const GENERAL_ADMISSION_PRICE = 25;
/** An event's price categories: an adult pays the event's price, a child nothing. */
const FAMILY = [
  { category: 'adult', price: 19.99 },
  { category: 'child', price: 0 },
];

const t = useTestApp({ GENERAL_ADMISSION_PRICE: String(GENERAL_ADMISSION_PRICE) });
useMuseumClock(t);

/** A day each test opens for itself, so that no test sees another's sales. */
let nextDay = 10;
const freshDate = (): string => suiteDate(nextDay++);

async function createEvent(fields: Record<string, unknown>): Promise<string> {
  const event = validEvent({ price: 19.99, ...fields });
  expectStatus(await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(event), 201);
  return event.eventId as string;
}

async function openDay(date: string, hours: Record<string, unknown> = {}): Promise<void> {
  expectStatus(await setHoursOn(t.baseUrl, date, { timeOpen: '09:00', timeClose: '18:00', ...hours }), 200);
}

async function one(sql: string, parameters: unknown[]): Promise<number> {
  const rows = (await t.app.get(DataSource).query(sql, parameters)) as { n: unknown }[];
  return rows.length === 0 ? 0 : Number(rows[0].n);
}

const seatsSold = (eventId: string) =>
  one('SELECT tickets_sold AS n FROM special_events WHERE event_id = ?', [eventId]);
const dateSeatsSold = (eventId: string, date: string) =>
  one('SELECT tickets_sold AS n FROM special_event_dates WHERE event_id = ? AND event_date = ?', [eventId, date]);
const admissionsSold = (date: string) => one('SELECT sold AS n FROM museum_general_admissions WHERE day = ?', [date]);
const slotSold = (date: string, time: string) =>
  one('SELECT sold AS n FROM museum_slot_admissions WHERE day = ? AND slot_time = ?', [date, time]);
const ticketsFor = (date: string) => one('SELECT COUNT(*) AS n FROM tickets WHERE ticket_date = ?', [date]);
const orderCount = () => one('SELECT COUNT(*) AS n FROM orders', []);

/** A problem naming an order's line: the standard members and `line`, its index. */
function expectLineProblem(res: request.Response, status: number, line: number): Record<string, unknown> {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = res.body as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['detail', 'instance', 'line', 'status', 'title', 'type']);
  expect(body).toMatchObject({ status, instance: ORDERS_PATH, line });
  return body;
}

describe('POST /orders', () => {
  beforeAll(async () => {
    await t.app.get(UsersService).add(VIEWER.user, VIEWER.password, 'viewer');
  }, 60_000);

  it('sells every line in one order: tickets with codes, prices and categories, the places taken, a total', async () => {
    const date = freshDate();
    await openDay(date, { capacity: 10 });
    const eventId = await createEvent({ dates: [date], capacity: 10, capacityPerDate: 5, prices: FAMILY });
    const res = await placeOrder(t.baseUrl, {
      email: 'family@example.com',
      lines: [
        { ticketType: 'event', eventId, ticketDate: date, category: 'adult', quantity: 2 },
        { ticketType: 'general', ticketDate: date, quantity: 3 },
      ],
    });
    expectStatus(res, 201);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.location).toBe(`/orders/${res.body.orderId}`);
    expect(res.body).toMatchObject({
      email: 'family@example.com',
      status: 'placed',
      total: 114.98,
      refundDue: null,
    });
    const tickets = res.body.tickets as Record<string, unknown>[];
    expect(tickets.map((ticket) => [ticket.ticketType, ticket.category, ticket.price, ticket.orderId])).toEqual([
      ['event', 'adult', 19.99, res.body.orderId],
      ['event', 'adult', 19.99, res.body.orderId],
      ['general', null, GENERAL_ADMISSION_PRICE, res.body.orderId],
      ['general', null, GENERAL_ADMISSION_PRICE, res.body.orderId],
      ['general', null, GENERAL_ADMISSION_PRICE, res.body.orderId],
    ]);
    for (const ticket of tickets) {
      expect(ticket).toMatchObject({ status: 'active', email: 'family@example.com' });
      expect(ticket.confirmationCode).toMatch(/^ticket-/);
    }
    expect(new Set(tickets.map((ticket) => ticket.confirmationCode)).size).toBe(5);
    expect([await seatsSold(eventId), await dateSeatsSold(eventId, date), await admissionsSold(date)]).toEqual([
      2, 2, 3,
    ]);

    const read = await readOrder(t.baseUrl, res.body.orderId as string);
    expectStatus(read, 200);
    expect(read.body).toEqual(res.body);
    const search = await request(t.baseUrl).get(`/tickets?orderId=${res.body.orderId}`).set('Authorization', AUTH);
    expectStatus(search, 200);
    expect((search.body as { ticketId: string }[]).map((ticket) => ticket.ticketId)).toEqual(
      tickets.map((ticket) => ticket.ticketId),
    );
    // Pages by order follow their Link, with the filter kept in it.
    const first = await request(t.baseUrl)
      .get(`/tickets?orderId=${res.body.orderId}&limit=3`)
      .set('Authorization', AUTH);
    expectStatus(first, 200);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.link as string)?.[1] as string;
    expect(next).toContain(`orderId=${res.body.orderId}`);
    const second = await request(t.baseUrl).get(next).set('Authorization', AUTH);
    expect([...first.body, ...second.body].map((ticket: { ticketId: string }) => ticket.ticketId)).toEqual(
      tickets.map((ticket) => ticket.ticketId),
    );
    expectProblem(
      await request(t.baseUrl).get('/tickets?orderId=nope').set('Authorization', AUTH),
      400,
      '/tickets',
      true,
    );
  });

  it('shows a viewer the order without the email and the tickets’ codes', async () => {
    const date = freshDate();
    await openDay(date);
    const placed = await placeOrder(t.baseUrl, {
      email: 'family@example.com',
      lines: [{ ticketType: 'general', ticketDate: date, quantity: 2 }],
    });
    expectStatus(placed, 201);
    const read = await readOrder(t.baseUrl, placed.body.orderId as string, VIEWER_AUTH);
    expectStatus(read, 200);
    expect(read.body).not.toHaveProperty('email');
    expect(read.body.tickets).toHaveLength(2);
    for (const ticket of read.body.tickets as Record<string, unknown>[]) {
      expect(ticket).not.toHaveProperty('confirmationCode');
      expect(ticket).not.toHaveProperty('email');
    }
    expectStatus(await placeOrder(t.baseUrl, { email: 'a@example.com', lines: [] }, VIEWER_AUTH), 403);
  });

  it('sells nothing when a line is sold out, and names the line', async () => {
    const date = freshDate();
    await openDay(date, { capacity: 3 });
    const eventId = await createEvent({ dates: [date], capacity: 10 });
    const before = await orderCount();
    const res = await placeOrder(t.baseUrl, {
      email: 'family@example.com',
      lines: [
        { ticketType: 'event', eventId, ticketDate: date, quantity: 2 },
        { ticketType: 'general', ticketDate: date, quantity: 4 },
      ],
    });
    expectLineProblem(res, 409, 1);
    expect(res.body.type).toBe('urn:museum:problem:sold-out');
    expect(res.body.detail).toBe(`lines[1]: 4 tickets asked of general admission on ${date}, which has 3 left.`);
    expect([await seatsSold(eventId), await admissionsSold(date), await ticketsFor(date), await orderCount()]).toEqual([
      0,
      0,
      0,
      before,
    ]);
  });

  it('counts the order’s other lines against the same places: two lines that fit alone, not together', async () => {
    const date = freshDate();
    const eventId = await createEvent({ dates: [date], capacity: 5, prices: FAMILY });
    const res = await placeOrder(t.baseUrl, {
      email: 'family@example.com',
      lines: [
        { ticketType: 'event', eventId, ticketDate: date, category: 'adult', quantity: 3 },
        { ticketType: 'event', eventId, ticketDate: date, category: 'child', quantity: 3 },
      ],
    });
    expectLineProblem(res, 409, 1);
    expect(res.body.detail).toContain("the order's other lines take them too");
    expect(await seatsSold(eventId)).toBe(0);
  });

  it('names a full slot and the later slots with room for the line', async () => {
    const date = freshDate();
    await openDay(date, { timeOpen: '10:00', timeClose: '12:00', slotMinutes: 30, slotCapacity: 4 });
    expectStatus(
      await placeOrder(t.baseUrl, {
        email: 'first@example.com',
        lines: [{ ticketType: 'general', ticketDate: date, ticketTime: '10:30', quantity: 3 }],
      }),
      201,
    );
    const res = await placeOrder(t.baseUrl, {
      email: 'family@example.com',
      lines: [
        { ticketType: 'general', ticketDate: date, ticketTime: '10:00', quantity: 1 },
        { ticketType: 'general', ticketDate: date, ticketTime: '10:30', quantity: 2 },
      ],
    });
    expectLineProblem(res, 409, 1);
    expect(res.body.detail).toBe(
      `lines[1]: 2 tickets asked of general admission on ${date} at 10:30, which has 1 left. Later slots with room: 11:00, 11:30.`,
    );
    expect([await slotSold(date, '10:00'), await slotSold(date, '10:30'), await admissionsSold(date)]).toEqual([
      0, 3, 3,
    ]);
  });

  it('sells an event line the session its ticketTime names, bounded by capacityPerDate per session', async () => {
    const date = freshDate();
    const eventId = await createEvent({ dates: [`${date}T10:00`, `${date}T14:00`], capacityPerDate: 3 });
    const at = (time: string | undefined, quantity: number) => ({
      ticketType: 'event',
      eventId,
      ticketDate: date,
      ...(time === undefined ? {} : { ticketTime: time }),
      quantity,
    });
    const sessionSold = (time: string) =>
      one('SELECT tickets_sold AS n FROM special_event_sessions WHERE event_id = ? AND session = ?', [
        eventId,
        `${date}T${time}`,
      ]);
    const placed = await placeOrder(t.baseUrl, { email: 'a@example.com', lines: [at('14:00', 2), at('10:00', 3)] });
    expectStatus(placed, 201);
    expect((placed.body.tickets as { ticketTime?: string }[]).map((ticket) => ticket.ticketTime)).toEqual([
      '14:00',
      '14:00',
      '10:00',
      '10:00',
      '10:00',
    ]);
    expect([await sessionSold('10:00'), await sessionSold('14:00')]).toEqual([3, 2]);

    const full = await placeOrder(t.baseUrl, { email: 'a@example.com', lines: [at('14:00', 2)] });
    expectLineProblem(full, 409, 0);
    expect(full.body.detail).toBe(
      `lines[0]: 2 tickets asked of event ${eventId} on ${date} at 14:00, which has 1 left.`,
    );
    const noTime = await placeOrder(t.baseUrl, { email: 'a@example.com', lines: [at(undefined, 1)] });
    expectProblem(noTime, 400, ORDERS_PATH, true);
    expect(noTime.body.errors).toEqual([
      { field: 'lines[0].ticketTime', message: `ticketTime is required: ${date} has sessions at 10:00, 14:00` },
    ]);

    expectStatus(await cancelOrder(t.baseUrl, placed.body.orderId as string), 200);
    expect([await sessionSold('10:00'), await sessionSold('14:00'), await seatsSold(eventId)]).toEqual([0, 0, 0]);
  });

  it('answers an unknown event with 404 and a closed day with 422, naming the line, selling nothing', async () => {
    const date = freshDate();
    await openDay(date);
    const unknown = '0196a8f4-6e2b-7c3d-9e4f-5a6b7c8d9e0f';
    const general = { ticketType: 'general', ticketDate: date, quantity: 1 };
    const noEvent = await placeOrder(t.baseUrl, {
      email: 'a@example.com',
      lines: [general, { ticketType: 'event', eventId: unknown, ticketDate: date, quantity: 1 }],
    });
    expectLineProblem(noEvent, 404, 1);
    expect(noEvent.body).toMatchObject({ detail: `lines[1]: no special event has eventId ${unknown}.` });

    const closed = freshDate();
    expectStatus(await setHoursOn(t.baseUrl, closed, { closed: true }), 200);
    const res = await placeOrder(t.baseUrl, {
      email: 'a@example.com',
      lines: [general, { ticketType: 'general', ticketDate: closed, quantity: 1 }],
    });
    expectLineProblem(res, 422, 1);
    expect(res.body.type).toBe('urn:museum:problem:museum-closed');
    expect(await admissionsSold(date)).toBe(0);
  });

  it.each([
    ['no line', { lines: [] }, 'lines'],
    ['21 lines', { lines: Array.from({ length: 21 }, () => ({ ticketType: 'general', quantity: 1 })) }, 'lines'],
    ['a quantity of 0', { lines: [{ ticketType: 'general', quantity: 0 }] }, 'lines[0].quantity'],
    ['a quantity of 51', { lines: [{ ticketType: 'general', quantity: 51 }] }, 'lines[0].quantity'],
    ['an event line without eventId', { lines: [{ ticketType: 'event', quantity: 1 }] }, 'lines[0].eventId'],
    ['a bad email', { email: 'not-an-address', lines: [{ ticketType: 'general', quantity: 1 }] }, 'email'],
    [
      'a general line with an eventId',
      { lines: [{ ticketType: 'general', eventId: '0196a8f4-6e2b-7c3d-9e4f-5a6b7c8d9e0f', quantity: 1 }] },
      'lines[0].eventId',
    ],
    ['an unknown line field', { lines: [{ ticketType: 'general', quantity: 1, seat: 'A1' }] }, 'lines[0].seat'],
  ])('refuses %s with 400 naming the field, selling nothing', async (_what, body, field) => {
    const date = freshDate();
    await openDay(date);
    const lines = (body.lines as Record<string, unknown>[]).map((line) => ({ ticketDate: date, ...line }));
    const res = await placeOrder(t.baseUrl, { email: 'a@example.com', ...body, lines });
    expectProblem(res, 400, ORDERS_PATH, true);
    expect((res.body.errors as { field: string }[]).map((error) => error.field)).toContain(field);
    expect([await admissionsSold(date), await ticketsFor(date)]).toEqual([0, 0]);
  });

  it('places one order for a repeated Idempotency-Key', async () => {
    const date = freshDate();
    await openDay(date);
    const body = { email: 'a@example.com', lines: [{ ticketType: 'general', ticketDate: date, quantity: 2 }] };
    const send = () =>
      request(t.baseUrl)
        .post(ORDERS_PATH)
        .set('Authorization', AUTH)
        .set('Idempotency-Key', `order-${date}`)
        .send(body);
    const first = await send();
    expectStatus(first, 201);
    const again = await send();
    expectStatus(again, 201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.orderId).toBe(first.body.orderId);
    expect([await admissionsSold(date), await ticketsFor(date)]).toEqual([2, 2]);
  });
});

describe('POST /orders/{orderId}/cancel', () => {
  async function placed(t: TestApp, date: string, eventId: string): Promise<Record<string, unknown>> {
    const res = await placeOrder(t.baseUrl, {
      email: 'family@example.com',
      lines: [
        { ticketType: 'event', eventId, ticketDate: date, quantity: 2 },
        { ticketType: 'general', ticketDate: date, quantity: 2 },
      ],
    });
    expectStatus(res, 201);
    return res.body as Record<string, unknown>;
  }

  it('cancels every ticket and gives every place back; a second cancel changes nothing', async () => {
    const date = freshDate();
    await openDay(date, { capacity: 2 });
    const eventId = await createEvent({ dates: [date], capacity: 2, capacityPerDate: 2 });
    const order = await placed(t, date, eventId);
    expect([await seatsSold(eventId), await dateSeatsSold(eventId, date), await admissionsSold(date)]).toEqual([
      2, 2, 2,
    ]);

    const cancelled = await cancelOrder(t.baseUrl, order.orderId as string);
    expectStatus(cancelled, 200);
    expect(cancelled.body).toMatchObject({ orderId: order.orderId, status: 'cancelled', refundDue: order.total });
    expect((cancelled.body.tickets as { status: string }[]).map((ticket) => ticket.status)).toEqual(
      Array(4).fill('cancelled'),
    );
    expect([await seatsSold(eventId), await dateSeatsSold(eventId, date), await admissionsSold(date)]).toEqual([
      0, 0, 0,
    ]);

    const again = await cancelOrder(t.baseUrl, order.orderId as string);
    expectStatus(again, 200);
    expect(again.body).toEqual(cancelled.body);
    expect([await seatsSold(eventId), await admissionsSold(date)]).toEqual([0, 0]);
    // The places sell again: the event and the day were full.
    await placed(t, date, eventId);
  });

  it('is partly cancelled when a ticket is cancelled on its own; the order’s cancel takes the rest', async () => {
    const date = freshDate();
    await openDay(date);
    const eventId = await createEvent({ dates: [date], capacity: 10 });
    const order = await placed(t, date, eventId);
    const orderId = order.orderId as string;
    const [first] = order.tickets as { ticketId: string }[];
    expectStatus(await cancelTicket(t.baseUrl, first.ticketId), 200);
    const read = await readOrder(t.baseUrl, orderId);
    expect(read.body).toMatchObject({ status: 'partly-cancelled', refundDue: 19.99 });

    const cancelled = await cancelOrder(t.baseUrl, orderId);
    expectStatus(cancelled, 200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', refundDue: order.total });
    expect([await seatsSold(eventId), await admissionsSold(date)]).toEqual([0, 0]);
  });

  it('refuses to cancel an order with a checked-in ticket, and cancels none of it', async () => {
    const date = suiteDate(0);
    await openDay(date);
    const eventId = await createEvent({ dates: [date], capacity: 10 });
    const order = await placed(t, date, eventId);
    const [first] = order.tickets as { ticketId: string }[];
    expectStatus(await checkInTicket(t.baseUrl, first.ticketId), 200);

    const orderId = order.orderId as string;
    const res = await cancelOrder(t.baseUrl, orderId);
    expectProblem(res, 409, `/orders/${orderId}/cancel`);
    expect(res.body.type).toBe('urn:museum:problem:ticket-checked-in');
    expect(res.body.detail).toContain(first.ticketId);
    const read = await readOrder(t.baseUrl, order.orderId as string);
    expect(read.body.status).toBe('placed');
    expect((read.body.tickets as { status: string }[]).map((ticket) => ticket.status)).toEqual([
      'checked-in',
      'active',
      'active',
      'active',
    ]);
    expect(await seatsSold(eventId)).toBe(2);
  });

  it('answers 404 for an unknown order', async () => {
    const orderId = '0196a8f4-6e2b-7c3d-9e4f-5a6b7c8d9e0f';
    expectProblem(await cancelOrder(t.baseUrl, orderId), 404, `/orders/${orderId}/cancel`);
    expectProblem(await readOrder(t.baseUrl, orderId), 404, `/orders/${orderId}`);
  });
});
