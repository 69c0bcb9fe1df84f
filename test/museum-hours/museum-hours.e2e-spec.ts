import { randomUUID } from 'node:crypto';
import request, { type Response } from 'supertest';
import { DataSource } from 'typeorm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { UsersService } from '../../src/auth/users.service.js';
import { MuseumHoursService } from '../../src/museum-hours/museum-hours.service.js';
import { expectProblem, expectStatus, expectUnauthorized, type Body } from '../helpers/problem-assertions.js';
import { AUTH, basicHeader, useTestApp } from '../helpers/test-app.js';
import { insertOldEvent, releaseBefore } from '../helpers/migration-history.js';

/**
 * Museum hours (docs/api.md, Museum hours): getMuseumHours as the Museum API has it, the week and
 * date exceptions that set it, capacities and ticketsAvailable, and admitGeneral, the sale other
 * modules make through MuseumHoursService, under concurrency. The museum is at UTC+14
 * (Pacific/Kiritimati), so that "today" differs from the UTC date for ten hours of every day.
 * Every test sets the week it needs and uses dates of its own.
 */

const TIME_ZONE = 'Pacific/Kiritimati';
const VIEWER = { user: 'hours-viewer', password: 'hours-viewer-password' };
const EDITOR = { user: 'hours-editor', password: 'hours-editor-password' };
const VIEWER_AUTH = basicHeader(VIEWER.user, VIEWER.password);
const EDITOR_AUTH = basicHeader(EDITOR.user, EDITOR.password);
const HOURS = '/museum-hours';
const WEEKLY = '/museum-hours/weekly';

const t = useTestApp({ MUSEUM_TIME_ZONE: TIME_ZONE });

beforeAll(async () => {
  await t.app.get(UsersService).add(VIEWER.user, VIEWER.password, 'viewer');
  await t.app.get(UsersService).add(EDITOR.user, EDITOR.password, 'editor');
}, 60_000);

afterEach(() => {
  vi.useRealTimers();
});

const day = (timeOpen: string, timeClose: string, capacity?: number): Body =>
  capacity === undefined ? { timeOpen, timeClose } : { timeOpen, timeClose, capacity };

const CLOSED_WEEK: Body = {
  monday: null,
  tuesday: null,
  wednesday: null,
  thursday: null,
  friday: null,
  saturday: null,
  sunday: null,
};

/** Monday to Friday 09:00-18:00, the weekend closed: the Museum API's example. */
const WORKING_WEEK: Body = {
  ...CLOSED_WEEK,
  monday: day('09:00', '18:00'),
  tuesday: day('09:00', '18:00'),
  wednesday: day('09:00', '18:00'),
  thursday: day('09:00', '18:00'),
  friday: day('09:00', '18:00'),
};

async function setWeek(week: Body): Promise<Response> {
  const res = await request(t.baseUrl).put(WEEKLY).set('Authorization', EDITOR_AUTH).send(week);
  expectStatus(res, 200);
  return res;
}

async function setException(date: string, body: Body, status = 200): Promise<Response> {
  const res = await request(t.baseUrl).put(`${HOURS}/${date}`).set('Authorization', EDITOR_AUTH).send(body);
  expectStatus(res, status);
  return res;
}

function hours(query = '', authorization = VIEWER_AUTH): request.Test {
  return request(t.baseUrl).get(`${HOURS}${query}`).set('Authorization', authorization);
}

async function listed(query: string): Promise<Body[]> {
  const res = await hours(query);
  expectStatus(res, 200);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  return res.body as Body[];
}

describe('before any week is set', () => {
  it('the museum is closed every day: the week is all null and the list is []', async () => {
    const week = await request(t.baseUrl).get(WEEKLY).set('Authorization', VIEWER_AUTH);
    expectStatus(week, 200);
    expect(week.body).toEqual(CLOSED_WEEK);
    expect(await listed('')).toEqual([]);
    expect(await listed('?startDate=2090-01-01&limit=30')).toEqual([]);
  });
});

