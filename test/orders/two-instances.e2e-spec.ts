import { createConnection, type RowDataPacket } from 'mysql2/promise';
import { beforeAll, describe, expect, it } from 'vitest';
import { type RunningService, useTwoTestModeInstances } from '../helpers/built-service.js';
import { SUITE_NOW, suiteDate } from '../helpers/clock.js';
import { validEvent } from '../helpers/problem-assertions.js';
import { basicHeader } from '../helpers/test-app.js';

const USER = 'orders';
const PASSWORD = 'orders-password-1234';
const AUTH = basicHeader(USER, PASSWORD);

async function send(service: RunningService, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${service.baseUrl}${path}`, {
    method,
    headers: { Authorization: AUTH, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/**
 * Two instances of the built service on one MariaDB database (MySQL only), each with its own
 * pool and its own turns: orders sent to both at once for fewer seats than asked sell exactly the
 * seats there are, whole orders only. In test mode, on the suite's museum clock.
 */
describe('orders: two instances on one MariaDB database', () => {
  const { built, services } = useTwoTestModeInstances({ user: USER, password: PASSWORD });
  beforeAll(async () => {
    const clock = await send(services[0], 'PUT', '/testing/clock', { now: SUITE_NOW, frozen: true });
    if (clock.status !== 200) throw new Error(`the museum clock was not set: ${clock.status}`);
  });

  it('60 orders of 2 seats and a day admission, half through each, for 100 seats: exactly 50 sold', async () => {
    const date = suiteDate(30);
    expect(
      (await send(services[0], 'PUT', `/museum-hours/${date}`, { timeOpen: '09:00', timeClose: '18:00' })).status,
    ).toBe(200);
    // Each instance's 30 orders ask 60 seats: neither can sell them all, so both sell, and the
    // last seats go to whichever instance's orders reach them first (a check that both sold,
    // with 50 seats, failed on a loaded machine when one instance's orders all came first).
    const event = validEvent({ dates: [date], capacity: 100 });
    expect((await send(services[1], 'POST', '/special-events', event)).status).toBe(201);
    const lines = [
      { ticketType: 'general', ticketDate: date, quantity: 1 },
      { ticketType: 'event', eventId: event.eventId, ticketDate: date, quantity: 2 },
    ];
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => send(services[i % 2], 'POST', '/orders', { email: 'a@example.com', lines })),
    );
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(50);
    expect(statuses.filter((status) => status === 409)).toHaveLength(10);

    const connection = await createConnection(built.database.url);
    try {
      const [[seats]] = await connection.query<RowDataPacket[]>(
        'SELECT tickets_sold AS n FROM special_events WHERE event_id = ?',
        [event.eventId],
      );
      const [[tickets]] = await connection.query<RowDataPacket[]>(
        'SELECT COUNT(*) AS n FROM tickets WHERE ticket_date = ?',
        [date],
      );
      const [[admissions]] = await connection.query<RowDataPacket[]>(
        'SELECT sold AS n FROM museum_general_admissions WHERE day = ?',
        [date],
      );
      expect([Number(seats.n), Number(tickets.n), Number(admissions.n)]).toEqual([100, 150, 50]);
    } finally {
      await connection.end();
    }
  }, 120_000);
});
