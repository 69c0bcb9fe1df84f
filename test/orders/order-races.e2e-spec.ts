import request from 'supertest';
import { DataSource } from 'typeorm';
import { describe, expect, it, vi } from 'vitest';
import { AdmissionClaims } from '../../src/museum-hours/admission-claims.js';
import { EventSeatClaims } from '../../src/special-events/event-seat-claims.js';
import { TicketBatchService } from '../../src/tickets/ticket-batch.service.js';
import { TicketsRepository } from '../../src/tickets/tickets.repository.js';
import { suiteDate, useMuseumClock } from '../helpers/clock.js';
import { expectStatus, validEvent } from '../helpers/problem-assertions.js';
import { AUTH, useTestApp } from '../helpers/test-app.js';
import { setHoursOn } from '../museum-hours/api.js';
import { cancelOrder, placeOrder } from './api.js';

/**
 * Orders decided by the database under concurrency, on each database: many orders at once for
 * fewer places sell exactly the places there are, whole orders only, and orders racing their
 * cancels give every place back once. Each test shows that its transactions overlapped (more than
 * one in flight at a time), so that a serial run cannot pass for a concurrent one.
 */

const t = useTestApp();
useMuseumClock(t);

async function one(sql: string, parameters: unknown[]): Promise<number> {
  const rows = (await t.app.get(DataSource).query(sql, parameters)) as { n: unknown }[];
  return Number(rows[0].n);
}

/** Makes `target[method]` answer 20 ms after its read. */
function answerLate<T extends object>(target: T, method: keyof T & string): void {
  const read = (target[method] as (...args: unknown[]) => Promise<unknown>).bind(target);
  vi.spyOn(target, method as never).mockImplementation((async (...args: unknown[]) => {
    const answer = await read(...args);
    await new Promise((resolve) => setTimeout(resolve, 20));
    return answer;
  }) as never);
}

/**
 * Counts the sales and cancels of several tickets in flight at once, at most: each reads its
 * places before its transaction, so with more than one in flight a read is stale by the time
 * another commits, and only the database's conditional writes keep the count.
 */
function countOverlap(): { readonly most: () => number } {
  // Each read of places or of an order's tickets answers 20 ms late, as from a busy database: on
  // SQLite (synchronous reads) a sale would otherwise read and write within one turn.
  answerLate(t.app.get(EventSeatClaims), 'claim');
  answerLate(t.app.get(AdmissionClaims), 'claim');
  answerLate(t.app.get(TicketsRepository), 'byOrder');
  const batches = t.app.get(TicketBatchService);
  let inFlight = 0;
  let most = 0;
  for (const method of ['sell', 'cancelOrder'] as const) {
    const original = batches[method].bind(batches) as (...args: unknown[]) => Promise<unknown>;
    vi.spyOn(batches, method).mockImplementation((async (...args: unknown[]) => {
      most = Math.max(most, ++inFlight);
      try {
        return await original(...args);
      } finally {
        inFlight--;
      }
    }) as never);
  }
  return { most: () => most };
}

describe('orders under concurrency', () => {
  it('sells 50 seats to exactly 25 of 30 concurrent orders of 2, across a general line too', async () => {
    const date = suiteDate(20);
    expectStatus(await setHoursOn(t.baseUrl, date, { timeOpen: '09:00', timeClose: '18:00', capacity: 1000 }), 200);
    const event = validEvent({ dates: [date], capacity: 50 });
    expectStatus(await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(event), 201);
    const eventId = event.eventId as string;
    const overlap = countOverlap();

    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        placeOrder(t.baseUrl, {
          email: `buyer-${i}@example.com`,
          lines: [
            { ticketType: 'general', ticketDate: date, quantity: 1 },
            { ticketType: 'event', eventId, ticketDate: date, quantity: 2 },
          ],
        }),
      ),
    );
    const statuses = answers.map((res) => res.status).sort((a, b) => a - b);
    expect(statuses).toEqual([...Array<number>(25).fill(201), ...Array<number>(5).fill(409)]);
    for (const refused of answers.filter((res) => res.status === 409)) expect(refused.body.line).toBe(1);
    expect(overlap.most()).toBeGreaterThan(1);
    expect(await one('SELECT tickets_sold AS n FROM special_events WHERE event_id = ?', [eventId])).toBe(50);
    expect(await one('SELECT COUNT(*) AS n FROM tickets WHERE event_id = ?', [eventId])).toBe(50);
    // A refused order sold nothing: the general line of each refused order was undone with it.
    expect(await one('SELECT sold AS n FROM museum_general_admissions WHERE day = ?', [date])).toBe(25);
    expect(await one('SELECT COUNT(*) AS n FROM tickets WHERE ticket_date = ? AND event_id IS NULL', [date])).toBe(25);
  }, 60_000);

  it('gives each place back once when an order’s cancels race each other and new orders', async () => {
    const date = suiteDate(21);
    const event = validEvent({ dates: [date], capacity: 20 });
    expectStatus(await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(event), 201);
    const eventId = event.eventId as string;
    const line = { ticketType: 'event', eventId, ticketDate: date, quantity: 4 };
    const placed = await Promise.all(
      Array.from({ length: 5 }, () => placeOrder(t.baseUrl, { email: 'a@example.com', lines: [line] })),
    );
    for (const res of placed) expectStatus(res, 201);
    const overlap = countOverlap();

    // Each order cancelled three times at once, while ten more orders of 4 try for the seats.
    const cancels = placed.flatMap((res) =>
      Array.from({ length: 3 }, () => cancelOrder(t.baseUrl, res.body.orderId as string)),
    );
    const orders = Array.from({ length: 10 }, () => placeOrder(t.baseUrl, { email: 'b@example.com', lines: [line] }));
    const [cancelled, again] = await Promise.all([Promise.all(cancels), Promise.all(orders)]);
    for (const res of cancelled) {
      expectStatus(res, 200);
      expect(res.body.status).toBe('cancelled');
      expect(res.body.refundDue).toBe(res.body.total);
    }
    expect(overlap.most()).toBeGreaterThan(1);
    const sold = again.filter((res) => res.status === 201).length;
    expect(sold).toBeLessThanOrEqual(5);
    expect(await one('SELECT tickets_sold AS n FROM special_events WHERE event_id = ?', [eventId])).toBe(4 * sold);
    expect(await one("SELECT COUNT(*) AS n FROM tickets WHERE event_id = ? AND status = 'active'", [eventId])).toBe(
      4 * sold,
    );
  }, 60_000);
});
