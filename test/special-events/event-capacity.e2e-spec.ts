import { suiteDate, useMuseumClock } from '../helpers/clock.js';
import { randomUUID } from 'node:crypto';
import request, { type Response } from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SqlStatement } from '../../src/database/sql.js';
import { EventSeats } from '../../src/special-events/event-seats.js';
import type { SpecialEvent } from '../../src/special-events/special-event.entity.js';
import { SpecialEventsRepository } from '../../src/special-events/special-events.repository.js';
import { SpecialEventsService, type TicketReservation } from '../../src/special-events/special-events.service.js';
import { type Body, expectProblem, expectStatus, validEvent } from '../helpers/problem-assertions.js';
import { AUTH, useTestApp } from '../helpers/test-app.js';
import { insertOldEvent, releaseBefore } from '../helpers/migration-history.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';
import { buyTicket, readTicket } from '../tickets/api.js';
import { removeWebhook, subscribeWebhook } from '../webhooks/api.js';

/**
 * Special events' capacity and the seat reservation the tickets module builds on (issue 28), over
 * HTTP and through SpecialEventsService.reserveTicket, on SQLite and MySQL alike. A reservation's
 * joined statement writes a row into a scratch table of this test's own: a row exists exactly
 * for every seat taken.
 */

const t = useTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
useMuseumClock(t);
const MERGE_PATCH = 'application/merge-patch+json';
/** Tickets sell up to 366 days ahead: the first date is some weeks from today, the others later. */
const DATE = suiteDate(50);

beforeAll(async () => {
  await t.app
    .get(DataSource)
    .query(
      'CREATE TABLE scratch_seats (seat_id varchar(36) NOT NULL, event_id varchar(36) NOT NULL, price double NOT NULL, PRIMARY KEY (seat_id))',
    );
});

const service = (): SpecialEventsService => t.app.get(SpecialEventsService);

/** A scratch row per seat, with the price of the event as read for it. */
const seatRow =
  (seatId = randomUUID()) =>
  (event: SpecialEvent): readonly SqlStatement[] => [
    {
      sql: 'INSERT INTO scratch_seats (seat_id, event_id, price) VALUES (?, ?, ?)',
      parameters: [seatId, event.eventId, event.price],
    },
  ];

function reserve(eventId: string, date = DATE, joined = seatRow()): Promise<TicketReservation> {
  return service().reserveTicket(eventId, date, joined);
}

async function seats(eventId: string): Promise<{ seat_id: string; price: number }[]> {
  const rows = (await t.app
    .get(DataSource)
    .query('SELECT seat_id, price FROM scratch_seats WHERE event_id = ?', [eventId])) as {
    seat_id: string;
    price: number | string;
  }[];
  return rows.map((row) => ({ seat_id: row.seat_id, price: Number(row.price) }));
}

async function create(overrides: Body = {}): Promise<Body> {
  const body = validEvent({ dates: [DATE, '2031-05-03T18:00Z', 'every Sunday'], ...overrides });
  const res = await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(body);
  expectStatus(res, 201);
  return res.body as Body;
}

const get = (eventId: string): request.Test =>
  request(t.baseUrl).get(`/special-events/${eventId}`).set('Authorization', AUTH);

const patch = (eventId: string, body: unknown): request.Test =>
  request(t.baseUrl)
    .patch(`/special-events/${eventId}`)
    .set('Authorization', AUTH)
    .set('Content-Type', MERGE_PATCH)
    .send(JSON.stringify(body));

async function available(eventId: string): Promise<unknown> {
  const res = await get(eventId);
  expectStatus(res, 200);
  return (res.body as Body).ticketsAvailable;
}

