import { suiteDate, useMuseumClock } from '../helpers/clock.js';
import { createConnection, type Connection, type RowDataPacket } from 'mysql2/promise';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, validEvent } from '../helpers/problem-assertions.js';
import { AUTH, useTestApp } from '../helpers/test-app.js';
import { useTestDatabase } from '../helpers/test-database.js';
import { buyTicket } from '../tickets/api.js';

const QUERY_TIMEOUT_MS = 2000;
const ACQUIRE_TIMEOUT_MS = 1000;
/** A request's one deadline for all its database work: one statement's, its wait for a connection included. */
const DEADLINE_MS = ACQUIRE_TIMEOUT_MS + QUERY_TIMEOUT_MS;
/** Room for a machine busy with other test runs, well below a second statement's timeout. */
const SLACK_MS = 1500;
/** Purchases at once while the writes are stuck: more than the pool's 10 connections. */
const BUYERS = 24;
/** Buyers of one event, behind each other, while its first purchase is stuck. */
const QUEUED = 6;
/** Tickets sell up to 366 days ahead: a date some weeks from today. */
const DATE = suiteDate(40);

/**
 * Another connection holds a read lock on every table of this test's database (as FLUSH TABLES
 * WITH READ LOCK does on the whole server): every write waits on the server, while reads go on. A purchase (several statements) must get its 503 within one request deadline,
 * not one per statement, and reads must still be served while purchases keep the writes stuck:
 * writes may not hold all the pool's connections.
 */
describe('MySQL: writes stuck behind a read lock, reads still served', () => {
  const database = useTestDatabase('mysql');
  const t = useTestApp(() => ({
    DATABASE_URL: database.url,
    DB_QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS),
    DB_ACQUIRE_TIMEOUT_MS: String(ACQUIRE_TIMEOUT_MS),
  }));
  useMuseumClock(t);
  let locker: Connection;

  beforeAll(async () => {
    locker = await createConnection({ uri: database.url });
  });
  afterAll(async () => {
    await locker?.query('UNLOCK TABLES').catch(() => undefined);
    await locker?.end();
  });

  it('every purchase answers 503 within one deadline, queued ones too, and reads are served meanwhile', async () => {
    const http = request(t.baseUrl);
    // One event per buyer, so that each buyer's write holds a connection of its own; and
    // QUEUED more buyers of the first event, who wait for its sales one at a time (one per event
    // and instance) and must still be answered within their own deadline.
    const events = Array.from({ length: BUYERS }, () => validEvent({ dates: [DATE], capacity: 1000 }));
    for (const event of events)
      expectStatus(await http.post('/special-events').set('Authorization', AUTH).send(event), 201);
    const eventPath = `/special-events/${String(events[0].eventId)}`;
    const buy = (eventId: unknown) =>
      buyTicket(t.baseUrl, { ticketType: 'event', eventId, ticketDate: DATE, email: 'b@example.org' });
    // Credentials verified and cached, and one sale made, while nothing is locked.
    expectStatus(await buy(events[0].eventId), 201);

    // Every table of this database, as FLUSH TABLES WITH READ LOCK would hold every table of the server.
    const [tables] = await locker.query<RowDataPacket[]>('SHOW TABLES');
    await locker.query(`LOCK TABLES ${tables.map((row) => `\`${String(Object.values(row)[0])}\` READ`).join(', ')}`);
    try {
      const started = Date.now();
      const buyers = [
        ...events.map(({ eventId }) => eventId),
        ...Array.from({ length: QUEUED }, () => events[0].eventId),
      ];
      const purchases = Promise.all(
        buyers.map(async (eventId) => {
          const res = await buy(eventId);
          return { status: res.status, took: Date.now() - started };
        }),
      );
      // Reads while the purchases hold what they may: each is served.
      const reads: number[] = [];
      while (Date.now() - started < DEADLINE_MS - 500) {
        const answers = await Promise.all(
          Array.from({ length: 4 }, () => http.get(eventPath).set('Authorization', AUTH)),
        );
        reads.push(...answers.map(({ status }) => status));
      }
      const answered = await purchases;
      expect(answered.map(({ status }) => status)).toEqual(buyers.map(() => 503));
      expect(Math.max(...answered.map(({ took }) => took))).toBeLessThan(DEADLINE_MS + SLACK_MS);
      expect(reads.length).toBeGreaterThanOrEqual(4);
      expect(reads.filter((status) => status !== 200)).toEqual([]);
    } finally {
      await locker.query('UNLOCK TABLES');
    }
    // Once the lock is gone, purchases succeed again.
    const back = Date.now();
    let sold = await buy(events[1].eventId);
    while (sold.status !== 201 && Date.now() - back < 5000) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      sold = await buy(events[1].eventId);
    }
    expectStatus(sold, 201);
  }, 60_000);
});
