import request, { type Response } from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { setMuseumClock, SUITE_NOW, useMuseumClock } from '../helpers/clock.js';
import { type Body, expectProblem, expectStatus, validEvent } from '../helpers/problem-assertions.js';
import { AUTH, useTestApp } from '../helpers/test-app.js';
import { setHoursOn } from '../museum-hours/api.js';
import { buyTicket, checkInTicket, readTicket } from '../tickets/api.js';

/**
 * Timed entry at the door (issue 48): a ticket with a time (a general-admission slot, an event
 * session) is admitted from ENTRY_EARLY_MINUTES before its time until the day's close (general)
 * or its session's end (an event with durationMinutes), else until the day's end; before, a 409
 * saying when entry opens, after, a 409 saying when it closed. In Paris (UTC+1 in March), with 20
 * minutes early, the museum's clock set to each moment: SUITE_NOW's day, 2031-03-05.
 */

const t = useTestApp({ MUSEUM_TIME_ZONE: 'Europe/Paris', ENTRY_EARLY_MINUTES: '20' });
useMuseumClock(t);

const TODAY = SUITE_NOW.slice(0, 10);
const HOURS = { timeOpen: '09:00', timeClose: '17:00', slotMinutes: 60, slotCapacity: 50 };

/** Sets the museum's clock to `time` (HH:MM) today in Paris (UTC+1 on this date). */
function at(time: string): void {
  setMuseumClock(t, `${TODAY}T${time}:00+01:00`);
}

async function bought(body: Body): Promise<Body> {
  setMuseumClock(t, SUITE_NOW);
  const res = await buyTicket(t.baseUrl, body);
  expectStatus(res, 201);
  return res.body as Body;
}

const general = (ticketTime: string): Promise<Body> => bought({ ticketType: 'general', ticketDate: TODAY, ticketTime });

async function eventTicket(fields: Body, ticketTime?: string): Promise<Body> {
  const event = validEvent(fields);
  expectStatus(await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(event), 201);
  return bought({
    ticketType: 'event',
    eventId: event.eventId,
    ticketDate: TODAY,
    ...(ticketTime ? { ticketTime } : {}),
  });
}

const byCode = (code: string): Promise<Response> =>
  request(t.baseUrl).post('/check-ins').set('Authorization', AUTH).send({ code });

async function statusOf(ticket: Body): Promise<string> {
  return (await readTicket(t.baseUrl, ticket.ticketId as string)).body.status as string;
}

beforeAll(async () => {
  expectStatus(await setHoursOn(t.baseUrl, TODAY, HOURS), 200);
});

describe('a general ticket for a slot', () => {
  it('is refused before ENTRY_EARLY_MINUTES ahead of its time (409 saying when), then admitted', async () => {
    const ticket = await general('14:00');
    at('13:39');
    const early = expectProblem(
      await checkInTicket(t.baseUrl, ticket.ticketId as string),
      409,
      `/tickets/${ticket.ticketId as string}/check-in`,
    );
    expect(early.type).toBe('urn:museum:problem:ticket-too-early');
    expect(early.detail).toBe("This ticket's time is 14:00; entry opens at 13:40.");
    expect(await statusOf(ticket)).toBe('active');
    // The scanner's route says the same.
    const scanned = expectProblem(await byCode(ticket.confirmationCode as string), 409, '/check-ins');
    expect(scanned.detail).toBe("This ticket's time is 14:00; entry opens at 13:40.");
    at('13:40');
    const admitted = await byCode(ticket.confirmationCode as string);
    expectStatus(admitted, 200);
    expect(admitted.body).toMatchObject({ status: 'checked-in', ticketTime: '14:00' });
    expect(await statusOf(ticket)).toBe('checked-in');
  });

  it("is admitted until the day's close, then refused (409 saying when entry closed)", async () => {
    const [before, after] = [await general('10:00'), await general('10:00')];
    at('16:59');
    expectStatus(await checkInTicket(t.baseUrl, before.ticketId as string), 200);
    at('17:00');
    const closed = expectProblem(
      await checkInTicket(t.baseUrl, after.ticketId as string),
      409,
      `/tickets/${after.ticketId as string}/check-in`,
    );
    expect(closed.type).toBe('urn:museum:problem:ticket-entry-closed');
    expect(closed.detail).toBe("This ticket's time was 10:00; entry closed at 17:00.");
    expect(await statusOf(after)).toBe('active');
  });
});

describe('an event ticket for a session', () => {
  it("with a duration: admitted until the session's end, refused from then on", async () => {
    const fields = { dates: [`${TODAY}T14:00`], durationMinutes: 90 };
    const first = await eventTicket(fields);
    expect(first.ticketTime).toBe('14:00');
    at('13:39');
    const early = expectProblem(await byCode(first.confirmationCode as string), 409, '/check-ins');
    expect(early.detail).toBe("This ticket's time is 14:00; entry opens at 13:40.");
    at('15:29');
    expectStatus(await byCode(first.confirmationCode as string), 200);
    const late = await eventTicket(fields);
    at('15:30');
    const closed = expectProblem(await byCode(late.confirmationCode as string), 409, '/check-ins');
    expect(closed.detail).toBe("This ticket's time was 14:00; entry closed at 15:30.");
  });

  it("without a duration: admitted until the day's end; a ticket without a time, all day", async () => {
    const session = await eventTicket({ dates: [`${TODAY}T09:00`, `${TODAY}T10:00`] }, '09:00');
    const allDay = await eventTicket({ dates: [TODAY] });
    expect(allDay).not.toHaveProperty('ticketTime');
    at('23:59');
    expectStatus(await checkInTicket(t.baseUrl, session.ticketId as string), 200);
    at('00:00');
    expectStatus(await checkInTicket(t.baseUrl, allDay.ticketId as string), 200);
  });
});
