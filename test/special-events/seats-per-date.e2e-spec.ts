import request, { type Response } from 'supertest';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { UsersService } from '../../src/auth/users.service.js';
import { EventSeats } from '../../src/special-events/event-seats.js';
import { countOverlap, sendTogether } from '../helpers/raw-http.js';
import {
  type Body,
  expectProblem,
  expectStatus,
  expectUnauthorized,
  validEvent,
} from '../helpers/problem-assertions.js';
import { AUTH, basicHeader, useTestApp } from '../helpers/test-app.js';
import { buyTicket } from '../tickets/api.js';

/**
 * Seats per date (issue 48): `capacityPerDate` bounds each ISO date's (or session's) tickets as well as
 * `capacity` bounds the event's, both taken in one transaction (the event's row, then the date's,
 * each with a conditional UPDATE); GET /special-events/{eventId}/availability shows them. Over
 * HTTP on SQLite and MySQL alike, on a fake Date fixed in 2090: the dates sold are weeks ahead of
 * it whatever the machine's date.
 */

const NOW = new Date('2090-01-10T12:00:00.000Z');
const D1 = '2090-02-01';
const D2 = '2090-02-02';
const D3 = '2090-02-03';
const VIEWER = { user: 'seats-viewer', password: 'seats-viewer-password' };
const VIEWER_AUTH = basicHeader(VIEWER.user, VIEWER.password);
const MERGE_PATCH = 'application/merge-patch+json';

const t = useTestApp();

beforeAll(async () => {
  await t.app.get(UsersService).add(VIEWER.user, VIEWER.password, 'viewer');
}, 60_000);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
});

async function create(fields: Body): Promise<Body> {
  const res = await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(validEvent(fields));
  expectStatus(res, 201);
  return res.body as Body;
}

const patch = (eventId: string, body: Body): Promise<Response> =>
  request(t.baseUrl)
    .patch(`/special-events/${eventId}`)
    .set('Authorization', AUTH)
    .set('Content-Type', MERGE_PATCH)
    .send(JSON.stringify(body));

const buy = (eventId: string, ticketDate: string, ticketTime?: string): Promise<Response> =>
  buyTicket(t.baseUrl, {
    ticketType: 'event',
    eventId,
    ticketDate,
    ...(ticketTime === undefined ? {} : { ticketTime }),
  });

async function availability(eventId: string, auth = AUTH): Promise<Body[]> {
  const res = await request(t.baseUrl).get(`/special-events/${eventId}/availability`).set('Authorization', auth);
  expectStatus(res, 200);
  expect(res.headers['cache-control']).toBe('no-store');
  return res.body as Body[];
}

describe('capacityPerDate on an event', () => {
  it('is returned when set, absent when not; null removes it', async () => {
    const limited = await create({ dates: [D1], capacityPerDate: 5 });
    expect(limited.capacityPerDate).toBe(5);
    expect(limited).not.toHaveProperty('ticketsAvailable');
    const plain = await create({ dates: [D1], capacityPerDate: null });
    expect(Object.keys(plain)).toEqual(['eventId', 'name', 'location', 'eventDescription', 'dates', 'price']);
    const removed = await patch(limited.eventId as string, { capacityPerDate: null });
    expectStatus(removed, 200);
    expect(removed.body).not.toHaveProperty('capacityPerDate');
  });

  it.each([0, -1, 1.5, '10', 1_000_000_001])('refuses capacityPerDate %j with a 400 naming it', async (value) => {
    const res = await request(t.baseUrl)
      .post('/special-events')
      .set('Authorization', AUTH)
      .send(validEvent({ capacityPerDate: value }));
    const problem = expectProblem(res, 400, '/special-events', true);
    expect(problem.errors).toEqual([
      { field: 'capacityPerDate', message: expect.stringMatching(/from 1 to 1000000000, or null/) as unknown },
    ]);
  });
});