describe('GET /museum-hours (getMuseumHours)', () => {
  it('lists the open days from startDate in date order, the closed weekend left out', async () => {
    await setWeek(WORKING_WEEK);
    // 2090-01-06 is a Friday.
    expect(await listed('?startDate=2090-01-06&limit=4')).toEqual([
      { date: '2090-01-06', timeOpen: '09:00', timeClose: '18:00' },
      { date: '2090-01-09', timeOpen: '09:00', timeClose: '18:00' },
      { date: '2090-01-10', timeOpen: '09:00', timeClose: '18:00' },
      { date: '2090-01-11', timeOpen: '09:00', timeClose: '18:00' },
    ]);
  });

  it('pages: limit defaults to 10, page 2 continues where page 1 stopped, with no day twice', async () => {
    await setWeek(WORKING_WEEK);
    const first = await listed('?startDate=2090-02-01');
    expect(first).toHaveLength(10);
    const second = await listed('?startDate=2090-02-01&page=2&limit=10');
    const both = await listed('?startDate=2090-02-01&limit=20');
    expect([...first, ...second]).toEqual(both);
    expect(new Set(both.map((item) => item.date)).size).toBe(20);
    expect(both.map((item) => item.date)).toEqual(both.map((item) => item.date as string).sort());
    expect(await listed('?startDate=2090-02-01&limit=30')).toHaveLength(30);
  });

  it("lets a date's exception replace its weekday: a closed weekday, an open Saturday, other hours", async () => {
    await setWeek(WORKING_WEEK);
    // 2090-03-03 is a Friday, 03-04 a Saturday, 03-06 a Monday, 03-07 a Tuesday.
    await setException('2090-03-03', { closed: true });
    await setException('2090-03-04', { timeOpen: '10:00', timeClose: '14:00' });
    await setException('2090-03-07', { timeOpen: '12:00', timeClose: '22:30' });
    expect(await listed('?startDate=2090-03-03&limit=3')).toEqual([
      { date: '2090-03-04', timeOpen: '10:00', timeClose: '14:00' },
      { date: '2090-03-06', timeOpen: '09:00', timeClose: '18:00' },
      { date: '2090-03-07', timeOpen: '12:00', timeClose: '22:30' },
    ]);
    const removed = await request(t.baseUrl).delete(`${HOURS}/2090-03-03`).set('Authorization', EDITOR_AUTH);
    expectStatus(removed, 204);
    expect(removed.text).toBe('');
    expect((await listed('?startDate=2090-03-03&limit=1'))[0]).toEqual({
      date: '2090-03-03',
      timeOpen: '09:00',
      timeClose: '18:00',
    });
  });

  it('looks 366 days ahead at most: an exception a year out is found, one beyond is not, from the same start', async () => {
    await setWeek(CLOSED_WEEK);
    await setException('2091-04-10', { timeOpen: '09:00', timeClose: '10:00' });
    // 2090-04-10 + 365 days = 2091-04-10, the last day of the horizon.
    expect(await listed('?startDate=2090-04-10')).toEqual([
      { date: '2091-04-10', timeOpen: '09:00', timeClose: '10:00' },
    ]);
    expect(await listed('?startDate=2090-04-09')).toEqual([]);
    expect(await listed('?startDate=2091-04-10')).toHaveLength(1);
  });

  it('answers a page far beyond the open days with [] without walking to it', async () => {
    await setWeek(WORKING_WEEK);
    expect(await listed('?startDate=2095-05-01&page=9007199254740991&limit=30')).toEqual([]);
    expect(await listed('?startDate=2095-05-01&page=13&limit=30')).toEqual([]);
    // 261 weekdays in the 366 days from 2095-05-01 (a Sunday): page 9 of 30 has the last 21.
    expect(await listed('?startDate=2095-05-01&page=9&limit=30')).toHaveLength(21);
  });

  it('lists from 9999-12-31 without passing the last date there is', async () => {
    await setWeek({ ...WORKING_WEEK, friday: day('09:00', '17:00') });
    // 9999-12-31 is a Friday.
    expect(await listed('?startDate=9999-12-31')).toEqual([
      { date: '9999-12-31', timeOpen: '09:00', timeClose: '17:00' },
    ]);
  });

  it("defaults startDate to today in MUSEUM_TIME_ZONE, which changes at the museum's midnight, not UTC's", async () => {
    await setWeek({ ...CLOSED_WEEK, tuesday: day('09:00', '18:00'), wednesday: day('10:00', '17:00') });
    vi.useFakeTimers({ toFake: ['Date'] });
    // 2090-01-03 is a Tuesday. 09:59 UTC is 23:59 on the Tuesday at UTC+14.
    vi.setSystemTime(new Date('2090-01-03T09:59:00Z'));
    expect((await listed('?limit=2')).map((item) => item.date)).toEqual(['2090-01-03', '2090-01-04']);
    // A minute later it is Wednesday in the museum (and still Tuesday in UTC).
    vi.setSystemTime(new Date('2090-01-03T10:00:00Z'));
    expect((await listed('?limit=2')).map((item) => item.date)).toEqual(['2090-01-04', '2090-01-10']);
    // The day before, 10:00 UTC is already Tuesday in the museum.
    vi.setSystemTime(new Date('2090-01-02T10:00:00Z'));
    expect((await listed('?limit=1')).map((item) => item.date)).toEqual(['2090-01-03']);
  });

  it('carries ticketsAvailable only on days with a capacity, from the exception, else the weekday', async () => {
    await setWeek({ ...CLOSED_WEEK, monday: day('09:00', '18:00', 3), tuesday: day('09:00', '18:00') });
    // 2090-06-05 is a Monday, 06-06 a Tuesday, 06-12 a Monday with an exception of its own.
    await setException('2090-06-12', { timeOpen: '09:00', timeClose: '12:00', capacity: 2 });
    const service = t.app.get(MuseumHoursService);
    await expect(service.admitGeneral('2090-06-05', [])).resolves.toEqual({ outcome: 'admitted' });
    await expect(service.admitGeneral('2090-06-12', [])).resolves.toEqual({ outcome: 'admitted' });
    expect(await listed('?startDate=2090-06-05&limit=4')).toEqual([
      { date: '2090-06-05', timeOpen: '09:00', timeClose: '18:00', ticketsAvailable: 2 },
      { date: '2090-06-06', timeOpen: '09:00', timeClose: '18:00' },
      { date: '2090-06-12', timeOpen: '09:00', timeClose: '12:00', ticketsAvailable: 1 },
      { date: '2090-06-13', timeOpen: '09:00', timeClose: '18:00' },
    ]);
  });

  it('is 400 for a malformed startDate, page or limit, naming each', async () => {
    for (const [query, field] of [
      ['?startDate=2090-02-30', 'startDate'],
      ['?startDate=tomorrow', 'startDate'],
      ['?startDate=2090-1-1', 'startDate'],
      ['?limit=0', 'limit'],
      ['?limit=31', 'limit'],
      ['?limit=ten', 'limit'],
      ['?page=0', 'page'],
      ['?page=-1', 'page'],
      ['?page=1.5', 'page'],
      ['?limt=5', 'limt'],
    ]) {
      const res = await hours(query);
      const problem = expectProblem(res, 400, HOURS, true);
      expect({ query, fields: (problem.errors as Body[]).map((error) => error.field) }).toEqual({
        query,
        fields: [field],
      });
    }
  });

  it('is 401 without credentials', async () => {
    expectUnauthorized(await request(t.baseUrl).get(HOURS), HOURS);
  });
});

