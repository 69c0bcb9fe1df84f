import request, { type Response } from 'supertest';
import { describe, expect, it } from 'vitest';
import { suiteDate, useMuseumClock } from '../helpers/clock.js';
import { type Body, expectProblem, expectStatus, validEvent } from '../helpers/problem-assertions.js';
import { AUTH, useTestApp } from '../helpers/test-app.js';
import { setHoursOn } from '../museum-hours/api.js';
import { buyTicket, cancelTicket } from './api.js';

/**
 * A cancelled ticket gives back every seat its sale took: the event's, and its date's or
 * session's (capacityPerDate), or the day's and its slot's, so that a full date, session or slot
 * sells again. Over HTTP on SQLite and MySQL alike, the museum's clock at SUITE_NOW.
 */

const t = useTestApp();
useMuseumClock(t);

const D1 = suiteDate(40);
const D2 = suiteDate(41);

async function sold(res: Response): Promise<string> {
  expectStatus(res, 201);
  return (res.body as Body).ticketId as string;
}

async function cancel(ticketId: string): Promise<void> {
  expectStatus(await cancelTicket(t.baseUrl, ticketId), 200);
}

describe('a cancelled ticket', () => {
  it("gives back its date's and its session's seat: a full date or session sells again", async () => {
    const event = validEvent({ dates: [D1, `${D2}T14:00`, `${D2}T18:00`], capacityPerDate: 1 });
    expectStatus(await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(event), 201);
    const buy = (ticketDate: string, ticketTime?: string) =>
      buyTicket(t.baseUrl, {
        ticketType: 'event',
        eventId: event.eventId,
        ticketDate,
        ...(ticketTime ? { ticketTime } : {}),
      });
    const [onDate, atTwo] = [await sold(await buy(D1)), await sold(await buy(D2, '14:00'))];
    expectProblem(await buy(D1), 409, '/tickets');
    expectProblem(await buy(D2, '14:00'), 409, '/tickets');
    await cancel(onDate);
    await cancel(atTwo);
    await sold(await buy(D1));
    await sold(await buy(D2, '14:00'));
    const availability = await request(t.baseUrl)
      .get(`/special-events/${event.eventId as string}/availability`)
      .set('Authorization', AUTH);
    expect(availability.body).toEqual([
      { date: D1, ticketsSold: 1, ticketsAvailable: 0 },
      { date: `${D2}T14:00`, ticketsSold: 1, ticketsAvailable: 0 },
      { date: `${D2}T18:00`, ticketsSold: 0, ticketsAvailable: 1 },
    ]);
  });

  it("gives back its slot's place: a full slot sells again", async () => {
    const hours = { timeOpen: '10:00', timeClose: '12:00', slotMinutes: 60, slotCapacity: 1 };
    expectStatus(await setHoursOn(t.baseUrl, D1, hours), 200);
    const buy = () => buyTicket(t.baseUrl, { ticketType: 'general', ticketDate: D1, ticketTime: '10:00' });
    const first = await sold(await buy());
    expectProblem(await buy(), 409, '/tickets');
    await cancel(first);
    await sold(await buy());
    const slots = await request(t.baseUrl).get(`/museum-hours/${D1}/slots`).set('Authorization', AUTH);
    expect(slots.body).toEqual([
      { time: '10:00', capacity: 1, ticketsAvailable: 0 },
      { time: '11:00', capacity: 1, ticketsAvailable: 1 },
    ]);
  });
});