describe('a sale takes a seat of its date and of the event', () => {
  it('refuses a full date (409 naming it) while other dates sell, and the event capacity still holds', async () => {
    const event = await create({
      dates: [D1, `${D2}T14:00`, `${D2}T18:00`, 'free text'],
      capacity: 3,
      capacityPerDate: 2,
    });
    const id = event.eventId as string;
    for (let i = 0; i < 2; i++) expectStatus(await buy(id, D1), 201);
    const full = expectProblem(await buy(id, D1), 409, '/tickets');
    expect(full.type).toBe('urn:museum:problem:sold-out');
    expect(full.detail).toBe(`This event is sold out on ${D1}: all 2 of that date's tickets are sold.`);
    expectStatus(await buy(id, D2, '14:00'), 201);
    // Three sold in all: the event's capacity refuses the next, though D2's sessions have seats left.
    const soldOut = expectProblem(await buy(id, D2, '18:00'), 409, '/tickets');
    expect(soldOut.detail).toMatch(/all 3 of its tickets are sold/);
    // Each ISO item as stored (each session of D2 with seats of its own); free text sells nothing.
    expect(await availability(id)).toEqual([
      { date: D1, ticketsSold: 2, ticketsAvailable: 0 },
      { date: `${D2}T14:00`, ticketsSold: 1, ticketsAvailable: 0 },
      { date: `${D2}T18:00`, ticketsSold: 0, ticketsAvailable: 0 },
    ]);
    const raised = await patch(id, { capacity: 10 });
    expectStatus(raised, 200);
    expect((await availability(id)).map((date) => date.ticketsAvailable)).toEqual([0, 1, 2]);
  });

  it('counts every date of an event without limits, so that a limit set later is checked against them', async () => {
    const event = await create({ dates: [D1, D2] });
    const id = event.eventId as string;
    for (let i = 0; i < 3; i++) expectStatus(await buy(id, D1), 201);
    expect(await availability(id)).toEqual([
      { date: D1, ticketsSold: 3, ticketsAvailable: null },
      { date: D2, ticketsSold: 0, ticketsAvailable: null },
    ]);
    const refused = expectProblem(await patch(id, { capacityPerDate: 2, price: 99 }), 409, `/special-events/${id}`);
    expect(refused.detail).toBe(
      `capacityPerDate 2 is below the 3 tickets already sold for ${D1}; give at least 3, or null for no limit per date. Nothing was changed.`,
    );
    const read = await request(t.baseUrl).get(`/special-events/${id}`).set('Authorization', AUTH);
    expect(read.body).toEqual(event);
    const exact = await patch(id, { capacityPerDate: 3 });
    expectStatus(exact, 200);
    expect(await availability(id)).toEqual([
      { date: D1, ticketsSold: 3, ticketsAvailable: 0 },
      { date: D2, ticketsSold: 0, ticketsAvailable: 3 },
    ]);
    expectProblem(await buy(id, D1), 409, '/tickets');
  });

  it("keeps a date's tickets sold when an update keeps the date, and drops a removed date's", async () => {
    const event = await create({ dates: [D1, D2], capacityPerDate: 2 });
    const id = event.eventId as string;
    expectStatus(await buy(id, D1), 201);
    expectStatus(await patch(id, { dates: [D3, D1], name: 'Renamed' }), 200);
    expect(await availability(id)).toEqual([
      { date: D3, ticketsSold: 0, ticketsAvailable: 2 },
      { date: D1, ticketsSold: 1, ticketsAvailable: 1 },
    ]);
    expectStatus(await buy(id, D1), 201);
    expectProblem(await buy(id, D1), 409, '/tickets');
    expectProblem(await buy(id, D2), 422, '/tickets');
  });

  it('sells exactly capacityPerDate of each date to concurrent buyers, whose sales overlapped', async () => {
    const event = await create({ dates: [D1, D2], capacity: 1000, capacityPerDate: 7 });
    const id = event.eventId as string;
    // Each sale from its read of the event to its decision: how many were under way at once.
    const overlap = countOverlap(EventSeats.prototype, ['reserve']);
    const answers = await sendTogether(
      t,
      Array.from({ length: 60 }, (_, i) => ({
        method: 'POST',
        path: '/tickets',
        authorization: AUTH,
        body: { ticketType: 'event', eventId: id, ticketDate: i % 2 === 0 ? D1 : D2 },
      })),
    );
    const statuses = answers.map(({ status }) => status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(14);
    expect(statuses.filter((status) => status !== 201 && status !== 409)).toEqual([]);
    // The sales were under way at the same time, not one after the other (all 60 in the runs seen
    // here, on SQLite and MariaDB; half is the bound, so a busy machine does not fail the test).
    expect(overlap()).toBeGreaterThanOrEqual(30);
    expect(await availability(id)).toEqual([
      { date: D1, ticketsSold: 7, ticketsAvailable: 0 },
      { date: D2, ticketsSold: 7, ticketsAvailable: 0 },
    ]);
    const read = await request(t.baseUrl).get(`/special-events/${id}`).set('Authorization', AUTH);
    expect(read.body).toMatchObject({ capacity: 1000, ticketsAvailable: 986 });
  }, 120_000);
});

describe('GET /special-events/{eventId}/availability', () => {
  it('answers viewers, and refuses an anonymous caller (public read off) and an unknown event', async () => {
    const event = await create({ dates: [D1], capacityPerDate: 4 });
    const id = event.eventId as string;
    expect(await availability(id, VIEWER_AUTH)).toEqual([{ date: D1, ticketsSold: 0, ticketsAvailable: 4 }]);
    const path = `/special-events/${id}/availability`;
    expectUnauthorized(await request(t.baseUrl).get(path), path);
    const missing = '/special-events/01890a5d-ac96-774b-bcce-b302099a8057/availability';
    expectProblem(await request(t.baseUrl).get(missing).set('Authorization', AUTH), 404, missing);
  });
});

describe('GET /special-events/{eventId}/availability with public read', () => {
  const open = useTestApp({ PUBLIC_READ: 'true', PUBLIC_RATE_LIMIT: '100000' });

  it('answers anonymous callers without ticketsSold, with a public cache policy and a 304', async () => {
    const res = await request(open.baseUrl)
      .post('/special-events')
      .set('Authorization', AUTH)
      .send(validEvent({ dates: [D1, D2], capacityPerDate: 4 }));
    expectStatus(res, 201);
    const id = (res.body as Body).eventId as string;
    expectStatus(await buyTicket(open.baseUrl, { ticketType: 'event', eventId: id, ticketDate: D2 }), 201);
    const path = `/special-events/${id}/availability`;
    const anonymous = await request(open.baseUrl).get(path);
    expectStatus(anonymous, 200);
    expect(anonymous.body).toEqual([
      { date: D1, ticketsAvailable: 4 },
      { date: D2, ticketsAvailable: 3 },
    ]);
    expect(anonymous.headers['cache-control']).toMatch(/^public, /);
    expect(anonymous.headers.vary).toMatch(/\bAuthorization\b/);
    const again = await request(open.baseUrl)
      .get(path)
      .set('If-None-Match', anonymous.headers.etag as string);
    expect(again.status).toBe(304);
    // A sale changes what it shows, and its tag.
    expectStatus(await buyTicket(open.baseUrl, { ticketType: 'event', eventId: id, ticketDate: D1 }), 201);
    const after = await request(open.baseUrl)
      .get(path)
      .set('If-None-Match', anonymous.headers.etag as string);
    expectStatus(after, 200);
    expect(after.body).toEqual([
      { date: D1, ticketsAvailable: 3 },
      { date: D2, ticketsAvailable: 3 },
    ]);
    const staff = await request(open.baseUrl).get(path).set('Authorization', AUTH);
    expect(staff.body).toEqual([
      { date: D1, ticketsSold: 1, ticketsAvailable: 3 },
      { date: D2, ticketsSold: 1, ticketsAvailable: 3 },
    ]);
  });
});