describe('the week: GET and PUT /museum-hours/weekly', () => {
  it('answers the week as stored, capacity only where set, and reads it back', async () => {
    const week = { ...WORKING_WEEK, saturday: day('10:00', '16:00', 250) };
    const res = await setWeek(week);
    expect(res.body).toEqual(week);
    const read = await request(t.baseUrl).get(WEEKLY).set('Authorization', VIEWER_AUTH);
    expectStatus(read, 200);
    expect(read.body).toEqual(week);
  });

  it('is 400 for a missing day, bad times, a day past midnight, a bad capacity, unknown keys', async () => {
    const cases: [Body, string[]][] = [
      [{ ...WORKING_WEEK, sunday: undefined }, ['sunday']],
      [{ ...WORKING_WEEK, monday: day('9:00', '18:00') }, ['monday']],
      [{ ...WORKING_WEEK, monday: day('09:00', '24:00') }, ['monday']],
      [{ ...WORKING_WEEK, monday: day('22:00', '02:00') }, ['monday']],
      [{ ...WORKING_WEEK, monday: day('09:00', '09:00') }, ['monday']],
      [{ ...WORKING_WEEK, tuesday: day('09:00', '18:00', 0) }, ['tuesday']],
      [{ ...WORKING_WEEK, tuesday: { timeOpen: '09:00', timeClose: '18:00', capacity: '5' } }, ['tuesday']],
      [{ ...WORKING_WEEK, wednesday: { timeOpen: '09:00', timeClose: '18:00', open: true } }, ['wednesday']],
      [{ ...WORKING_WEEK, thursday: 'closed' }, ['thursday']],
      [{ ...WORKING_WEEK, holiday: null }, ['holiday']],
    ];
    for (const [body, fields] of cases) {
      const res = await request(t.baseUrl).put(WEEKLY).set('Authorization', EDITOR_AUTH).send(body);
      const problem = expectProblem(res, 400, WEEKLY, true);
      expect((problem.errors as Body[]).map((error) => error.field)).toEqual(fields);
    }
    const pastMidnight = await request(t.baseUrl)
      .put(WEEKLY)
      .set('Authorization', EDITOR_AUTH)
      .send({ ...WORKING_WEEK, monday: day('22:00', '02:00') });
    expect((pastMidnight.body as Body).errors).toEqual([
      {
        field: 'monday',
        message: 'monday is invalid: timeClose must be after timeOpen (a day may not run past midnight)',
      },
    ]);
  });

  it('is 403 for a viewer, 401 without credentials, 415 for a body that is not JSON', async () => {
    await setWeek(WORKING_WEEK);
    const viewer = await request(t.baseUrl).put(WEEKLY).set('Authorization', VIEWER_AUTH).send(CLOSED_WEEK);
    expectProblem(viewer, 403, WEEKLY);
    expectUnauthorized(await request(t.baseUrl).put(WEEKLY).send(CLOSED_WEEK), WEEKLY);
    const text = await request(t.baseUrl)
      .put(WEEKLY)
      .set('Authorization', EDITOR_AUTH)
      .set('Content-Type', 'text/plain')
      .send('monday');
    expectProblem(text, 415, WEEKLY);
    const read = await request(t.baseUrl).get(WEEKLY).set('Authorization', AUTH);
    expect(read.body).toEqual(WORKING_WEEK);
    expectUnauthorized(await request(t.baseUrl).get(WEEKLY), WEEKLY);
  });
});

