import request, { type Response } from 'supertest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TimeSlotsService } from '../../src/museum-hours/time-slots.service.js';
import { countOverlap, sendTogether } from '../helpers/raw-http.js';
import { type Body, expectProblem, expectStatus, validEvent } from '../helpers/problem-assertions.js';
import { AUTH, useTestApp } from '../helpers/test-app.js';
import { TEST_DATABASE } from '../helpers/test-database.js';
import { buyTicket, cancelTicket, readTicket } from '../tickets/api.js';
import { OPEN_EVERY_DAY, setHoursOn, setWeeklyHours } from './api.js';

/**
 * General admission by time slot (issue 48): a day's hours with slotMinutes and slotCapacity sell
 * each general ticket for one slot (ticketTime), against the slot's capacity and the day's, both
 * decided in the sale's one transaction. Over HTTP on SQLite and MySQL alike, on a fake Date fixed
 * in 2090: the days sold are weeks ahead of it whatever the machine's date.
 */

const NOW = new Date('2090-01-10T12:00:00.000Z');

const t = useTestApp();

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
});

let days = 0;
/** A date of its own for each case (2090-02-01 on), set by an exception. */
function slotDate(): string {
  days++;
  return new Date(Date.UTC(2090, 1, days)).toISOString().slice(0, 10);
}

const slotsPath = (date: string): string => `/museum-hours/${date}/slots`;

async function slotsOf(date: string): Promise<Body[]> {
  const res = await request(t.baseUrl).get(slotsPath(date)).set('Authorization', AUTH);
  expectStatus(res, 200);
  return res.body as Body[];
}

async function slottedDay(hours: Body): Promise<string> {
  const date = slotDate();
  expectStatus(await setHoursOn(t.baseUrl, date, hours), 200);
  return date;
}

const buyGeneral = (ticketDate: string, ticketTime?: string): Promise<Response> =>
  buyTicket(t.baseUrl, { ticketType: 'general', ticketDate, ...(ticketTime === undefined ? {} : { ticketTime }) });

/** The 400 of a bad field: the problem names `field`, with a message matching `message`. */
function expectFieldError(res: Response, instance: string, field: string, message: RegExp): void {
  const body = expectProblem(res, 400, instance, true);
  expect(body.errors).toEqual([expect.objectContaining({ field, message: expect.stringMatching(message) })]);
}

describe('slot grids in the hours', () => {
  it('an exception keeps slotMinutes and slotCapacity; its slots start at timeOpen, the last before timeClose', async () => {
    const date = slotDate();
    const hours = { timeOpen: '10:00', timeClose: '11:40', slotMinutes: 30, slotCapacity: 5 };
    const res = await setHoursOn(t.baseUrl, date, hours);
    expectStatus(res, 200);
    expect(res.body).toEqual({ date, ...hours });
    expect(await slotsOf(date)).toEqual([
      { time: '10:00', capacity: 5, ticketsAvailable: 5 },
      { time: '10:30', capacity: 5, ticketsAvailable: 5 },
      { time: '11:00', capacity: 5, ticketsAvailable: 5 },
      { time: '11:30', capacity: 5, ticketsAvailable: 5 },
    ]);
  });

  it('the week keeps them per weekday; a day without them reads as before, and has no slots ([])', async () => {
    const week = {
      ...OPEN_EVERY_DAY,
      friday: { timeOpen: '09:00', timeClose: '10:00', slotMinutes: 20, slotCapacity: 3 },
    };
    const res = await setWeeklyHours(t.baseUrl, week);
    expectStatus(res, 200);
    expect(res.body).toEqual(week);
    expect(res.body.monday).toEqual({ timeOpen: '09:00', timeClose: '18:00' });
    // 2090-03-03 is a Friday, 2090-03-06 a Monday.
    expect((await slotsOf('2090-03-03')).map((slot) => slot.time)).toEqual(['09:00', '09:20', '09:40']);
    expect(await slotsOf('2090-03-06')).toEqual([]);
    const plain = await slottedDay({ timeOpen: '10:00', timeClose: '12:00' });
    expect(await slotsOf(plain)).toEqual([]);
  });

  it('GET .../slots is a 404 for a closed day and a 400 for a malformed date', async () => {
    const closed = await slottedDay({ closed: true });
    expectProblem(await request(t.baseUrl).get(slotsPath(closed)).set('Authorization', AUTH), 404, slotsPath(closed));
    const bad = slotsPath('2090-02-30');
    expectProblem(await request(t.baseUrl).get(bad).set('Authorization', AUTH), 400, bad, true);
  });

  it('refuses slotMinutes 0 or 241, a slot field alone, and a grid that starts no slot before close, naming the field', async () => {
    const date = slotDate();
    const path = `/museum-hours/${date}`;
    const day = { timeOpen: '10:00', timeClose: '12:00', slotCapacity: 5 };
    expectFieldError(await setHoursOn(t.baseUrl, date, { ...day, slotMinutes: 0 }), path, 'slotMinutes', /5 to 240/);
    expectFieldError(await setHoursOn(t.baseUrl, date, { ...day, slotMinutes: 241 }), path, 'slotMinutes', /5 to 240/);
    expectFieldError(await setHoursOn(t.baseUrl, date, day), path, 'slotMinutes', /required with slotCapacity/);
    expectFieldError(
      await setHoursOn(t.baseUrl, date, { timeOpen: '10:00', timeClose: '10:00', slotMinutes: 30, slotCapacity: 5 }),
      path,
      'timeClose',
      /first slot/,
    );
    expectFieldError(
      await setHoursOn(t.baseUrl, date, { closed: true, slotMinutes: 30 }),
      path,
      'slotMinutes',
      /left out when closed/,
    );
    const week = {
      ...OPEN_EVERY_DAY,
      monday: { timeOpen: '09:00', timeClose: '18:00', slotMinutes: 241, slotCapacity: 1 },
    };
    expectFieldError(await setWeeklyHours(t.baseUrl, week), '/museum-hours/weekly', 'monday', /slotMinutes must be/);
  });
});

