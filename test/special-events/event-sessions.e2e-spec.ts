import ICAL from 'ical.js';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { type Body, expectProblem, expectStatus, validEvent } from '../helpers/problem-assertions.js';
import { AUTH, useTestApp } from '../helpers/test-app.js';

/**
 * Sessions (issue 48): a date item `YYYY-MM-DDTHH:MM` starts at that local time in
 * MUSEUM_TIME_ZONE; `durationMinutes` gives every session its end. Over HTTP, on SQLite and MySQL
 * alike, in a zone an hour or two east of UTC. Fixed dates far ahead: nothing here reads today.
 */

const TIME_ZONE = 'Europe/Amsterdam';
const t = useTestApp({ MUSEUM_TIME_ZONE: TIME_ZONE });
const MERGE_PATCH = 'application/merge-patch+json';

async function create(body: Body): Promise<Body> {
  const res = await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(body);
  expectStatus(res, 201);
  return res.body as Body;
}

const patch = (eventId: string, body: Body) =>
  request(t.baseUrl)
    .patch(`/special-events/${eventId}`)
    .set('Authorization', AUTH)
    .set('Content-Type', MERGE_PATCH)
    .send(JSON.stringify(body));

/** The feed's VEVENTs of one event, as ical.js reads them: UID, DTSTART and DTEND (as ICAL strings). */
async function feedOf(eventId: string, range: string): Promise<{ uid: string; start: string; end?: string }[]> {
  const res = await request(t.baseUrl).get(`/special-events.ics?${range}`).set('Authorization', AUTH).buffer(true);
  expectStatus(res, 200);
  const text = res.text;
  const lines = text.slice(0, -2).split('\r\n');
  // RFC 5545's raw rules a parser may forgive: CRLF only, no line over 75 octets.
  expect(lines.filter((line) => /[\r\n]/.test(line) || Buffer.byteLength(line) > 75)).toEqual([]);
  const calendar = new ICAL.Component(ICAL.parse(text));
  return calendar
    .getAllSubcomponents('vevent')
    .filter((vevent) => String(vevent.getFirstPropertyValue('uid')).startsWith(`${eventId}-`))
    .map((vevent) => {
      const start = vevent.getFirstPropertyValue('dtstart') as ICAL.Time;
      const end = vevent.getFirstPropertyValue('dtend') as ICAL.Time | null;
      return {
        uid: String(vevent.getFirstPropertyValue('uid')).replace('@museum-special-events', ''),
        start: start.toString(),
        ...(end === null ? {} : { end: end.toString() }),
        // ical.js's own reading of the instant, to compare with what a calendar shows.
        ...(start.isDate ? {} : { startUtc: new Date(start.toUnixTime() * 1000).toISOString() }),
      };
    });
}