describe('date exceptions: PUT and DELETE /museum-hours/{date}', () => {
  it('answers the exception as stored, and a second PUT replaces the first', async () => {
    const open = await setException('2090-07-03', { timeOpen: '08:00', timeClose: '20:00', capacity: 40 });
    expect(open.body).toEqual({ date: '2090-07-03', timeOpen: '08:00', timeClose: '20:00', capacity: 40 });
    const closed = await setException('2090-07-03', { closed: true });
    expect(closed.body).toEqual({ date: '2090-07-03', closed: true });
    await setWeek(WORKING_WEEK);
    // 2090-07-03 is a Monday: closed by its exception.
    expect((await listed('?startDate=2090-07-03&limit=1'))[0].date).toBe('2090-07-04');
  });

  it('is 400 for a malformed date or body, naming the fields', async () => {
    const cases: [string, Body, string[]][] = [
      ['2090-02-30', { closed: true }, ['date']],
      ['weeklyx', { closed: true }, ['date']],
      ['2090-07-04', {}, ['timeOpen', 'timeClose']],
      ['2090-07-04', { closed: false }, ['closed']],
      ['2090-07-04', { closed: true, timeOpen: '09:00' }, ['timeOpen']],
      ['2090-07-04', { timeOpen: '09:00' }, ['timeClose']],
      ['2090-07-04', { timeOpen: '18:00', timeClose: '09:00' }, ['timeClose']],
      ['2090-07-04', { timeOpen: '09:00', timeClose: '18:00', capacity: 1.5 }, ['capacity']],
      ['2090-07-04', { timeOpen: '09:00', timeClose: '18:00', capacity: null }, ['capacity']],
      ['2090-07-04', { timeOpen: '09:00', timeClose: '18:00', note: 'x' }, ['note']],
    ];
    for (const [date, body, fields] of cases) {
      const res = await request(t.baseUrl).put(`${HOURS}/${date}`).set('Authorization', EDITOR_AUTH).send(body);
      const problem = expectProblem(res, 400, `${HOURS}/${date}`, true);
      expect({ date, body, fields: (problem.errors as Body[]).map((error) => error.field) }).toEqual({
        date,
        body,
        fields,
      });
    }
  });

  it('DELETE is 404 when the date has no exception, 400 for a malformed date', async () => {
    expectProblem(
      await request(t.baseUrl).delete(`${HOURS}/2090-07-05`).set('Authorization', EDITOR_AUTH),
      404,
      `${HOURS}/2090-07-05`,
    );
    expectProblem(
      await request(t.baseUrl).delete(`${HOURS}/2090-7-5`).set('Authorization', EDITOR_AUTH),
      400,
      `${HOURS}/2090-7-5`,
      true,
    );
  });

  it('needs editor: 403 for a viewer, 401 without credentials, and nothing changes', async () => {
    await setException('2090-07-06', { closed: true });
    const path = `${HOURS}/2090-07-06`;
    expectProblem(
      await request(t.baseUrl).put(path).set('Authorization', VIEWER_AUTH).send({ closed: true }),
      403,
      path,
    );
    expectProblem(await request(t.baseUrl).delete(path).set('Authorization', VIEWER_AUTH), 403, path);
    expectUnauthorized(await request(t.baseUrl).put(path).send({ closed: true }), path);
    expectUnauthorized(await request(t.baseUrl).delete(path), path);
    expectStatus(await request(t.baseUrl).delete(path).set('Authorization', EDITOR_AUTH), 204);
  });

  it('is 409 when it would close a date with general tickets sold or set its capacity below them', async () => {
    await setWeek(WORKING_WEEK);
    const service = t.app.get(MuseumHoursService);
    // 2090-08-01 is a Tuesday.
    for (let i = 0; i < 3; i++)
      await expect(service.admitGeneral('2090-08-01', [])).resolves.toEqual({ outcome: 'admitted' });
    const path = `${HOURS}/2090-08-01`;
    const close = await request(t.baseUrl).put(path).set('Authorization', EDITOR_AUTH).send({ closed: true });
    expect(expectProblem(close, 409, path).detail).toBe(
      '3 general-admission ticket(s) are sold for 2090-08-01: the museum cannot be closed that day.',
    );
    const lower = await request(t.baseUrl)
      .put(path)
      .set('Authorization', EDITOR_AUTH)
      .send({ timeOpen: '09:00', timeClose: '12:00', capacity: 2 });
    expect(expectProblem(lower, 409, path).detail).toBe(
      '3 general-admission ticket(s) are sold for 2090-08-01: its capacity cannot be below that.',
    );
    expect(await listed('?startDate=2090-08-01&limit=1')).toEqual([
      { date: '2090-08-01', timeOpen: '09:00', timeClose: '18:00' },
    ]);
    // Exactly what is sold is accepted: sold out.
    await setException('2090-08-01', { timeOpen: '09:00', timeClose: '12:00', capacity: 3 });
    expect(await listed('?startDate=2090-08-01&limit=1')).toEqual([
      { date: '2090-08-01', timeOpen: '09:00', timeClose: '12:00', ticketsAvailable: 0 },
    ]);
    await expect(service.admitGeneral('2090-08-01', [])).resolves.toEqual({ outcome: 'sold-out', capacity: 3 });
  });

  it('lets the week go below what is sold: the tickets stay, ticketsAvailable shows 0', async () => {
    await setWeek(WORKING_WEEK);
    const service = t.app.get(MuseumHoursService);
    // 2090-08-08 is a Tuesday.
    for (let i = 0; i < 2; i++) await service.admitGeneral('2090-08-08', []);
    await setWeek({ ...WORKING_WEEK, tuesday: day('09:00', '18:00', 1) });
    expect(await listed('?startDate=2090-08-08&limit=1')).toEqual([
      { date: '2090-08-08', timeOpen: '09:00', timeClose: '18:00', ticketsAvailable: 0 },
    ]);
    await expect(service.admitGeneral('2090-08-08', [])).resolves.toEqual({ outcome: 'sold-out', capacity: 1 });
  });

  it('counts the sales of a page even when dates with sales that are closed now come before them', async () => {
    const weekday = (capacity?: number) => day('09:00', '18:00', capacity);
    const open: Body = { ...CLOSED_WEEK, monday: weekday(5), tuesday: weekday(5), wednesday: weekday(5) };
    await setWeek({ ...open, thursday: weekday(5), friday: weekday(5) });
    const service = t.app.get(MuseumHoursService);
    // 2091-02-05 is a Monday. One sale Monday and Tuesday, two Wednesday, one Thursday.
    for (const date of ['2091-02-05', '2091-02-06', '2091-02-07', '2091-02-07', '2091-02-08']) {
      await expect(service.admitGeneral(date, [])).resolves.toEqual({ outcome: 'admitted' });
    }
    // Monday and Tuesday close: their sales are the first a page of two finds, yet not its days.
    await setWeek({ ...open, monday: null, tuesday: null, thursday: weekday(5), friday: weekday(5) });
    expect(await listed('?startDate=2091-02-05&limit=2')).toEqual([
      { date: '2091-02-07', timeOpen: '09:00', timeClose: '18:00', ticketsAvailable: 3 },
      { date: '2091-02-08', timeOpen: '09:00', timeClose: '18:00', ticketsAvailable: 4 },
    ]);
    expect(await listed('?startDate=2091-02-05&limit=1&page=2')).toEqual([
      { date: '2091-02-08', timeOpen: '09:00', timeClose: '18:00', ticketsAvailable: 4 },
    ]);
    expect(await listed('?startDate=2091-02-05&limit=3')).toEqual([
      { date: '2091-02-07', timeOpen: '09:00', timeClose: '18:00', ticketsAvailable: 3 },
      { date: '2091-02-08', timeOpen: '09:00', timeClose: '18:00', ticketsAvailable: 4 },
      { date: '2091-02-09', timeOpen: '09:00', timeClose: '18:00', ticketsAvailable: 5 },
    ]);
  });
});