describe('POST /tickets on a day with slots', () => {
  it('needs a ticketTime among its slots (400 naming them), sells it, and the ticket shows it', async () => {
    const date = await slottedDay({ timeOpen: '10:00', timeClose: '11:30', slotMinutes: 30, slotCapacity: 5 });
    const times = /10:00, 10:30, 11:00$/;
    expectFieldError(await buyGeneral(date), '/tickets', 'ticketTime', times);
    expectFieldError(await buyGeneral(date, '10:15'), '/tickets', 'ticketTime', times);
    expectFieldError(await buyGeneral(date, '25:00'), '/tickets', 'ticketTime', /HH:MM/);
    const sold = await buyGeneral(date, '10:30');
    expectStatus(sold, 201);
    expect(sold.body).toMatchObject({ ticketType: 'general', ticketDate: date, ticketTime: '10:30' });
    const read = await readTicket(t.baseUrl, sold.body.ticketId as string);
    expect(read.body).toMatchObject({ ticketDate: date, ticketTime: '10:30' });
    expect((await slotsOf(date)).map((slot) => slot.ticketsAvailable)).toEqual([5, 4, 5]);
  });

  it('refuses a ticketTime for a day without slots and for an event date without sessions (400 naming it)', async () => {
    const date = await slottedDay({ timeOpen: '10:00', timeClose: '12:00' });
    expectFieldError(await buyGeneral(date, '10:00'), '/tickets', 'ticketTime', /has no time slots/);
    const plain = await buyGeneral(date);
    expectStatus(plain, 201);
    expect(plain.body).not.toHaveProperty('ticketTime');
    const event = await request(t.baseUrl)
      .post('/special-events')
      .set('Authorization', AUTH)
      .send(validEvent({ dates: [date] }));
    expectStatus(event, 201);
    const res = await buyTicket(t.baseUrl, {
      ticketType: 'event',
      eventId: event.body.eventId,
      ticketDate: date,
      ticketTime: '10:00',
    });
    expectFieldError(res, '/tickets', 'ticketTime', /must be absent: the event has no session with a time/);
  });

  it('a full slot is a 409 naming the later slots with room; the day capacity applies as well', async () => {
    const date = await slottedDay({
      timeOpen: '10:00',
      timeClose: '12:00',
      capacity: 5,
      slotMinutes: 30,
      slotCapacity: 2,
    });
    for (const time of ['10:00', '10:00', '10:30', '11:00', '11:00']) expectStatus(await buyGeneral(date, time), 201);
    // 10:30 has one place left, but the day's capacity (5) is reached.
    const dayFull = expectProblem(await buyGeneral(date, '10:30'), 409, '/tickets');
    expect(dayFull.detail).toMatch(/sold out on .*: all 5 tickets/);
    expect((await slotsOf(date)).map((slot) => slot.ticketsAvailable)).toEqual([0, 0, 0, 0]);

    const other = await slottedDay({ timeOpen: '10:00', timeClose: '12:00', slotMinutes: 30, slotCapacity: 1 });
    expectStatus(await buyGeneral(other, '10:00'), 201);
    expectStatus(await buyGeneral(other, '11:00'), 201);
    const full = expectProblem(await buyGeneral(other, '10:00'), 409, '/tickets');
    expect(full.type).toBe('urn:museum:problem:sold-out');
    expect(full.detail).toMatch(
      /at 10:00: all 1 tickets of that slot are sold; later slots with room: 10:30, 11:30\.$/,
    );
    const last = expectProblem(await buyGeneral(other, '11:00'), 409, '/tickets');
    expect(last.detail).toMatch(/later slots with room: 11:30\.$/);
  });

  it('a changed grid keeps the tickets sold at their times; the new grid sells its own', async () => {
    const date = await slottedDay({ timeOpen: '10:00', timeClose: '12:00', slotMinutes: 30, slotCapacity: 4 });
    const sold = await buyGeneral(date, '10:30');
    expectStatus(sold, 201);
    expectStatus(
      await setHoursOn(t.baseUrl, date, { timeOpen: '10:00', timeClose: '12:00', slotMinutes: 60, slotCapacity: 4 }),
      200,
    );
    expect((await readTicket(t.baseUrl, sold.body.ticketId as string)).body).toMatchObject({
      ticketTime: '10:30',
      status: 'active',
    });
    expect(await slotsOf(date)).toEqual([
      { time: '10:00', capacity: 4, ticketsAvailable: 4 },
      { time: '11:00', capacity: 4, ticketsAvailable: 4 },
    ]);
    expectFieldError(await buyGeneral(date, '10:30'), '/tickets', 'ticketTime', /10:00, 11:00$/);
    // Without slots, the day sells whole days again, its slotted tickets counted in its capacity.
    expectStatus(await setHoursOn(t.baseUrl, date, { timeOpen: '10:00', timeClose: '12:00', capacity: 2 }), 200);
    expectStatus(await buyGeneral(date), 201);
    expectProblem(await buyGeneral(date), 409, '/tickets');
  });

  it('sells exactly each slot’s capacity to concurrent buyers, whose sales overlapped', async () => {
    const date = await slottedDay({
      timeOpen: '10:00',
      timeClose: '11:30',
      capacity: 100,
      slotMinutes: 30,
      slotCapacity: 7,
    });
    const times = ['10:00', '10:30', '11:00'];
    // Each sale from its read of the day to its decision: how many were under way at once.
    const overlap = countOverlap(TimeSlotsService.prototype, ['admit']);
    const answers = await sendTogether(
      t,
      Array.from({ length: 60 }, (_, i) => ({
        method: 'POST',
        path: '/tickets',
        authorization: AUTH,
        body: { ticketType: 'general', ticketDate: date, ticketTime: times[i % 3] },
      })),
    );
    const statuses = answers.map(({ status }) => status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(21);
    expect(statuses.filter((status) => status !== 201 && status !== 409)).toEqual([]);
    // Under way at the same time, not one after the other (half is the bound, for a busy machine).
    expect(overlap()).toBeGreaterThanOrEqual(30);
    expect(await slotsOf(date)).toEqual(times.map((time) => ({ time, capacity: 7, ticketsAvailable: 0 })));
    const list = await request(t.baseUrl).get(`/museum-hours?startDate=${date}&limit=1`).set('Authorization', AUTH);
    expect(list.body).toEqual([{ date, timeOpen: '10:00', timeClose: '11:30', ticketsAvailable: 79 }]);
  }, 120_000);
});

describe('a sale decided by its write', () => {
  it('the write checks the grid the day has now: a start it no longer has, or an exception without slots, refuses', async () => {
    // The exception's grid ends earlier: 11:30, whose row a sale made, is no start of it.
    const date = await slottedDay({ timeOpen: '10:00', timeClose: '12:00', slotMinutes: 30, slotCapacity: 4 });
    expectStatus(await buyGeneral(date, '11:30'), 201);
    const shorter = { timeOpen: '10:00', timeClose: '11:30', slotMinutes: 30, slotCapacity: 4 };
    expectStatus(await setHoursOn(t.baseUrl, date, shorter), 200);
    expectFieldError(await buyGeneral(date, '11:30'), '/tickets', 'ticketTime', /10:00, 10:30, 11:00$/);
    expectStatus(await buyGeneral(date, '11:00'), 201);

    // A weekday's grid (2090-06-04 is a Sunday), then an exception without slots over it, then none.
    const sunday = '2090-06-04';
    const grid = { timeOpen: '09:00', timeClose: '10:00', slotMinutes: 20, slotCapacity: 3 };
    expectStatus(await setWeeklyHours(t.baseUrl, { ...OPEN_EVERY_DAY, sunday: grid }), 200);
    expectStatus(await buyGeneral(sunday, '09:20'), 201);
    expectStatus(await setHoursOn(t.baseUrl, sunday, { timeOpen: '09:00', timeClose: '10:00' }), 200);
    expectFieldError(await buyGeneral(sunday, '09:20'), '/tickets', 'ticketTime', /has no time slots/);
    const withSlots = { ...grid, slotMinutes: 30, slotCapacity: 2 };
    expectStatus(await setHoursOn(t.baseUrl, sunday, withSlots), 200);
    expectFieldError(await buyGeneral(sunday, '09:20'), '/tickets', 'ticketTime', /09:00, 09:30$/);
    expectStatus(await request(t.baseUrl).delete(`/museum-hours/${sunday}`).set('Authorization', AUTH), 204);
    expectStatus(await buyGeneral(sunday, '09:20'), 201);
    expect((await slotsOf(sunday)).map((slot) => slot.ticketsAvailable)).toEqual([3, 1, 3]);
  });

  it('a change of the week reaches the dates it already sold: their next sales follow the new grid', async () => {
    // 2090-06-13 is a Tuesday, sold before the week changes; 2090-06-14, a Wednesday, is left as it was.
    const tuesday = '2090-06-13';
    const wednesday = '2090-06-14';
    const grid = { timeOpen: '09:00', timeClose: '10:00', slotMinutes: 20, slotCapacity: 3 };
    expectStatus(await setWeeklyHours(t.baseUrl, { ...OPEN_EVERY_DAY, tuesday: grid, wednesday: grid }), 200);
    expectStatus(await buyGeneral(tuesday, '09:20'), 201);
    expectStatus(await buyGeneral(wednesday, '09:20'), 201);

    const wider = { timeOpen: '09:00', timeClose: '10:00', slotMinutes: 30, slotCapacity: 1 };
    expectStatus(await setWeeklyHours(t.baseUrl, { ...OPEN_EVERY_DAY, tuesday: wider, wednesday: grid }), 200);
    expectFieldError(await buyGeneral(tuesday, '09:20'), '/tickets', 'ticketTime', /09:00, 09:30$/);
    expectStatus(await buyGeneral(tuesday, '09:30'), 201);
    expect(expectProblem(await buyGeneral(tuesday, '09:30'), 409, '/tickets').detail).toMatch(/09:30.*no later slot/);
    expectStatus(await buyGeneral(wednesday, '09:20'), 201);

    // A day given a capacity below what it sold, then closed: refused, its tickets kept.
    const capped = { ...wider, capacity: 2 };
    expectStatus(await setWeeklyHours(t.baseUrl, { ...OPEN_EVERY_DAY, tuesday: capped, wednesday: grid }), 200);
    expectProblem(await buyGeneral(tuesday, '09:00'), 409, '/tickets');
    expectStatus(await setWeeklyHours(t.baseUrl, { ...OPEN_EVERY_DAY, tuesday: null, wednesday: grid }), 200);
    const closed = expectProblem(await buyGeneral(tuesday, '09:00'), 422, '/tickets');
    expect(closed.type).toBe('urn:museum:problem:museum-closed');
    expectStatus(await buyGeneral(wednesday, '09:40'), 201);
  });

  it('a slot refused as full sells again once a ticket of it is cancelled', async () => {
    const date = await slottedDay({ timeOpen: '10:00', timeClose: '11:00', slotMinutes: 30, slotCapacity: 1 });
    const first = await buyGeneral(date, '10:00');
    expectStatus(first, 201);
    const full = expectProblem(await buyGeneral(date, '10:00'), 409, '/tickets');
    expect(full.detail).toMatch(/later slots with room: 10:30\.$/);
    expectProblem(await buyGeneral(date, '10:00'), 409, '/tickets');
    expectStatus(await cancelTicket(t.baseUrl, first.body.ticketId as string), 200);
    const again = await buyGeneral(date, '10:00');
    expectStatus(again, 201);
    expect(again.body).toMatchObject({ ticketTime: '10:00' });
    expectProblem(await buyGeneral(date, '10:00'), 409, '/tickets');
  });
});

describe('the statements of a sale', () => {
  /** The SQL the request `id` ran (its log lines at trace level), once its request line is out. */
  async function queriesOf(id: string): Promise<string[]> {
    await vi.waitFor(() => expect(t.logs.some((line) => line.requestId === id && 'status' in line)).toBe(true));
    return t.logs
      .filter((line) => line.requestId === id && line.msg === 'query')
      .map((line) => String(line.query).trim().split(/\s+/)[0].toUpperCase());
  }

  const sale = async (id: string, ticketDate: string, ticketTime?: string): Promise<string[]> => {
    const res = await buyTicket(t.baseUrl, {
      ticketType: 'general',
      ticketDate,
      ...(ticketTime === undefined ? {} : { ticketTime }),
    }).set('X-Request-Id', id);
    expectStatus(res, 201);
    return queriesOf(id);
  };

  it('a slot with room is sold as a day without slots is: writes first, no read; on SQLite one UPDATE more (the slot’s), on MySQL none', async () => {
    const plain = await slottedDay({ timeOpen: '10:00', timeClose: '12:00', capacity: 10 });
    const slotted = await slottedDay({
      timeOpen: '10:00',
      timeClose: '12:00',
      capacity: 10,
      slotMinutes: 30,
      slotCapacity: 5,
    });
    // The first sale of each day makes its rows; the second is the one every later sale repeats.
    await sale('plain-first', plain);
    await sale('slotted-first', slotted, '10:30');
    const plainSale = await sale('plain-second', plain);
    const slottedSale = await sale('slotted-second', slotted, '10:30');
    const writes = (queries: string[]) => queries.filter((verb) => verb !== 'SELECT');
    const dayUpdate = writes(plainSale).indexOf('UPDATE') + 1;
    expect(dayUpdate).toBeGreaterThan(0);
    // MySQL/MariaDB take the day's place and the slot's in one multi-table UPDATE: the same round trips.
    const slotUpdate = TEST_DATABASE === 'mysql' ? [] : ['UPDATE'];
    expect(writes(slottedSale)).toEqual([
      ...writes(plainSale).slice(0, dayUpdate),
      ...slotUpdate,
      ...writes(plainSale).slice(dayUpdate),
    ]);
    expect(slottedSale.filter((verb) => verb === 'SELECT')).toEqual(plainSale.filter((verb) => verb === 'SELECT'));
  });
});

describe('GET /museum-hours/{date}/slots with public read', () => {
  const open = useTestApp({ PUBLIC_READ: 'true', PUBLIC_RATE_LIMIT: '100000' });

  it('answers anonymous callers with a public cache policy and a 304 until a sale; behind credentials, no-store', async () => {
    const date = '2090-02-20';
    const day = { timeOpen: '10:00', timeClose: '11:00', slotMinutes: 30, slotCapacity: 2 };
    expectStatus(await setHoursOn(open.baseUrl, date, day), 200);
    const path = slotsPath(date);
    const anonymous = await request(open.baseUrl).get(path);
    expectStatus(anonymous, 200);
    expect(anonymous.body).toEqual([
      { time: '10:00', capacity: 2, ticketsAvailable: 2 },
      { time: '10:30', capacity: 2, ticketsAvailable: 2 },
    ]);
    expect(anonymous.headers['cache-control']).toMatch(/^public, /);
    const etag = anonymous.headers.etag as string;
    expect((await request(open.baseUrl).get(path).set('If-None-Match', etag)).status).toBe(304);
    expectStatus(await buyTicket(open.baseUrl, { ticketType: 'general', ticketDate: date, ticketTime: '10:30' }), 201);
    const after = await request(open.baseUrl).get(path).set('If-None-Match', etag);
    expectStatus(after, 200);
    expect(after.body[1]).toEqual({ time: '10:30', capacity: 2, ticketsAvailable: 1 });
    const staff = await request(open.baseUrl).get(path).set('Authorization', AUTH);
    expect(staff.headers['cache-control']).toBe('no-store');
    expect(staff.body).toEqual(after.body);
  });
});