describe('capacity through create, get, list and PATCH', () => {
  it('is carried with ticketsAvailable when set, and absent (the Museum API shape) when not', async () => {
    const limited = await create({ capacity: 3 });
    expect(limited).toMatchObject({ capacity: 3, ticketsAvailable: 3 });
    const got = await get(limited.eventId as string);
    expect(got.body).toEqual(limited);
    const unlimited = await create({ capacity: null });
    expect(Object.keys(unlimited).sort()).toEqual([
      'dates',
      'eventDescription',
      'eventId',
      'location',
      'name',
      'price',
    ]);
    const plain = await create();
    expect(plain).not.toHaveProperty('capacity');
    expect((await get(plain.eventId as string)).body).not.toHaveProperty('ticketsAvailable');

    const listed = await request(t.baseUrl)
      .get(`/special-events?startDate=${DATE}&endDate=${DATE}&limit=100`)
      .set('Authorization', AUTH);
    expectStatus(listed, 200);
    const byId = new Map((listed.body as Body[]).map((event) => [event.eventId, event]));
    expect(byId.get(limited.eventId)).toEqual(limited);
    expect(byId.get(plain.eventId)).toEqual(plain);
  });

  it('is set, changed and removed (null) by PATCH', async () => {
    const event = await create();
    const id = event.eventId as string;
    let res = await patch(id, { capacity: 50 });
    expectStatus(res, 200);
    expect(res.body).toEqual({ ...event, capacity: 50, ticketsAvailable: 50 });
    res = await patch(id, { price: 3 });
    expect(res.body).toMatchObject({ price: 3, capacity: 50, ticketsAvailable: 50 });
    res = await patch(id, { capacity: null });
    expectStatus(res, 200);
    expect(res.body).toEqual({ ...event, price: 3 });
    expect((await get(id)).body).toEqual({ ...event, price: 3 });
  });

  it.each([0, -1, 1.5, '10', 1_000_000_001, true, [5]])(
    'refuses capacity %j with a 400 naming it',
    async (capacity) => {
      const body = validEvent({ capacity });
      const created = await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(body);
      const problem = expectProblem(created, 400, '/special-events', true);
      expect(problem.errors).toEqual([expect.objectContaining({ field: 'capacity' })]);
      expectStatus(await get(body.eventId as string), 404);
      const event = await create({ capacity: 7 });
      const patched = await patch(event.eventId as string, { capacity });
      expect(expectProblem(patched, 400, `/special-events/${event.eventId as string}`, true).errors).toEqual([
        expect.objectContaining({ field: 'capacity' }),
      ]);
      expect((await get(event.eventId as string)).body).toEqual(event);
    },
  );
});

describe('reserveTicket', () => {
  it('takes seats down to sold out, keeping the joined statements with each seat and only with it', async () => {
    const event = await create({ capacity: 3, price: 20 });
    const id = event.eventId as string;
    await expect(reserve(id)).resolves.toMatchObject({ outcome: 'reserved', event: { eventId: id, price: 20 } });
    expect(await available(id)).toBe(2);
    // The date part of an ISO date-time is one of the event's dates.
    await expect(reserve(id, '2031-05-03')).resolves.toMatchObject({ outcome: 'reserved' });
    expect(await available(id)).toBe(1);
    // The price kept is the one in force at the moment of the reservation.
    expectStatus(await patch(id, { price: 25 }), 200);
    await expect(reserve(id)).resolves.toMatchObject({ outcome: 'reserved', event: { price: 25 } });
    expect(await available(id)).toBe(0);
    await expect(reserve(id)).resolves.toEqual({ outcome: 'sold-out', capacity: 3 });
    expect(await available(id)).toBe(0);
    expect((await seats(id)).map((seat) => seat.price).sort((a, b) => a - b)).toEqual([20, 20, 25]);
  });

  it('takes no seat when a joined statement fails, and runs none when the seat is refused', async () => {
    const event = await create({ capacity: 2 });
    const id = event.eventId as string;
    const seatId = randomUUID();
    await expect(reserve(id, DATE, seatRow(seatId))).resolves.toMatchObject({ outcome: 'reserved' });
    // The same seat_id again: the INSERT fails (primary key), and the seat goes with it.
    await expect(reserve(id, DATE, seatRow(seatId))).rejects.toThrow(/UNIQUE constraint failed|Duplicate entry/);
    expect(await available(id)).toBe(1);
    expect(await seats(id)).toHaveLength(1);
    await expect(reserve(id)).resolves.toMatchObject({ outcome: 'reserved' });
    await expect(reserve(id)).resolves.toEqual({ outcome: 'sold-out', capacity: 2 });
    expect(await seats(id)).toHaveLength(2);
  });

  it('reserves nothing for a date that is not one of the event’s ISO dates, or a missing event', async () => {
    const event = await create({ capacity: 5 });
    const id = event.eventId as string;
    for (const date of ['2031-05-02', 'every Sunday', '2031-05-03T18:00Z', '']) {
      await expect(reserve(id, date)).resolves.toEqual({ outcome: 'not-a-date', dates: [DATE, '2031-05-03'] });
    }
    await expect(reserve(randomUUID())).resolves.toEqual({ outcome: 'no-event' });
    expectStatus(await request(t.baseUrl).delete(`/special-events/${id}`).set('Authorization', AUTH), 204);
    await expect(reserve(id)).resolves.toEqual({ outcome: 'no-event' });
    expect(await seats(id)).toEqual([]);
  });

  it('counts the tickets of an event without a capacity, so a capacity set later is checked against them', async () => {
    const event = await create();
    const id = event.eventId as string;
    for (let i = 0; i < 4; i++) await expect(reserve(id)).resolves.toMatchObject({ outcome: 'reserved' });
    expect((await get(id)).body).toEqual(event);
    const res = await patch(id, { capacity: 6 });
    expectStatus(res, 200);
    expect(res.body).toMatchObject({ capacity: 6, ticketsAvailable: 2 });
  });

  it('gives exactly the capacity to 500 concurrent reservations for 100 seats', async () => {
    const event = await create({ capacity: 100 });
    const id = event.eventId as string;
    const outcomes = await Promise.all(Array.from({ length: 500 }, () => reserve(id)));
    const counts: Record<string, number> = {};
    for (const { outcome } of outcomes) counts[outcome] = (counts[outcome] ?? 0) + 1;
    expect(counts).toEqual({ reserved: 100, 'sold-out': 400 });
    expect(await available(id)).toBe(0);
    expect(await seats(id)).toHaveLength(100);
  }, 120_000);
});

