import request, { type Response } from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { UsersService } from '../../src/auth/users.service.js';
import { suiteDate, useMuseumClock } from '../helpers/clock.js';
import {
  type Body,
  expectProblem,
  expectStatus,
  expectUnauthorized,
  validEvent,
} from '../helpers/problem-assertions.js';
import { AUTH, basicHeader, useTestApp } from '../helpers/test-app.js';
import { setHoursOn } from '../museum-hours/api.js';
import { buyTicket, cancelTicket, checkInTicket } from '../tickets/api.js';
import { dayAttendancePath, eventAttendancePath } from './api.js';

/**
 * GET /special-events/{eventId}/attendance and GET /museum-hours/{date}/attendance over HTTP, on
 * each database: tickets are sold, checked in and cancelled, and each date, and each slot of a
 * slotted day, answers exactly its own counts (other events', other days' and the other kind's
 * tickets left out; dates and slots without a ticket as zeros). The museum's clock is frozen at
 * SUITE_NOW, so TODAY is the day whose tickets check in.
 */

const VIEWER = { user: 'attendance-viewer', password: 'viewer-password-12345' };
const VIEWER_AUTH = basicHeader(VIEWER.user, VIEWER.password);

const TODAY = suiteDate(0);
const LATER = suiteDate(3);
const NO_SALES = suiteDate(5);
const PLAIN_DAY = suiteDate(1);

const t = useTestApp();
useMuseumClock(t);

beforeAll(async () => {
  await t.app.get(UsersService).add(VIEWER.user, VIEWER.password, 'viewer');
}, 60_000);

async function sell(body: Body, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await buyTicket(t.baseUrl, body);
    expectStatus(res, 201);
    ids.push(res.body.ticketId as string);
  }
  return ids;
}

async function checkIn(ticketId: string): Promise<void> {
  expectStatus(await checkInTicket(t.baseUrl, ticketId), 200);
}

async function cancel(ticketId: string): Promise<void> {
  expectStatus(await cancelTicket(t.baseUrl, ticketId), 200);
}

async function createEvent(dates: readonly string[]): Promise<string> {
  const event = validEvent({ dates });
  expectStatus(await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(event), 201);
  return event.eventId as string;
}

/** GET `path` as a viewer, or with `auth` (null: no credentials). */
const read = (path: string, auth: string | null = VIEWER_AUTH): Promise<Response> => {
  const req = request(t.baseUrl).get(path);
  return auth === null ? req : req.set('Authorization', auth);
};

