import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { UsersService } from '../../src/auth/users.service.js';
import { BoxOfficeService } from '../../src/tickets/box-office.service.js';
import { TicketsRepository } from '../../src/tickets/tickets.repository.js';
import { TicketRefusal } from '../../src/tickets/tickets.refusals.js';
import { TicketsService } from '../../src/tickets/tickets.service.js';
import { expectProblem, expectStatus, validEvent } from '../helpers/problem-assertions.js';
import { AUTH, basicHeader, type TestApp, useTestApp } from '../helpers/test-app.js';
import { setHoursOn } from '../museum-hours/api.js';
import { buyTicket, cancelPath, cancelTicket, checkInTicket } from './api.js';

/**
 * POST /tickets/{ticketId}/cancel over HTTP, on each database: the seat or the day's admission
 * comes back in the cancel's transaction and sells again; refundDue records what was paid; a
 * second cancel answers the same ticket and gives nothing back twice; a checked-in ticket is
 * refused, and a cancelled one is refused at the door; concurrent cancels give back one place,
 * and a cancel racing a check-in leaves one of them, never both. On a fake clock (the museum's
 * today is TODAY).
 */

const DOOR = { user: 'cancel-door', password: 'door-password-12345' };
const DOOR_AUTH = basicHeader(DOOR.user, DOOR.password);

const NOW = new Date('2026-12-01T10:00:00.000Z');
const TODAY = '2026-12-01';
/** Saturday 5 December 2026. */
const SATURDAY = '2026-12-05';

async function createEvent(t: TestApp, fields: Record<string, unknown> = {}): Promise<string> {
  const event = validEvent({ dates: [TODAY, SATURDAY], price: 19.99, ...fields });
  expectStatus(await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(event), 201);
  return event.eventId as string;
}

async function one(t: TestApp, sql: string, parameters: unknown[]): Promise<number> {
  const rows = (await t.app.get(DataSource).query(sql, parameters)) as { n: unknown }[];
  return Number(rows[0].n);
}

const seatsSold = (t: TestApp, eventId: string): Promise<number> =>
  one(t, 'SELECT tickets_sold AS n FROM special_events WHERE event_id = ?', [eventId]);
const admissionsSold = (t: TestApp, date: string): Promise<number> =>
  one(t, 'SELECT sold AS n FROM museum_general_admissions WHERE day = ?', [date]);

async function buy(t: TestApp, body: Record<string, unknown>): Promise<string> {
  const res = await buyTicket(t.baseUrl, body, DOOR_AUTH);
  expectStatus(res, 201);
  return res.body.ticketId as string;
}