describe('admitGeneral (MuseumHoursService)', () => {
  const JOINED = 'museum_hours_test_joined';

  beforeAll(async () => {
    await t.app
      .get(DataSource)
      .query(`CREATE TABLE ${JOINED} (id varchar(36) NOT NULL PRIMARY KEY, day char(10) NOT NULL)`);
  });

  const joined = (date: string, id = randomUUID()) => [
    { sql: `INSERT INTO ${JOINED} (id, day) VALUES (?, ?)`, parameters: [id, date] },
  ];

  async function joinedOn(date: string): Promise<number> {
    const rows = (await t.app.get(DataSource).query(`SELECT COUNT(*) AS n FROM ${JOINED} WHERE day = ?`, [date])) as {
      n: number | string;
    }[];
    return Number(rows[0].n);
  }

  it('is closed on a closed weekday and on a date closed by its exception, and runs nothing joined', async () => {
    await setWeek(WORKING_WEEK);
    const service = t.app.get(MuseumHoursService);
    // 2090-09-02 is a Saturday; 2090-09-04 a Monday.
    await expect(service.admitGeneral('2090-09-02', joined('2090-09-02'))).resolves.toEqual({ outcome: 'closed' });
    await setException('2090-09-04', { closed: true });
    await expect(service.admitGeneral('2090-09-04', joined('2090-09-04'))).resolves.toEqual({ outcome: 'closed' });
    await setException('2090-09-02', { timeOpen: '10:00', timeClose: '12:00' });
    await expect(service.admitGeneral('2090-09-02', joined('2090-09-02'))).resolves.toEqual({ outcome: 'admitted' });
    expect(await joinedOn('2090-09-04')).toBe(0);
    expect(await joinedOn('2090-09-02')).toBe(1);
  });

  it('keeps the sale and the joined statements together: a joined statement that fails undoes the sale', async () => {
    await setWeek({ ...WORKING_WEEK, monday: day('09:00', '18:00', 5) });
    const service = t.app.get(MuseumHoursService);
    // 2090-09-11 is a Monday.
    const id = randomUUID();
    await service.admitGeneral('2090-09-11', joined('2090-09-11', id));
    await expect(service.admitGeneral('2090-09-11', joined('2090-09-11', id))).rejects.toThrow(/UNIQUE|Duplicate/);
    expect(await listed('?startDate=2090-09-11&limit=1')).toEqual([
      { date: '2090-09-11', timeOpen: '09:00', timeClose: '18:00', ticketsAvailable: 4 },
    ]);
  });

  it('admits exactly the capacity of 300 concurrent admissions for a day of 100, with each joined once', async () => {
    await setWeek(WORKING_WEEK);
    // 2090-10-02 is a Monday; its exception gives it 100.
    await setException('2090-10-02', { timeOpen: '09:00', timeClose: '18:00', capacity: 100 });
    const service = t.app.get(MuseumHoursService);
    const outcomes = await Promise.all(
      Array.from({ length: 300 }, () => service.admitGeneral('2090-10-02', joined('2090-10-02'))),
    );
    const counts = outcomes.reduce<Record<string, number>>(
      (sum, { outcome }) => ({ ...sum, [outcome]: (sum[outcome] ?? 0) + 1 }),
      {},
    );
    expect(counts).toEqual({ admitted: 100, 'sold-out': 200 });
    expect(outcomes.filter((outcome) => outcome.outcome === 'sold-out')).toContainEqual({
      outcome: 'sold-out',
      capacity: 100,
    });
    expect(await joinedOn('2090-10-02')).toBe(100);
    expect(await listed('?startDate=2090-10-02&limit=1')).toEqual([
      { date: '2090-10-02', timeOpen: '09:00', timeClose: '18:00', ticketsAvailable: 0 },
    ]);
  }, 120_000);

  it('sells without limit on a day without capacity, even on its first sales at once', async () => {
    await setWeek(WORKING_WEEK);
    const service = t.app.get(MuseumHoursService);
    // 2090-10-03 is a Tuesday, never sold before.
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, () => service.admitGeneral('2090-10-03', joined('2090-10-03'))),
    );
    expect(outcomes.every(({ outcome }) => outcome === 'admitted')).toBe(true);
    expect(await joinedOn('2090-10-03')).toBe(50);
  }, 60_000);
});

