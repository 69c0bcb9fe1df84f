import { suiteDate, useMuseumClock } from '../helpers/clock.js';
import { AsyncLocalStorage } from 'node:async_hooks';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Sql } from '../../src/database/sql.js';
import { EventSeats } from '../../src/special-events/event-seats.js';
import { SpecialEventsRepository } from '../../src/special-events/special-events.repository.js';
import { SpecialEventsService, type TicketReservation } from '../../src/special-events/special-events.service.js';
import { expectStatus, validEvent } from '../helpers/problem-assertions.js';
import { AUTH, useTestApp } from '../helpers/test-app.js';

/**
 * Lowering a capacity while seats are sold, raced inside the repository: before each statement
 * the repository sends for the PATCH, more seats are sold, as another instance would sell them.
 * Whatever the repository reads on its own (a fresh look at the tickets sold) is then stale when
 * it writes, so only a write whose own condition decides keeps the capacity at or above the seats
 * sold. (event-capacity.e2e-spec.ts races the service's read against the repository's write.)
 */

const t = useTestApp();
useMuseumClock(t);
/** Tickets sell up to 366 days ahead: a date some weeks from today. */
const DATE = suiteDate(50);
/** How many of the repository's statements are raced; later ones (the service's retries) run alone. */
const RACED_STATEMENTS = 4;

afterEach(() => {
  vi.restoreAllMocks();
});

function reserve(eventId: string): Promise<TicketReservation> {
  return t.app.get(SpecialEventsService).reserveTicket(eventId, DATE, () => []);
}

async function create(capacity: number): Promise<string> {
  const body = validEvent({ dates: [DATE], capacity });
  expectStatus(await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(body), 201);
  return body.eventId as string;
}

/**
 * Before each of the first RACED_STATEMENTS statements the repository sends while updating (a
 * read or a write, through its Sql), `sales` seats of the event are sold and the statement waits
 * for them. Resolves, when asked, with every sale's outcome and how many statements were raced.
 */
function salesBeforeEachRepositoryStatement(
  eventId: string,
  sales: number,
): () => Promise<{ outcomes: TicketReservation[]; raced: number }> {
  // As if the sales came through another instance: this instance's turns per event
  // (EventSeats.inTurn) would keep its own PATCH and sales apart.
  vi.spyOn(t.app.get(EventSeats), 'inTurn').mockImplementation((_eventId, work) => work());
  const store = t.app.get(SpecialEventsRepository);
  const sql = Reflect.get(store, 'sql') as Sql;
  const updating = new AsyncLocalStorage<true>();
  const made: Promise<TicketReservation[]>[] = [];
  const raceThe = <K extends 'select' | 'execute' | 'transaction' | 'transactionIf'>(method: K): void => {
    const original = (sql[method] as (...args: unknown[]) => unknown).bind(sql);
    vi.spyOn(sql, method).mockImplementation((async (...args: unknown[]) => {
      if (updating.getStore() === true && made.length < RACED_STATEMENTS) {
        const batch = updating.exit(() => Promise.all(Array.from({ length: sales }, () => reserve(eventId))));
        made.push(batch);
        await batch;
      }
      return original(...args);
    }) as never);
  };
  for (const method of ['select', 'execute', 'transaction', 'transactionIf'] as const) raceThe(method);
  const update = store.update.bind(store);
  vi.spyOn(store, 'update').mockImplementation((...args) => updating.run(true, () => update(...args)));
  return async () => ({ outcomes: (await Promise.all(made)).flat(), raced: made.length });
}

/** The event's stored capacity and tickets sold, as the database holds them. */
async function stored(eventId: string): Promise<{ capacity: number; sold: number }> {
  const [row] = (await t.app
    .get(DataSource)
    .query('SELECT capacity, tickets_sold FROM special_events WHERE event_id = ?', [eventId])) as {
    capacity: number | string;
    tickets_sold: number | string;
  }[];
  return { capacity: Number(row.capacity), sold: Number(row.tickets_sold) };
}

describe('lowering the capacity while seats are sold before each of the repository’s statements', () => {
  it('never leaves more seats sold than the capacity: the PATCH is 409, or 200 with every seat counted', async () => {
    const id = await create(100);
    for (let i = 0; i < 30; i++) await expect(reserve(id)).resolves.toMatchObject({ outcome: 'reserved' });
    const sales = salesBeforeEachRepositoryStatement(id, 6);
    const res = await request(t.baseUrl)
      .patch(`/special-events/${id}`)
      .set('Authorization', AUTH)
      .set('Content-Type', 'application/merge-patch+json')
      .send(JSON.stringify({ capacity: 40 }));
    const { outcomes, raced } = await sales();
    vi.restoreAllMocks();
    // The race took place: seats were sold while the repository was at work.
    expect(raced).toBeGreaterThan(0);
    const reserved = 30 + outcomes.filter(({ outcome }) => outcome === 'reserved').length;
    const final = await stored(id);
    expect({ ...final, withinCapacity: final.sold <= final.capacity }).toEqual({
      capacity: res.status === 200 ? 40 : 100,
      sold: reserved,
      withinCapacity: true,
    });
    expect([200, 409]).toContain(res.status);
  });
});
