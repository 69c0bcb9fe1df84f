import request, { type Response } from 'supertest';
import { describe, expect, it } from 'vitest';
import { EventSeats } from '../../src/special-events/event-seats.js';
import { suiteDate, useMuseumClock } from '../helpers/clock.js';
import { countOverlap, sendTogether } from '../helpers/raw-http.js';
import { type Body, expectProblem, expectStatus, validEvent } from '../helpers/problem-assertions.js';
import { AUTH, useTestApp } from '../helpers/test-app.js';
import { buyTicket, cancelTicket, readTicket } from './api.js';

/**
 * Event tickets for a session (issue 48): on a date with sessions (date items
 * `YYYY-MM-DDTHH:MM`), `ticketTime` chooses one; capacityPerDate bounds each session by itself, in
 * the sale's one transaction; a PATCH may not move or remove a session with active tickets. Over
 * HTTP on SQLite and MySQL alike, the museum's clock at SUITE_NOW and the dates days after it.
 */

const t = useTestApp();
useMuseumClock(t);

const MERGE_PATCH = 'application/merge-patch+json';
const D1 = suiteDate(20);
const D2 = suiteDate(21);

async function create(fields: Body): Promise<string> {
  const res = await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(validEvent(fields));
  expectStatus(res, 201);
  return (res.body as Body).eventId as string;
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

async function availability(eventId: string): Promise<Body[]> {
  const res = await request(t.baseUrl).get(`/special-events/${eventId}/availability`).set('Authorization', AUTH);
  expectStatus(res, 200);
  return res.body as Body[];
}

/** The 400 of a bad ticketTime: the problem names the field, with a message matching `message`. */
function expectTicketTimeError(res: Response, message: RegExp): void {
  const body = expectProblem(res, 400, '/tickets', true);
  expect(body.errors).toEqual([{ field: 'ticketTime', message: expect.stringMatching(message) as unknown }]);
}

describe('an event ticket for a session', () => {
  it('takes the session ticketTime names, and shows its time', async () => {
    const id = await create({ dates: [`${D1}T18:00`, `${D1}T14:00`, D2] });
    const bought = await buy(id, D1, '18:00');
    expectStatus(bought, 201);
    expect(bought.body).toMatchObject({ ticketDate: D1, ticketTime: '18:00', eventId: id });
    const ticket = await readTicket(t.baseUrl, (bought.body as Body).ticketId as string);
    expect(ticket.body).toMatchObject({ ticketDate: D1, ticketTime: '18:00', status: 'active' });
    // A date without sessions sells as before: no time.
    const allDay = await buy(id, D2);
    expectStatus(allDay, 201);
    expect(allDay.body).not.toHaveProperty('ticketTime');
  });

  it('needs ticketTime when the date has several sessions, and names them; a time of none is refused', async () => {
    const id = await create({ dates: [`${D1}T18:00`, `${D1}T14:00`, D2] });
    expectTicketTimeError(await buy(id, D1), new RegExp(`required: .* 2 sessions on ${D1}, at 14:00, 18:00$`));
    expectTicketTimeError(
      await buy(id, D1, '15:00'),
      new RegExp(`one of the event's sessions on ${D1}: 14:00, 18:00$`),
    );
    expectTicketTimeError(await buy(id, D2, '14:00'), new RegExp(`must be absent: .*no session with a time on ${D2}`));
    // Not a time of day at all: the field's own rule.
    expectTicketTimeError(await buy(id, D1, '25:00'), /24-hour time HH:MM/);
    expect(await availability(id)).toEqual([
      { date: `${D1}T18:00`, ticketsSold: 0, ticketsAvailable: null },
      { date: `${D1}T14:00`, ticketsSold: 0, ticketsAvailable: null },
      { date: D2, ticketsSold: 0, ticketsAvailable: null },
    ]);
  });

  it("takes the only session's time when ticketTime is left out, and refuses another time", async () => {
    const id = await create({ dates: [`${D1}T11:30`] });
    const left = await buy(id, D1);
    expectStatus(left, 201);
    expect(left.body).toMatchObject({ ticketTime: '11:30' });
    expectStatus(await buy(id, D1, '11:30'), 201);
    expectTicketTimeError(await buy(id, D1, '11:00'), new RegExp(`on ${D1}: 11:30$`));
    expect(await availability(id)).toEqual([{ date: `${D1}T11:30`, ticketsSold: 2, ticketsAvailable: null }]);
  });
});

describe('capacityPerDate with sessions', () => {
  it('bounds each session by itself: a full session is a 409 naming it while the other sells', async () => {
    const id = await create({ dates: [`${D1}T14:00`, `${D1}T18:00`], capacity: 100, capacityPerDate: 2 });
    for (let i = 0; i < 2; i++) expectStatus(await buy(id, D1, '14:00'), 201);
    const full = expectProblem(await buy(id, D1, '14:00'), 409, '/tickets');
    expect(full.detail).toBe(`This event is sold out on ${D1} 14:00: all 2 of that date's tickets are sold.`);
    for (let i = 0; i < 2; i++) expectStatus(await buy(id, D1, '18:00'), 201);
    expectProblem(await buy(id, D1, '18:00'), 409, '/tickets');
    expect(await availability(id)).toEqual([
      { date: `${D1}T14:00`, ticketsSold: 2, ticketsAvailable: 0 },
      { date: `${D1}T18:00`, ticketsSold: 2, ticketsAvailable: 0 },
    ]);
    // A limit below a session's tickets sold names the session.
    const lower = expectProblem(await patch(id, { capacityPerDate: 1 }), 409, `/special-events/${id}`);
    expect(lower.detail).toContain(`${D1}T14:00`);
  });

  it('sells exactly capacityPerDate of each of two sessions on one day to concurrent buyers, whose sales overlapped', async () => {
    const id = await create({ dates: [`${D1}T10:00`, `${D1}T16:00`], capacity: 1000, capacityPerDate: 7 });
    const overlap = countOverlap(EventSeats.prototype, ['reserve']);
    const answers = await sendTogether(
      t,
      Array.from({ length: 60 }, (_, i) => ({
        method: 'POST',
        path: '/tickets',
        authorization: AUTH,
        body: { ticketType: 'event', eventId: id, ticketDate: D1, ticketTime: i % 2 === 0 ? '10:00' : '16:00' },
      })),
    );
    const statuses = answers.map(({ status }) => status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(14);
    expect(statuses.filter((status) => status !== 201 && status !== 409)).toEqual([]);
    // Under way at the same time, not one after the other (half is the bound: a busy machine passes).
    expect(overlap()).toBeGreaterThanOrEqual(30);
    expect(await availability(id)).toEqual([
      { date: `${D1}T10:00`, ticketsSold: 7, ticketsAvailable: 0 },
      { date: `${D1}T16:00`, ticketsSold: 7, ticketsAvailable: 0 },
    ]);
    const read = await request(t.baseUrl).get(`/special-events/${id}`).set('Authorization', AUTH);
    expect(read.body).toMatchObject({ capacity: 1000, ticketsAvailable: 986 });
  }, 120_000);
});

describe('a PATCH of the sessions', () => {
  it('refuses to move or remove a session with active tickets (409 naming it); other changes go through', async () => {
    const id = await create({ dates: [`${D1}T14:00`, `${D1}T18:00`], capacityPerDate: 5 });
    const bought = await buy(id, D1, '14:00');
    expectStatus(bought, 201);
    for (const dates of [[`${D1}T14:30`, `${D1}T18:00`], [`${D1}T18:00`]]) {
      const moved = expectProblem(await patch(id, { dates }), 409, `/special-events/${id}`);
      expect(moved.detail).toContain(`Tickets are sold for ${D1}T14:00,`);
    }
    // The session without tickets moves; the duration changes whatever is sold.
    const ok = await patch(id, { dates: [`${D1}T14:00`, `${D1}T19:00`], durationMinutes: 45 });
    expectStatus(ok, 200);
    expect(ok.body).toMatchObject({ dates: [`${D1}T14:00`, `${D1}T19:00`], durationMinutes: 45 });
    // The moved session sells under its new time, with seats of its own; the kept one kept its count.
    expectStatus(await buy(id, D1, '19:00'), 201);
    expectTicketTimeError(await buy(id, D1, '18:00'), /14:00, 19:00$/);
    expect(await availability(id)).toEqual([
      { date: `${D1}T14:00`, ticketsSold: 1, ticketsAvailable: 4 },
      { date: `${D1}T19:00`, ticketsSold: 1, ticketsAvailable: 4 },
    ]);
    // Once its ticket is cancelled, the session may go.
    expectStatus(await cancelTicket(t.baseUrl, (bought.body as Body).ticketId as string), 200);
    expectStatus(await patch(id, { dates: [`${D1}T19:00`] }), 200);
  });

  it('gives a session added by a PATCH, or a new event, seats of its own', async () => {
    const id = await create({ dates: [D1], capacityPerDate: 1 });
    expectStatus(await buy(id, D1), 201);
    expectStatus(await patch(id, { dates: [D1, `${D2}T09:00`, `${D2}T09:30`] }), 200);
    expectStatus(await buy(id, D2, '09:00'), 201);
    expectStatus(await buy(id, D2, '09:30'), 201);
    expectProblem(await buy(id, D2, '09:30'), 409, '/tickets');
    expect((await availability(id)).map(({ ticketsSold }) => ticketsSold)).toEqual([1, 1, 1]);
  });
});