describe('lowering the capacity', () => {
  it('below the tickets sold is a 409 that changes nothing; to exactly them is allowed', async () => {
    const event = await create({ capacity: 5 });
    const id = event.eventId as string;
    for (let i = 0; i < 3; i++) await reserve(id);
    const before = await get(id);
    const refused = await patch(id, { capacity: 2, price: 99 });
    expect(expectProblem(refused, 409, `/special-events/${id}`).detail).toMatch(/capacity 2 .*3 tickets already sold/);
    const after = await get(id);
    expect(after.body).toEqual({ ...event, ticketsAvailable: 2 });
    expect(after.headers.etag).toBe(before.headers.etag);
    const lowered = await patch(id, { capacity: 3 });
    expectStatus(lowered, 200);
    expect(lowered.body).toMatchObject({ capacity: 3, ticketsAvailable: 0 });
    await expect(reserve(id)).resolves.toEqual({ outcome: 'sold-out', capacity: 3 });
  });

  it('while seats are being taken loses nothing: never more sold than the capacity, a row for every seat', async () => {
    const event = await create({ capacity: 100 });
    const id = event.eventId as string;
    const reservations = Array.from({ length: 80 }, () => reserve(id));
    const lowering = patch(id, { capacity: 40 }).then((res: Response) => res);
    const outcomes = await Promise.all(reservations);
    const res = await lowering;
    expect([200, 409]).toContain(res.status);
    const reserved = outcomes.filter(({ outcome }) => outcome === 'reserved').length;
    const final = (await get(id)).body as Body;
    expect(await seats(id)).toHaveLength(reserved);
    // Lowered: no more than 40 sold, ever. Refused: more than 40 were sold when it was decided,
    // and the capacity stayed 100 for all 80.
    const state = { status: res.status, capacity: final.capacity, ticketsAvailable: final.ticketsAvailable, reserved };
    expect(state).toEqual(
      res.status === 200
        ? { status: 200, capacity: 40, ticketsAvailable: 40 - reserved, reserved: Math.min(reserved, 40) }
        : { status: 409, capacity: 100, ticketsAvailable: 20, reserved: 80 },
    );
  }, 60_000);
});

/**
 * Holds the first write of the next PATCH until `sales` seats were taken: the PATCH read the event
 * before those sales and writes after them, the race its conditional UPDATE must decide.
 */
function salesBetweenReadAndWrite(eventId: string, sales: number): () => Promise<TicketReservation[]> {
  // As if the sales came through another instance: on MySQL this instance's turns per event
  // (EventSeats.inTurn) keep its own PATCH and sales apart, and between instances the database
  // alone must decide.
  vi.spyOn(t.app.get(EventSeats), 'inTurn').mockImplementation((_eventId, work) => work());
  const store = t.app.get(SpecialEventsRepository);
  const update = store.update.bind(store);
  let made: Promise<TicketReservation[]> | undefined;
  vi.spyOn(store, 'update').mockImplementation(async (event, version) => {
    made ??= Promise.all(Array.from({ length: sales }, () => reserve(eventId)));
    await made;
    return update(event, version);
  });
  return async () => (made === undefined ? [] : made);
}