describe('POST /tickets/{ticketId}/cancel', () => {
  const t = useTestApp();

  beforeAll(async () => {
    await t.app.get(UsersService).add(DOOR.user, DOOR.password, 'box-office');
  }, 60_000);

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('gives an event seat back: the sold-out event sells it again, and refundDue is what was paid', async () => {
    const eventId = await createEvent(t, { capacity: 1 });
    const ticketId = await buy(t, { ticketType: 'event', eventId, ticketDate: SATURDAY });
    expectProblem(await buyTicket(t.baseUrl, { ticketType: 'event', eventId, ticketDate: SATURDAY }), 409, '/tickets');

    const cancelled = await cancelTicket(t.baseUrl, ticketId, DOOR_AUTH);
    expectStatus(cancelled, 200);
    expect(cancelled.headers['cache-control']).toBe('no-store');
    expect(cancelled.body).toMatchObject({
      ticketId,
      eventId,
      status: 'cancelled',
      price: 19.99,
      refundDue: 19.99,
      cancelledAt: NOW.toISOString(),
      checkedInAt: null,
    });
    expect(cancelled.body.confirmationCode).toEqual(expect.any(String));
    expect(await seatsSold(t, eventId)).toBe(0);
    const event = await request(t.baseUrl).get(`/special-events/${eventId}`).set('Authorization', AUTH);
    expect(event.body).toMatchObject({ capacity: 1, ticketsAvailable: 1 });
    expect((await request(t.baseUrl).get(`/tickets/${ticketId}`).set('Authorization', AUTH)).body).toMatchObject({
      status: 'cancelled',
      refundDue: 19.99,
    });
    await buy(t, { ticketType: 'event', eventId, ticketDate: SATURDAY });
    expect(await seatsSold(t, eventId)).toBe(1);
  });

  it("gives a day's general admission back: the sold-out day sells it again", async () => {
    expectStatus(await setHoursOn(t.baseUrl, SATURDAY, { timeOpen: '09:00', timeClose: '18:00', capacity: 1 }), 200);
    const ticketId = await buy(t, { ticketType: 'general', ticketDate: SATURDAY });
    expectProblem(await buyTicket(t.baseUrl, { ticketType: 'general', ticketDate: SATURDAY }), 409, '/tickets');
    const cancelled = await cancelTicket(t.baseUrl, ticketId, DOOR_AUTH);
    expectStatus(cancelled, 200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', refundDue: cancelled.body.price });
    expect(await admissionsSold(t, SATURDAY)).toBe(0);
    await buy(t, { ticketType: 'general', ticketDate: SATURDAY });
    expect(await admissionsSold(t, SATURDAY)).toBe(1);
  });

  it('a second cancel answers 200 with the ticket as it was cancelled, and gives nothing back again', async () => {
    const eventId = await createEvent(t, { capacity: 5 });
    const ticketId = await buy(t, { ticketType: 'event', eventId, ticketDate: SATURDAY });
    await buy(t, { ticketType: 'event', eventId, ticketDate: SATURDAY });
    const first = await cancelTicket(t.baseUrl, ticketId, DOOR_AUTH);
    expectStatus(first, 200);
    vi.setSystemTime(new Date(NOW.getTime() + 60_000));
    const second = await cancelTicket(t.baseUrl, ticketId, DOOR_AUTH);
    expectStatus(second, 200);
    expect(second.body).toEqual(first.body);
    expect(await seatsSold(t, eventId)).toBe(1);
  });

  it('refuses a checked-in ticket with a 409 saying when, and the door refuses a cancelled one', async () => {
    const eventId = await createEvent(t);
    const admitted = await buy(t, { ticketType: 'event', eventId, ticketDate: TODAY });
    expectStatus(await checkInTicket(t.baseUrl, admitted, DOOR_AUTH), 200);
    const refused = expectProblem(await cancelTicket(t.baseUrl, admitted, DOOR_AUTH), 409, cancelPath(admitted));
    expect(refused).toMatchObject({
      type: 'urn:museum:problem:ticket-checked-in',
      detail: `This ticket was checked in on ${NOW.toISOString()}: a ticket that admitted its holder cannot be cancelled.`,
    });
    expect(await seatsSold(t, eventId)).toBe(1);

    const cancelled = await buy(t, { ticketType: 'event', eventId, ticketDate: TODAY });
    expectStatus(await cancelTicket(t.baseUrl, cancelled, DOOR_AUTH), 200);
    const door = expectProblem(
      await checkInTicket(t.baseUrl, cancelled, DOOR_AUTH),
      409,
      `/tickets/${cancelled}/check-in`,
    );
    expect(door).toMatchObject({ type: 'urn:museum:problem:ticket-cancelled' });
  });

  it('is a 404 for an unknown ticket and a 400 for a malformed id', async () => {
    const unknown = '0196a8f4-6e2b-7c3d-9e4f-5a6b7c8d9e0f';
    expectProblem(await cancelTicket(t.baseUrl, unknown, DOOR_AUTH), 404, cancelPath(unknown));
    expectProblem(await cancelTicket(t.baseUrl, 'nope', DOOR_AUTH), 400, cancelPath('nope'), true);
  });

  it('with an Idempotency-Key, a retry gets the first answer again', async () => {
    const eventId = await createEvent(t);
    const ticketId = await buy(t, { ticketType: 'event', eventId, ticketDate: SATURDAY });
    const send = () =>
      request(t.baseUrl).post(cancelPath(ticketId)).set('Authorization', DOOR_AUTH).set('Idempotency-Key', 'cancel-1');
    const first = await send();
    expectStatus(first, 200);
    const replay = await send();
    expectStatus(replay, 200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
  });

  it("an event's delete records what its tickets are owed: what was paid if active, 0 if checked in", async () => {
    const eventId = await createEvent(t);
    const active = await buy(t, { ticketType: 'event', eventId, ticketDate: SATURDAY });
    const admitted = await buy(t, { ticketType: 'event', eventId, ticketDate: TODAY });
    expectStatus(await checkInTicket(t.baseUrl, admitted, DOOR_AUTH), 200);
    expectStatus(await request(t.baseUrl).delete(`/special-events/${eventId}`).set('Authorization', AUTH), 204);
    const read = (id: string) => request(t.baseUrl).get(`/tickets/${id}`).set('Authorization', AUTH);
    expect((await read(active)).body).toMatchObject({ status: 'cancelled', refundDue: 19.99 });
    expect((await read(admitted)).body).toMatchObject({ status: 'cancelled', refundDue: 0 });
    // Cancelled already: a cancel answers it as it is.
    expect((await cancelTicket(t.baseUrl, active, DOOR_AUTH)).body).toMatchObject({ refundDue: 19.99 });
  });
});

/** A cancel or a check-in as the route answers it: 200, or the refusal's reason. */
async function outcome(work: Promise<unknown>): Promise<string> {
  try {
    await work;
    return 'ok';
  } catch (error) {
    if (error instanceof TicketRefusal) return error.reason;
    throw error;
  }
}

/**
 * The services called straight, all at once, so that every call reads the ticket before any
 * writes (shown: the cancel's guard runs more often than there are tickets); over HTTP the
 * requests of one client mostly finish one by one.
 */
describe('cancellation under contention (BoxOfficeService, TicketsService)', () => {
  const t = useTestApp();

  beforeAll(async () => {
    await t.app.get(UsersService).add(DOOR.user, DOOR.password, 'box-office');
  }, 60_000);

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('20 concurrent cancels of each of 10 tickets give back exactly 10 seats, and they sell again', async () => {
    const eventId = await createEvent(t, { capacity: 20 });
    const tickets: string[] = [];
    for (let i = 0; i < 20; i++) tickets.push(await buy(t, { ticketType: 'event', eventId, ticketDate: SATURDAY }));
    const cancelled = tickets.slice(0, 10);
    const guards = vi.spyOn(t.app.get(TicketsRepository), 'cancelStatement');
    const boxOffice = t.app.get(BoxOfficeService);
    const answers = await Promise.all(
      cancelled.flatMap((id) => Array.from({ length: 20 }, () => boxOffice.cancel(id))),
    );
    // More guards ran than tickets were cancelled: the calls overlapped, each reading `active`.
    expect(guards.mock.calls.length).toBeGreaterThan(cancelled.length);
    for (const id of cancelled) {
      const refunds = answers.filter((ticket) => ticket.ticketId === id).map((ticket) => ticket.refundDue);
      expect(refunds).toEqual(Array.from({ length: 20 }, () => 19.99));
    }
    expect(await seatsSold(t, eventId)).toBe(10);
    for (let i = 0; i < 10; i++) await buy(t, { ticketType: 'event', eventId, ticketDate: SATURDAY });
    expectProblem(await buyTicket(t.baseUrl, { ticketType: 'event', eventId, ticketDate: SATURDAY }), 409, '/tickets');
  }, 120_000);

  it('a cancel racing a check-in: one of them wins per ticket, and the places sold match the tickets left active', async () => {
    const eventId = await createEvent(t, { capacity: 40 });
    expectStatus(await setHoursOn(t.baseUrl, TODAY, { timeOpen: '09:00', timeClose: '18:00', capacity: 40 }), 200);
    const tickets: string[] = [];
    for (let i = 0; i < 20; i++) tickets.push(await buy(t, { ticketType: 'event', eventId, ticketDate: TODAY }));
    for (let i = 0; i < 20; i++) tickets.push(await buy(t, { ticketType: 'general', ticketDate: TODAY }));
    const guards = vi.spyOn(t.app.get(TicketsRepository), 'cancelStatement');
    const boxOffice = t.app.get(BoxOfficeService);
    const door = t.app.get(TicketsService);
    const races = await Promise.all(
      tickets.map(async (id, i) => {
        // Half the races start with the check-in, half with the cancel.
        const checkIn = i % 2 === 1 ? outcome(door.checkIn(id)) : undefined;
        const cancel = outcome(boxOffice.cancel(id));
        return { cancel: await cancel, checkIn: await (checkIn ?? outcome(door.checkIn(id))) };
      }),
    );
    expect(guards.mock.calls.length).toBeGreaterThan(0);
    const cancelled = { event: 0, general: 0 };
    for (const [i, race] of races.entries()) {
      expect([
        { cancel: 'ok', checkIn: 'cancelled' },
        { cancel: 'cancel-checked-in', checkIn: 'ok' },
      ]).toContainEqual(race);
      const ticket = await request(t.baseUrl).get(`/tickets/${tickets[i]}`).set('Authorization', AUTH);
      expect(ticket.body.status).toBe(race.cancel === 'ok' ? 'cancelled' : 'checked-in');
      expect(ticket.body.refundDue).toBe(race.cancel === 'ok' ? ticket.body.price : null);
      if (race.cancel === 'ok') cancelled[i < 20 ? 'event' : 'general'] += 1;
    }
    process.stdout.write(
      `[tickets] cancel vs check-in: ${cancelled.event + cancelled.general} of 40 races won by the cancel\n`,
    );
    expect(await seatsSold(t, eventId)).toBe(20 - cancelled.event);
    expect(await admissionsSold(t, TODAY)).toBe(20 - cancelled.general);
  }, 120_000);
});