describe('through the shared pipeline', () => {
  it('counts each route in /metrics and logs each request with its route, and logs the changes of hours', async () => {
    const metric = async (method: string, route: string, status: number): Promise<number> => {
      const text = (await request(t.baseUrl).get('/metrics')).text;
      const line = text
        .split('\n')
        .find(
          (candidate) =>
            candidate.startsWith('http_requests_total{') &&
            candidate.includes(`method="${method}"`) &&
            candidate.includes(`route="${route}"`) &&
            candidate.includes(`status="${status}"`),
        );
      return line === undefined ? 0 : Number(line.split(' ').at(-1));
    };
    const before = await Promise.all([
      metric('GET', '/museum-hours', 200),
      metric('PUT', '/museum-hours/weekly', 200),
      metric('PUT', '/museum-hours/:date', 200),
      metric('DELETE', '/museum-hours/:date', 204),
    ]);
    await listed('?startDate=2090-11-01');
    await setWeek(WORKING_WEEK);
    await setException('2090-11-07', { closed: true });
    expectStatus(await request(t.baseUrl).delete(`${HOURS}/2090-11-07`).set('Authorization', EDITOR_AUTH), 204);
    const after = await Promise.all([
      metric('GET', '/museum-hours', 200),
      metric('PUT', '/museum-hours/weekly', 200),
      metric('PUT', '/museum-hours/:date', 200),
      metric('DELETE', '/museum-hours/:date', 204),
    ]);
    expect(after.map((value, index) => value - (before[index] as number))).toEqual([1, 1, 1, 1]);
    expect(t.logs).toContainEqual(
      expect.objectContaining({ method: 'DELETE', route: '/museum-hours/:date', status: 204 }),
    );
    expect(t.logs).toContainEqual(
      expect.objectContaining({ msg: 'Museum hours exception set', date: '2090-11-07', closed: true }),
    );
    expect(t.logs).toContainEqual(
      expect.objectContaining({ msg: 'Museum hours exception removed', date: '2090-11-07' }),
    );
    expect(t.logs).toContainEqual(expect.objectContaining({ msg: 'Museum week set', openDays: 5 }));
  });
});