describe('lowering the capacity while seats are taken between its read and its write', () => {
  it('to above the seats then sold: 200, with the seats sold since counted in ticketsAvailable', async () => {
    const id = (await create({ capacity: 100 })).eventId as string;
    for (let i = 0; i < 10; i++) await expect(reserve(id)).resolves.toMatchObject({ outcome: 'reserved' });
    const sales = salesBetweenReadAndWrite(id, 20);
    const res = await patch(id, { capacity: 40 });
    expect((await sales()).map(({ outcome }) => outcome)).toEqual(Array.from({ length: 20 }, () => 'reserved'));
    expectStatus(res, 200);
    expect(res.body).toMatchObject({ capacity: 40, ticketsAvailable: 10 });
    expect((await get(id)).body).toEqual(res.body);
    vi.restoreAllMocks();
    const more = await Promise.all(Array.from({ length: 15 }, () => reserve(id)));
    expect(more.filter(({ outcome }) => outcome === 'reserved')).toHaveLength(10);
    expect(await seats(id)).toHaveLength(40);
  });

  it('to below the seats then sold: 409, and the capacity stays', async () => {
    const id = (await create({ capacity: 100 })).eventId as string;
    for (let i = 0; i < 30; i++) await expect(reserve(id)).resolves.toMatchObject({ outcome: 'reserved' });
    const sales = salesBetweenReadAndWrite(id, 20);
    const res = await patch(id, { capacity: 40 });
    expect((await sales()).map(({ outcome }) => outcome)).toEqual(Array.from({ length: 20 }, () => 'reserved'));
    expect(expectProblem(res, 409, `/special-events/${id}`).detail).toMatch(/capacity 40 .*50 tickets already sold/);
    expect((await get(id)).body).toMatchObject({ capacity: 100, ticketsAvailable: 50 });
    expect(await seats(id)).toHaveLength(50);
  });
});

describe('a purchase and an unrelated PATCH of the same event', () => {
  it('a price change between the purchase reading the event and taking its seat: the purchase tries again and sells', async () => {
    const id = (await create({ capacity: 10, price: 20 })).eventId as string;
    const seatsOf = t.app.get(EventSeats);
    const take = seatsOf.take.bind(seatsOf);
    const taken = vi.spyOn(seatsOf, 'take').mockImplementationOnce(async (event, date, joined) => {
      expectStatus(await patch(id, { price: 30 }), 200);
      return take(event, date, joined);
    });
    const bought = await buyTicket(t.baseUrl, { ticketType: 'event', eventId: id, ticketDate: DATE });
    expectStatus(bought, 201);
    // The first seat was refused (the version moved), the second taken at the new price.
    expect(taken).toHaveBeenCalledTimes(2);
    const ticket = await readTicket(t.baseUrl, (bought.body as Body).ticketId as string);
    expect(ticket.body).toMatchObject({ price: 30, status: 'active' });
    expect((await get(id)).body).toMatchObject({ price: 30, capacity: 10, ticketsAvailable: 9 });
  });
});

describe('the ETag of an event with a capacity', () => {
  it('changes with a sale, so no 304 is left stale and an If-Match from before the sale is a 412', async () => {
    const event = await create({ capacity: 10 });
    const id = event.eventId as string;
    const first = await get(id);
    expect(first.headers.etag).toMatch(/^"[\x21\x23-\x7e]+"$/);
    expectStatus(await get(id).set('If-None-Match', first.headers.etag as string), 304);
    await reserve(id);
    const fresh = await get(id).set('If-None-Match', first.headers.etag as string);
    expectStatus(fresh, 200);
    expect(fresh.body).toMatchObject({ ticketsAvailable: 9 });
    expect(fresh.headers.etag).not.toBe(first.headers.etag);
    expectStatus(await get(id).set('If-None-Match', fresh.headers.etag as string), 304);
    expectProblem(
      await patch(id, { price: 1 }).set('If-Match', first.headers.etag as string),
      412,
      `/special-events/${id}`,
    );
    const updated = await patch(id, { price: 1 }).set('If-Match', fresh.headers.etag as string);
    expectStatus(updated, 200);
    expect(updated.body).toMatchObject({ price: 1, ticketsAvailable: 9 });
    expect((await get(id)).headers.etag).toBe(updated.headers.etag);
  });

  it('still lets the database decide concurrent updates with one tag: exactly one succeeds', async () => {
    const event = await create({ capacity: 10 });
    const id = event.eventId as string;
    await reserve(id);
    const tag = (await get(id)).headers.etag as string;
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => patch(id, { capacity: 20 + i }).set('If-Match', tag)),
    );
    const statuses = answers.map((res) => res.status).sort((a, b) => a - b);
    expect(statuses).toEqual([200, 412, 412, 412, 412, 412, 412, 412]);
    const winner = answers.find((res) => res.status === 200) as Response;
    expect((await get(id)).body).toEqual(winner.body);
    expect(winner.body).toMatchObject({ ticketsAvailable: ((winner.body as Body).capacity as number) - 1 });
  });

  it('stays for an event without a capacity, whose representation a sale does not change', async () => {
    const event = await create();
    const id = event.eventId as string;
    const first = await get(id);
    await expect(reserve(id)).resolves.toMatchObject({ outcome: 'reserved' });
    expectStatus(await get(id).set('If-None-Match', first.headers.etag as string), 304);
    const updated = await patch(id, { price: 2 }).set('If-Match', first.headers.etag as string);
    expectStatus(updated, 200);
    expect(updated.body).toEqual({ ...event, price: 2 });
  });
});