describe('sessions: a date item YYYY-MM-DDTHH:MM, and durationMinutes', () => {
  it('stores and returns both; an event without a duration reads as before', async () => {
    const timed = await create(
      validEvent({ dates: ['2090-12-24T18:00', '2090-12-24T14:00', '2090-12-25'], durationMinutes: 90 }),
    );
    expect(timed.dates).toEqual(['2090-12-24T18:00', '2090-12-24T14:00', '2090-12-25']);
    expect(timed.durationMinutes).toBe(90);
    const read = await request(t.baseUrl)
      .get(`/special-events/${timed.eventId as string}`)
      .set('Authorization', AUTH);
    expect(read.body).toEqual(timed);
    const plain = await create(validEvent({ dates: ['2090-12-24T18:00'] }));
    expect(Object.keys(plain)).toEqual(['eventId', 'name', 'location', 'eventDescription', 'dates', 'price']);
  });

  it('changes the duration with a PATCH, and removes it with null', async () => {
    const created = await create(validEvent({ dates: ['2090-12-24T18:00'] }));
    const eventId = created.eventId as string;
    const set = await patch(eventId, { durationMinutes: 45 });
    expectStatus(set, 200);
    expect(set.body).toMatchObject({ durationMinutes: 45 });
    const removed = await patch(eventId, { durationMinutes: null });
    expectStatus(removed, 200);
    expect(removed.body).not.toHaveProperty('durationMinutes');
  });

  it.each([
    ['a time no day has', { dates: ['2090-12-24', '2090-12-24T25:00'] }, 'dates', /item 1 \(2090-12-24T25:00\)/],
    ['minute 60', { dates: ['2090-12-24T12:60'] }, 'dates', /no such time of day/],
    ['durationMinutes 0', { durationMinutes: 0 }, 'durationMinutes', /from 1 to 1440/],
    ['durationMinutes 1441', { durationMinutes: 1441 }, 'durationMinutes', /from 1 to 1440/],
    ['durationMinutes 1.5', { durationMinutes: 1.5 }, 'durationMinutes', /whole JSON number/],
    ['durationMinutes "60"', { durationMinutes: '60' }, 'durationMinutes', /whole JSON number/],
  ])('refuses %s with a 400 naming the field, on create and on PATCH', async (_name, fields, field, message) => {
    const res = await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(validEvent(fields));
    const problem = expectProblem(res, 400, '/special-events', true);
    expect(problem.errors).toEqual([{ field, message: expect.stringMatching(message) as unknown }]);
    const created = await create(validEvent({ dates: ['2090-12-24'] }));
    const eventId = created.eventId as string;
    const patched = expectProblem(await patch(eventId, fields), 400, `/special-events/${eventId}`, true);
    expect(patched.errors).toEqual([{ field, message: expect.stringMatching(message) as unknown }]);
  });

  it('keeps accepting the offset and Z forms as before', async () => {
    const created = await create(validEvent({ dates: ['2090-12-24T18:00Z', '2090-12-24T18:00+01:00'] }));
    expect(created.dates).toEqual(['2090-12-24T18:00Z', '2090-12-24T18:00+01:00']);
  });

  it("is listed by a date range on the session's local date", async () => {
    const created = await create(validEvent({ dates: ['2091-03-04T23:30'] }));
    const list = async (start: string, end: string): Promise<string[]> => {
      const res = await request(t.baseUrl)
        .get(`/special-events?startDate=${start}&endDate=${end}&limit=100`)
        .set('Authorization', AUTH);
      expectStatus(res, 200);
      return (res.body as Body[]).map((event) => event.eventId as string);
    };
    // 23:30 in Amsterdam is 22:30 UTC on the same date: either way 2091-03-04, never the 5th.
    expect(await list('2091-03-04', '2091-03-04')).toContain(created.eventId);
    expect(await list('2091-03-05', '2091-03-05')).not.toContain(created.eventId);
  });

  it('reaches the calendar feed as timed entries in UTC, valid to ical.js, from its local time', async () => {
    const created = await create(
      validEvent({ dates: ['2090-07-01T14:00', '2090-12-24T14:00', '2090-12-25'], durationMinutes: 60 }),
    );
    const eventId = created.eventId as string;
    expect(await feedOf(eventId, 'startDate=2090-01-01&endDate=2090-12-31')).toEqual([
      // Summer time (UTC+2), then winter time (UTC+1); the bare date stays all day.
      {
        uid: `${eventId}-20900701T1400`,
        start: '2090-07-01T12:00:00Z',
        end: '2090-07-01T13:00:00Z',
        startUtc: '2090-07-01T12:00:00.000Z',
      },
      {
        uid: `${eventId}-20901224T1400`,
        start: '2090-12-24T13:00:00Z',
        end: '2090-12-24T14:00:00Z',
        startUtc: '2090-12-24T13:00:00.000Z',
      },
      { uid: `${eventId}-20901225`, start: '2090-12-25', end: '2090-12-26' },
    ]);
    // Without a duration: a start only (RFC 5545 3.6.1), still valid.
    const removed = await patch(eventId, { durationMinutes: null });
    expectStatus(removed, 200);
    const [first] = await feedOf(eventId, 'startDate=2090-07-01&endDate=2090-07-01');
    expect(first).toEqual({
      uid: `${eventId}-20900701T1400`,
      start: '2090-07-01T12:00:00Z',
      startUtc: '2090-07-01T12:00:00.000Z',
    });
  });
});