describe('the migration', () => {
  it('upgrades a database of the previous release in place, and can be reverted', async () => {
    const { database, options, old, later } = await releaseBefore('MuseumHours1764400001000');
    try {
      await insertOldEvent(old);
      await old.destroy();
      const upgraded = new DataSource({ ...options, migrationsRun: true });
      await upgraded.initialize();
      try {
        const events = (await upgraded.query('SELECT event_id FROM special_events')) as { event_id: string }[];
        expect(events).toEqual([{ event_id: 'a0000000-0000-4000-8000-000000000000' }]);
        for (const table of ['museum_weekly_hours', 'museum_hours_exceptions', 'museum_general_admissions']) {
          await expect(upgraded.query(`SELECT COUNT(*) AS n FROM ${table}`)).resolves.toHaveLength(1);
        }
        for (let i = 0; i <= later; i++) await upgraded.undoLastMigration();
        await expect(upgraded.query('SELECT 1 FROM museum_weekly_hours')).rejects.toThrow(/museum_weekly_hours/);
      } finally {
        await upgraded.destroy();
      }
    } finally {
      if (old.isInitialized) await old.destroy();
      await database.drop();
    }
  });

  it('gives the admissions rows of the release before their weekday and the hours their dates have', async () => {
    const { database, options, old } = await releaseBefore('HoursOnAdmissions1795849500000');
    try {
      // Tuesdays have a slot grid, Wednesdays hours without one, other weekdays none (closed).
      await old.query(
        'INSERT INTO museum_weekly_hours (weekday, time_open, time_close, capacity, slot_minutes, slot_capacity) VALUES (?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?)',
        [2, '09:30', '17:00', 200, 30, 20, 3, '10:00', '18:15', null, null, null],
      );
      // An exception opening a Sunday with slots, and one closing a Tuesday.
      await old.query(
        'INSERT INTO museum_hours_exceptions (day, closed, time_open, time_close, capacity, slot_minutes, slot_capacity) VALUES (?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?)',
        ['2090-06-04', 0, '11:00', '13:00', 50, 15, 5, '2090-06-13', 1, null, null, null, null, null],
      );
      const days = ['2090-06-04', '2090-06-05', '2090-06-06', '2090-06-07', '2090-06-13'];
      for (const day of days) {
        await old.query('INSERT INTO museum_general_admissions (day, sold, revision) VALUES (?, 3, 0)', [day]);
      }
      await old.destroy();
      const upgraded = new DataSource({ ...options, migrationsRun: true });
      await upgraded.initialize();
      try {
        const rows = (await upgraded.query(
          'SELECT day, sold, weekday, hours_open, hours_opens_at, hours_closes_at, hours_capacity, hours_slot_minutes, hours_slot_capacity FROM museum_general_admissions ORDER BY day',
        )) as Record<string, unknown>[];
        expect(
          rows.map((row) =>
            Object.values(row).map((value) => (value === null ? null : String(value as string | number))),
          ),
        ).toEqual([
          ['2090-06-04', '3', '7', '1', '660', '780', '50', '15', '5'], // Sunday, its exception
          ['2090-06-05', '3', '1', '0', null, null, null, null, null], // Monday: closed
          ['2090-06-06', '3', '2', '1', '570', '1020', '200', '30', '20'], // Tuesday's grid
          ['2090-06-07', '3', '3', '1', '600', '1095', null, null, null], // Wednesday's hours
          ['2090-06-13', '3', '2', '0', null, null, null, null, null], // a Tuesday closed by its exception
        ]);
        const revision = (await upgraded.query('SELECT id, revision FROM museum_hours_revision')) as unknown[];
        expect(revision).toHaveLength(1);
      } finally {
        await upgraded.destroy();
      }
    } finally {
      if (old.isInitialized) await old.destroy();
      await database.drop();
    }
  });
});