describe('publishNewEvent webhooks', () => {
  const receiver = new WebhookReceiver();
  let webhookId: string;

  beforeAll(async () => {
    const url = await receiver.start();
    const res = await subscribeWebhook(t.baseUrl, { url: `${url}/capacity` });
    expectStatus(res, 201);
    webhookId = (res.body as Body).webhookId as string;
  });
  afterAll(async () => {
    await removeWebhook(t.baseUrl, webhookId);
    await receiver.stop();
  });

  it('send an update exactly as GET returns it, ticketsAvailable included, and nothing for a sale alone', async () => {
    const event = await create({ capacity: 10 });
    const id = event.eventId as string;
    for (let i = 0; i < 2; i++) await expect(reserve(id)).resolves.toMatchObject({ outcome: 'reserved' });
    expectStatus(await patch(id, { price: 4 }), 200);
    const afterFirst = (await get(id)).body as Body;
    // A sale, then another update: deliveries of one event arrive in order, so a delivery for the
    // sale would come before the second update's.
    await expect(reserve(id)).resolves.toMatchObject({ outcome: 'reserved' });
    expectStatus(await patch(id, { price: 5 }), 200);
    const afterSecond = (await get(id)).body as Body;
    const ofEvent = () =>
      receiver.acknowledged().filter((delivery) => (JSON.parse(delivery.body) as Body).eventId === id);
    await receiver.waitFor(() => ofEvent().length >= 3);
    expect(
      ofEvent().map((delivery) => ({ type: delivery.headers['museum-event-type'], body: JSON.parse(delivery.body) })),
    ).toEqual([
      { type: 'special-event.created', body: event },
      { type: 'special-event.updated', body: afterFirst },
      { type: 'special-event.updated', body: afterSecond },
    ]);
    expect([afterFirst.ticketsAvailable, afterSecond.ticketsAvailable]).toEqual([8, 7]);
  });
});

describe('the migration', () => {
  it('gives the events that exist when it runs no capacity and 0 tickets sold', async () => {
    const { database, options, old, later } = await releaseBefore('EventCapacity1764400000000');
    try {
      await insertOldEvent(old, 7);
      await old.destroy();
      const upgraded = new DataSource({ ...options, migrationsRun: true });
      await upgraded.initialize();
      try {
        const rows = (await upgraded.query(
          'SELECT event_id, version, capacity, tickets_sold FROM special_events',
        )) as Body[];
        expect(
          rows.map((row) => ({ ...row, version: Number(row.version), tickets_sold: Number(row.tickets_sold) })),
        ).toEqual([{ event_id: 'a0000000-0000-4000-8000-000000000000', version: 7, capacity: null, tickets_sold: 0 }]);
        // The migrations after this one, then this one: the columns are gone, the event stays.
        for (let i = 0; i <= later; i++) await upgraded.undoLastMigration();
        await expect(upgraded.query('SELECT tickets_sold FROM special_events')).rejects.toThrow(/tickets_sold/);
        await expect(upgraded.query('SELECT capacity FROM special_events')).rejects.toThrow(/capacity/);
        await expect(upgraded.query('SELECT event_id FROM special_events')).resolves.toHaveLength(1);
      } finally {
        await upgraded.destroy();
      }
    } finally {
      if (old.isInitialized) await old.destroy();
      await database.drop();
    }
  });
});
