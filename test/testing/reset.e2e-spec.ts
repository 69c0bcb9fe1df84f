import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Sql } from '../../src/database/sql.js';
import { ResetRegistry } from '../../src/database/reset-registry.js';
import { newEvent } from '../helpers/contract.js';
import { AUTH, type TestApp, useTestApp } from '../helpers/test-app.js';
import { call, OPEN_EVERY_DAY } from './api.js';

/**
 * POST /testing/reset: every table the migrations create is emptied by the module that owns it or
 * kept on purpose, and a reset racing writes leaves no half of anything.
 */

const DAY = '2031-05-10';
/** The modules whose tables the first reset test fills through their routes before the reset. */
const SCENARIO_MODULES = ['auth', 'special-events', 'museum-hours', 'webhooks', 'idempotency', 'tickets', 'calendar'];

async function tablesOf(t: TestApp): Promise<string[]> {
  const sql = t.app.get(Sql);
  const rows =
    t.config.database.type === 'sqlite'
      ? await sql.select<{ name: string }>(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
        )
      : await sql.select<{ name: string }>(
          'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE()',
        );
  return rows.map((row) => row.name).sort();
}

async function count(t: TestApp, table: string): Promise<number> {
  const [row] = await t.app.get(Sql).select<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${table}`);
  return Number(row.n);
}

describe('POST /testing/reset', () => {
  const t = useTestApp({ TEST_MODE: 'true', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', PUBLIC_READ: 'true' });

  it('every table the migrations create is emptied by a module or kept by one, never both', async () => {
    const registry = t.app.get(ResetRegistry);
    const emptied = registry.tablesToEmpty();
    const kept = registry.keptTables();
    expect(emptied.filter((table) => kept.includes(table))).toEqual([]);
    expect(await tablesOf(t)).toEqual([...emptied, ...kept].sort());
  });

  it("empties every feature's data in one call, keeps users and the clock: 204", async () => {
    await call(t, 'PUT', '/testing/clock', { now: '2031-05-01T10:00:00Z', frozen: true });
    expect((await call(t, 'PUT', '/museum-hours/weekly', OPEN_EVERY_DAY)).status).toBe(200);
    const slotted = { timeOpen: '10:00', timeClose: '12:00', slotMinutes: 60, slotCapacity: 10 };
    expect((await call(t, 'PUT', `/museum-hours/${DAY}`, slotted)).status).toBe(200);
    expect((await call(t, 'POST', '/webhooks', { url: 'http://127.0.0.1:9/hook' })).status).toBe(201);
    const created = await fetch(`${t.baseUrl}/special-events`, {
      method: 'POST',
      headers: {
        Authorization: AUTH,
        'Content-Type': 'application/json',
        'Idempotency-Key': randomUUID(),
      },
      // A session too, so that its seats' table holds a row.
      body: JSON.stringify({ ...newEvent(), dates: [DAY, `${DAY}T11:00`], capacity: 10 }),
    });
    expect(created.status).toBe(201);
    const { eventId } = (await created.json()) as { eventId: string };
    expect((await call(t, 'POST', '/tickets', { ticketType: 'event', eventId, ticketDate: DAY })).status).toBe(201);
    const general = { ticketType: 'general', ticketDate: DAY, ticketTime: '10:00' };
    expect((await call(t, 'POST', '/tickets', general)).status).toBe(201);
    expect((await call(t, 'POST', '/calendar-tokens', {})).status).toBe(201);
    expect((await call(t, 'GET', '/special-events', undefined, null)).status).toBe(200);

    const registry = t.app.get(ResetRegistry);
    const before = Object.fromEntries(
      await Promise.all(registry.tablesToEmpty().map(async (table) => [table, await count(t, table)] as const)),
    );
    // Each table of the modules this scenario writes to holds something, so that the reset is seen
    // to empty it. A module added later (its table empty here) is emptied the same way: the
    // registry's one DELETE per table, checked below.
    const written = (table: string): boolean => SCENARIO_MODULES.includes(registry.ownerOf(table) ?? '');
    expect(Object.entries(before).filter(([table, rows]) => written(table) && rows === 0)).toEqual([]);

    const reset = await call(t, 'POST', '/testing/reset');
    expect(reset.status).toBe(204);
    for (const table of registry.tablesToEmpty())
      expect({ table, rows: await count(t, table) }).toEqual({ table, rows: 0 });
    // Users kept: the same credentials still work; the clock stays where the suite set it.
    expect((await call(t, 'GET', '/testing/clock')).body.now).toBe('2031-05-01T10:00:00.000Z');
    expect((await call(t, 'GET', '/special-events')).body).toEqual([]);
  });

  it('a reset racing sales and event writes leaves nothing half-emptied: every count matches its rows', async () => {
    await call(t, 'PUT', '/testing/clock', { now: '2031-05-01T10:00:00Z', frozen: true });
    expect((await call(t, 'PUT', '/museum-hours/weekly', OPEN_EVERY_DAY)).status).toBe(200);
    const events: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await call(t, 'POST', '/special-events', { ...newEvent(), dates: [DAY], capacity: 100_000 });
      events.push(String(res.body.eventId));
    }
    const writes: (() => Promise<number>)[] = Array.from({ length: 240 }, (_, i) => async () => {
      if (i % 3 === 0) return (await call(t, 'POST', '/tickets', { ticketType: 'general', ticketDate: DAY })).status;
      if (i % 3 === 1) {
        const eventId = events[i % events.length];
        return (await call(t, 'POST', '/tickets', { ticketType: 'event', eventId, ticketDate: DAY })).status;
      }
      return (await call(t, 'POST', '/special-events', { ...newEvent(), dates: [DAY] })).status;
    });
    let resetSent = Number.POSITIVE_INFINITY;
    let resetAnswered = Number.POSITIVE_INFINITY;
    let resetStatus = 0;
    let overlapping = 0;
    const statuses: number[] = [];
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < writes.length) {
        const index = next++;
        if (index === 80) {
          resetSent = performance.now();
          resetStatus = (await call(t, 'POST', '/testing/reset')).status;
          resetAnswered = performance.now();
          continue;
        }
        const sent = performance.now();
        statuses.push(await writes[index]());
        // A write sent before the reset was answered and answered after it was sent: the two overlapped.
        if (sent < resetAnswered && performance.now() > resetSent) overlapping++;
      }
    };
    await Promise.all(Array.from({ length: 12 }, worker));
    expect(resetStatus).toBe(204);
    expect(overlapping).toBeGreaterThan(0);
    // Sold before the reset (201), or after it: the event gone (404) or the museum closed (422).
    expect([...new Set(statuses)].filter((status) => ![201, 404, 422].includes(status))).toEqual([]);

    const sql = t.app.get(Sql);
    const eventCounts = await sql.select<{ event_id: string; sold: number | string; n: number | string }>(
      "SELECT e.event_id, e.tickets_sold AS sold, (SELECT COUNT(*) FROM tickets k WHERE k.event_id = e.event_id AND k.status = 'active') AS n FROM special_events e",
    );
    expect(eventCounts.filter((row) => Number(row.sold) !== Number(row.n))).toEqual([]);
    const orphans = await sql.select<{ ticket_id: string }>(
      'SELECT ticket_id FROM tickets k WHERE k.event_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM special_events e WHERE e.event_id = k.event_id)',
    );
    expect(orphans).toEqual([]);
    const admissions = await sql.select<{ day: string; sold: number | string; n: number | string }>(
      'SELECT a.day, a.sold, (SELECT COUNT(*) FROM tickets k WHERE k.ticket_date = a.day AND k.event_id IS NULL) AS n FROM museum_general_admissions a',
    );
    expect(admissions.filter((row) => Number(row.sold) !== Number(row.n))).toEqual([]);
    const [general] = await sql.select<{ n: number | string }>(
      'SELECT COUNT(*) AS n FROM tickets k WHERE k.event_id IS NULL AND NOT EXISTS (SELECT 1 FROM museum_general_admissions a WHERE a.day = k.ticket_date)',
    );
    expect(Number(general.n)).toBe(0);
    const unstamped = await sql.select<{ event_id: string }>(
      'SELECT event_id FROM special_events e WHERE NOT EXISTS (SELECT 1 FROM calendar_event_stamps s WHERE s.event_id = e.event_id)',
    );
    expect(unstamped).toEqual([]);
  });
});
