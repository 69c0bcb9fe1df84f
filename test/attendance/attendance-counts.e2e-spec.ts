import request from 'supertest';
import { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { Sql } from '../../src/database/sql.js';
import { expectStatus, validEvent } from '../helpers/problem-assertions.js';
import { explain, type PlanDatabase } from '../helpers/query-plan.js';
import { AUTH, useTestApp } from '../helpers/test-app.js';
import { TEST_DATABASE } from '../helpers/test-database.js';
import { dayAttendancePath, eventAttendancePath } from './api.js';

/**
 * Attendance is counted by the database: on a tickets table of TICKETS rows written straight in
 * SQL (then ANALYZE, so that the planner chooses with statistics), each attendance request runs
 * one statement on the tickets, which answers a row per group (date or time, and status), never a
 * row per ticket, and is planned through the event's or the date's index, never a scan of the
 * table. The statements explained are those the service ran, caught on their way to the database.
 * Event tickets that name a session (written straight in SQL as a sale for a session writes them)
 * count for that session, and those of the date that name none for each of its sessions.
 */

const TICKETS = 6_000;
const BATCH = 500;
const DATES = ['2090-05-01', '2090-05-02', '2090-05-03'];
const STATUSES = ['active', 'checked-in', 'cancelled'] as const;
const TIMES = ['10:00', '11:00', null] as const;

const COLUMNS =
  'ticket_id, ticket_type, ticket_date, ticket_time, event_id, email, price_paid, confirmation_code, status, created_at';

const t = useTestApp();
const database: PlanDatabase = TEST_DATABASE;
let eventId: string;

/** The dates of the other tickets: a museum sells for many days, so one day is a small share of the table. */
const OTHER_DATES = Array.from({ length: 60 }, (_, day) =>
  new Date(Date.UTC(2090, 5, 1 + day)).toISOString().slice(0, 10),
);

/**
 * Ticket `index`: one in six is the event's (on its DATES), two in six another event's, three in
 * six general admission (on OTHER_DATES); within each kind, the date, status and (general) start
 * go round at different paces, so that every date has every status, and every start.
 */
function seededTicket(index: number): unknown[] {
  const kind = index % 6;
  const round = Math.floor(index / 6);
  const general = kind >= 3;
  const event = general ? null : kind === 0 ? eventId : uuidv7();
  const dates = kind === 0 ? DATES : OTHER_DATES;
  const date = dates[round % dates.length];
  const pass = Math.floor(round / dates.length);
  const status = STATUSES[pass % STATUSES.length];
  const time = general ? TIMES[Math.floor(pass / STATUSES.length) % TIMES.length] : null;
  return [uuidv7(), general ? 'general' : 'event', date, time, event, null, 10, `ticket-seeded-${index}`, status, 0];
}

/** What the seeded tickets matching `match` add up to, per status. */
function expected(match: (row: unknown[]) => boolean): { sold: number; checkedIn: number; cancelled: number } {
  const counts = { sold: 0, checkedIn: 0, cancelled: 0 };
  for (let index = 0; index < TICKETS; index++) {
    const row = seededTicket(index);
    if (!match(row)) continue;
    if (row[8] === 'cancelled') counts.cancelled++;
    else counts.sold++;
    if (row[8] === 'checked-in') counts.checkedIn++;
  }
  return counts;
}

/** The statements on the tickets table that `read` makes the service run, and how many rows each answered. */
async function ticketStatements(
  read: () => Promise<void>,
): Promise<{ sql: string; parameters: unknown[]; rows: number }[]> {
  const sql = t.app.get(Sql);
  const select = sql.select.bind(sql);
  const seen: { sql: string; parameters: unknown[]; rows: number }[] = [];
  vi.spyOn(sql, 'select').mockImplementation(async (text, parameters = [], options) => {
    const rows = await select(text, parameters, options);
    if (/\bFROM tickets\b/.test(text)) seen.push({ sql: text, parameters: [...parameters], rows: rows.length });
    return rows as never;
  });
  await read();
  return seen;
}

beforeAll(async () => {
  const event = validEvent({ dates: DATES });
  expectStatus(await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(event), 201);
  eventId = event.eventId as string;
  const dataSource = t.app.get(DataSource);
  for (let start = 0; start < TICKETS; start += BATCH) {
    const rows = Array.from({ length: BATCH }, (_, i) => seededTicket(start + i));
    const values = rows.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ');
    await dataSource.query(`INSERT INTO tickets (${COLUMNS}) VALUES ${values}`, rows.flat());
  }
  await dataSource.query(database === 'sqlite' ? 'ANALYZE' : 'ANALYZE TABLE tickets');
}, 120_000);

describe('attendance counts in the database', () => {
  it("an event's: one GROUP BY through IDX_tickets_event, a row per date and status", async () => {
    let answer: unknown;
    const statements = await ticketStatements(async () => {
      const res = await request(t.baseUrl).get(eventAttendancePath(eventId)).set('Authorization', AUTH);
      expectStatus(res, 200);
      answer = res.body;
    });
    expect(answer).toEqual(
      DATES.map((date) => ({ date, ...expected((row) => row[4] === eventId && row[2] === date) })),
    );
    expect(statements).toHaveLength(1);
    const [{ sql, parameters, rows }] = statements;
    expect(sql).toMatch(/GROUP BY/);
    expect(rows).toBe(DATES.length * STATUSES.length);
    const plan = await explain(
      database,
      (text, values) => t.app.get(DataSource).query(text, [...values]),
      sql,
      parameters,
      false,
    );
    expect(planProblems(plan.lines, 'IDX_tickets_event')).toEqual([]);
  });

  it("a day's general admission: one GROUP BY through IDX_tickets_date, a row per time and status", async () => {
    const date = OTHER_DATES[1];
    let answer: unknown;
    const statements = await ticketStatements(async () => {
      const res = await request(t.baseUrl).get(dayAttendancePath(date)).set('Authorization', AUTH);
      expectStatus(res, 200);
      answer = res.body;
    });
    const general = (row: unknown[]) => row[1] === 'general' && row[2] === date;
    // The day has no hours: its slots are the starts its tickets hold.
    expect(answer).toEqual([
      {
        date,
        ...expected(general),
        slots: ['10:00', '11:00'].map((time) => ({ time, ...expected((row) => general(row) && row[3] === time) })),
      },
    ]);
    expect(statements).toHaveLength(1);
    const [{ sql, parameters, rows }] = statements;
    expect(sql).toMatch(/GROUP BY/);
    expect(rows).toBe(TIMES.length * STATUSES.length);
    const plan = await explain(
      database,
      (text, values) => t.app.get(DataSource).query(text, [...values]),
      sql,
      parameters,
      false,
    );
    expect(planProblems(plan.lines, 'IDX_tickets_date')).toEqual([]);
  });

  it('counts tickets that name a session for that session, and those of the date that name none for every session', async () => {
    const date = '2090-07-01';
    const event = validEvent({ dates: [`${date}T14:00`, `${date}T16:00`, date] });
    expectStatus(await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(event), 201);
    const sold: [string | null, string][] = [
      ['14:00', 'active'],
      ['14:00', 'checked-in'],
      ['14:00', 'cancelled'],
      ['16:00', 'active'],
      [null, 'active'],
      [null, 'cancelled'],
    ];
    const rows = sold.map(([time, status], index) => [
      uuidv7(),
      'event',
      date,
      time,
      event.eventId,
      null,
      10,
      `ticket-session-${index}`,
      status,
      0,
    ]);
    await t.app
      .get(DataSource)
      .query(
        `INSERT INTO tickets (${COLUMNS}) VALUES ${rows.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        rows.flat(),
      );
    const res = await request(t.baseUrl)
      .get(eventAttendancePath(event.eventId as string))
      .set('Authorization', AUTH);
    expectStatus(res, 200);
    expect(res.body).toEqual([
      { date: `${date}T14:00`, sold: 3, checkedIn: 1, cancelled: 2 },
      { date: `${date}T16:00`, sold: 2, checkedIn: 0, cancelled: 1 },
      { date, sold: 4, checkedIn: 1, cancelled: 2 },
    ]);
  });
});

/** What in a plan's lines (query-plan.ts) reads more than the index `index` finds: a scan, or another index. */
function planProblems(lines: readonly string[], index: string): string[] {
  const problems: string[] = [];
  if (database === 'sqlite') {
    if (lines.some((line) => /^SCAN tickets\b/.test(line))) problems.push(`a scan of the table: ${lines.join(' | ')}`);
    if (
      !lines.some((line) => line.includes(`USING INDEX ${index} (`) || line.includes(`USING COVERING INDEX ${index} (`))
    )
      problems.push(`not searched through ${index}: ${lines.join(' | ')}`);
  } else {
    const row = lines.find((line) => line.startsWith('tickets:'));
    if (row === undefined || !row.includes(`key=${index} `) || row.includes('type=ALL'))
      problems.push(`not read through ${index}: ${lines.join(' | ')}`);
  }
  return problems;
}