async function attendance(path: string): Promise<Body[]> {
  const res = await read(path);
  expectStatus(res, 200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  return res.body as Body[];
}

describe('GET /special-events/{eventId}/attendance', () => {
  it('answers each ISO date item in the event order with its date counts, zeros included', async () => {
    // One session on LATER: its tickets are the session's whether or not a sale names it. TODAY,
    // whose tickets are checked in, is a date of the whole day: no entry time to wait for.
    const session = `${LATER}T14:00`;
    const dates = [session, TODAY, 'Spring, to be announced', NO_SALES, session];
    const eventId = await createEvent(dates);
    const other = await createEvent([TODAY]);
    const today = await sell({ ticketType: 'event', eventId, ticketDate: TODAY }, 5);
    const later = await sell({ ticketType: 'event', eventId, ticketDate: LATER }, 3);
    // Another event's tickets and general admission on the same day count elsewhere.
    await sell({ ticketType: 'event', eventId: other, ticketDate: TODAY }, 2);
    expectStatus(await setHoursOn(t.baseUrl, TODAY, { timeOpen: '09:00', timeClose: '18:00' }), 200);
    await sell({ ticketType: 'general', ticketDate: TODAY }, 1);

    await checkIn(today[0]);
    await checkIn(today[1]);
    await cancel(today[2]);
    await cancel(later[0]);
    await cancel(later[1]);

    const rows = await attendance(eventAttendancePath(eventId));
    // The session is listed once, free text not at all.
    expect(rows).toEqual([
      { date: session, sold: 1, checkedIn: 0, cancelled: 2 },
      { date: TODAY, sold: 4, checkedIn: 2, cancelled: 1 },
      { date: NO_SALES, sold: 0, checkedIn: 0, cancelled: 0 },
    ]);
    expect(await attendance(eventAttendancePath(other))).toEqual([
      { date: TODAY, sold: 2, checkedIn: 0, cancelled: 0 },
    ]);
  });

  it('answers zeros for an event without tickets, and [] for one with no ISO date', async () => {
    const eventId = await createEvent([NO_SALES]);
    expect(await attendance(eventAttendancePath(eventId))).toEqual([
      { date: NO_SALES, sold: 0, checkedIn: 0, cancelled: 0 },
    ]);
    expect(await attendance(eventAttendancePath(await createEvent(['Some day'])))).toEqual([]);
  });

  it('is a 404 for an unknown event and a 400 for an id that is not a UUID', async () => {
    const unknown = eventAttendancePath('0190a6f4-9c2b-7d5e-8f3a-1b2c3d4e5f60');
    expectProblem(await read(unknown), 404, unknown);
    const bad = eventAttendancePath('not-a-uuid');
    expectProblem(await read(bad), 400, bad, true);
  });

  it('is for viewers and up: anonymous callers get a 401', async () => {
    const path = eventAttendancePath(await createEvent([NO_SALES]));
    expectUnauthorized(await read(path, null), path);
    expectStatus(await read(path, AUTH), 200);
  });
});

describe('GET /museum-hours/{date}/attendance', () => {
  it('answers the day and each of its slots, zeros included, general tickets only', async () => {
    const date = TODAY;
    // 09:00 to 12:00 by the hour: slots at 09:00, 10:00 and 11:00.
    expectStatus(
      await setHoursOn(t.baseUrl, date, { timeOpen: '09:00', timeClose: '12:00', slotMinutes: 60, slotCapacity: 10 }),
      200,
    );
    const nine = await sell({ ticketType: 'general', ticketDate: date, ticketTime: '09:00' }, 4);
    const ten = await sell({ ticketType: 'general', ticketDate: date, ticketTime: '10:00' }, 2);
    const eventId = await createEvent([date]);
    await sell({ ticketType: 'event', eventId, ticketDate: date }, 3);
    await checkIn(nine[0]);
    await checkIn(nine[1]);
    await checkIn(ten[0]);
    await cancel(nine[2]);
    await cancel(ten[1]);

    // TODAY's first case sold one general ticket of the whole day before the slots: in the day's figures only.
    expect(await attendance(dayAttendancePath(date))).toEqual([
      {
        date,
        sold: 5,
        checkedIn: 3,
        cancelled: 2,
        slots: [
          { time: '09:00', sold: 3, checkedIn: 2, cancelled: 1 },
          { time: '10:00', sold: 1, checkedIn: 1, cancelled: 1 },
          { time: '11:00', sold: 0, checkedIn: 0, cancelled: 0 },
        ],
      },
    ]);
  });

  it('keeps the starts tickets hold when the grid changed, beside the new grid', async () => {
    const date = suiteDate(2);
    const hourly = { timeOpen: '09:00', timeClose: '11:00', slotMinutes: 60, slotCapacity: 10 };
    expectStatus(await setHoursOn(t.baseUrl, date, hourly), 200);
    await sell({ ticketType: 'general', ticketDate: date, ticketTime: '10:00' }, 2);
    // Half-hour slots that end before 10:00: the tickets of 10:00 stay valid, and counted.
    const halfHourly = { timeOpen: '09:00', timeClose: '10:00', slotMinutes: 30, slotCapacity: 10 };
    expectStatus(await setHoursOn(t.baseUrl, date, halfHourly), 200);
    expect(await attendance(dayAttendancePath(date))).toEqual([
      {
        date,
        sold: 2,
        checkedIn: 0,
        cancelled: 0,
        slots: [
          { time: '09:00', sold: 0, checkedIn: 0, cancelled: 0 },
          { time: '09:30', sold: 0, checkedIn: 0, cancelled: 0 },
          { time: '10:00', sold: 2, checkedIn: 0, cancelled: 0 },
        ],
      },
    ]);
  });

  it('answers a day without slots without `slots`, and a day without tickets as zeros', async () => {
    expectStatus(await setHoursOn(t.baseUrl, PLAIN_DAY, { timeOpen: '09:00', timeClose: '18:00' }), 200);
    const sold = await sell({ ticketType: 'general', ticketDate: PLAIN_DAY }, 3);
    await cancel(sold[0]);
    expect(await attendance(dayAttendancePath(PLAIN_DAY))).toEqual([
      { date: PLAIN_DAY, sold: 2, checkedIn: 0, cancelled: 1 },
    ]);
    const empty = suiteDate(40);
    expect(await attendance(dayAttendancePath(empty))).toEqual([{ date: empty, sold: 0, checkedIn: 0, cancelled: 0 }]);
  });

  it('is a 400 for a date that is not one', async () => {
    for (const date of ['2031-02-30', 'tomorrow', '2031-3-5']) {
      const path = dayAttendancePath(date);
      expectProblem(await read(path), 400, path, true);
    }
  });

  it('is for viewers and up: anonymous callers get a 401', async () => {
    const path = dayAttendancePath(NO_SALES);
    expectUnauthorized(await read(path, null), path);
    expectStatus(await read(path, AUTH), 200);
  });
});
