import { createConnection, type Connection, type RowDataPacket } from 'mysql2/promise';
import request from 'supertest';
import { validEvent } from '../helpers/problem-assertions.js';
import { AUTH, useTestApp } from '../helpers/test-app.js';
import { useTestDatabase } from '../helpers/test-database.js';

const QUERY_TIMEOUT_MS = 1000;
// Opening a connection (TCP, handshake, authentication) may take more than 500 ms on a busy machine.
const ACQUIRE_TIMEOUT_MS = 1000;
/**
 * The longest a write may take from the request's point of view, plus room for a machine busy
 * with other test runs (this process hosts the service and its 32 clients). Without the fix a
 * request waits until the lock is released, which no request sent here can reach within this.
 */
const ANSWER_BOUND_MS = ACQUIRE_TIMEOUT_MS + QUERY_TIMEOUT_MS + 6000;
const LOCK_HELD_MS = 16_000;

const withoutId = () => {
  const { eventId: _ignored, ...event } = validEvent();
  return event;
};

/**
 * Issue 17, item 2: another connection holds `LOCK TABLES special_events WRITE`, so every
 * INSERT waits on the server, past the service's query deadline, and may still commit once the
 * lock is released, while clients keep sending. A write whose fate is unknown must be answered 503 (never a 409 for an id
 * the service generated itself), within the deadline, and nothing may keep waiting behind it.
 */
describe('MySQL table locked by another connection during concurrent creates', () => {
  const database = useTestDatabase('mysql');
  const t = useTestApp(() => ({
    DATABASE_URL: database.url,
    DB_QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS),
    DB_ACQUIRE_TIMEOUT_MS: String(ACQUIRE_TIMEOUT_MS),
  }));
  let locker: Connection;
  let unlockTimer: NodeJS.Timeout | undefined;

  beforeAll(async () => {
    locker = await createConnection({ uri: database.url });
  });

  // Runs first at the end: the lock released before the app closes and the database goes.
  afterAll(async () => {
    clearTimeout(unlockTimer);
    await locker?.end();
  });

  it('answers 503 with Retry-After within the deadline, never 409, and serves again after the lock', async () => {
    const http = request(t.baseUrl);
    // Verifies (and caches) the credentials while the table is free.
    expect((await http.post('/special-events').set('Authorization', AUTH).send(withoutId())).status).toBe(201);

    await locker.query('LOCK TABLES special_events WRITE');
    const unlocked = new Promise<void>((resolve) => {
      unlockTimer = setTimeout(() => void locker.query('UNLOCK TABLES').then(() => resolve()), LOCK_HELD_MS);
    });
    // 32 clients, each sending creates one after another while the table stays locked (each
    // stops in time for its last answer to be due before the lock is released).
    const sendUntil = Date.now() + LOCK_HELD_MS - ANSWER_BOUND_MS;
    const answers: { response: request.Response; took: number }[] = [];
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (Date.now() < sendUntil) {
          const started = Date.now();
          const response = await http.post('/special-events').set('Authorization', AUTH).send(withoutId());
          answers.push({ response, took: Date.now() - started });
        }
      }),
    );
    expect(answers.length).toBeGreaterThan(32);
    const statuses: Record<number, number> = {};
    for (const { response } of answers) statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    expect(statuses).toEqual({ 503: answers.length });
    expect(Math.max(...answers.map(({ took }) => took))).toBeLessThan(ANSWER_BOUND_MS);
    for (const { response } of answers) {
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    }

    // `SELECT 1` still works, but the database takes no writes: not ready.
    const ready = await http.get('/health/ready');
    expect(ready.status).toBe(503);
    expect(Number(ready.headers['retry-after'])).toBeGreaterThan(0);

    // Once the lock is gone, the service serves again within seconds: no connection still waits
    // behind a statement it gave up on.
    await unlocked;
    const back = Date.now();
    let created = await http.post('/special-events').set('Authorization', AUTH).send(withoutId());
    while (created.status !== 201 && Date.now() - back < 5000) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      created = await http.post('/special-events').set('Authorization', AUTH).send(withoutId());
    }
    expect(created.status).toBe(201);
    const [rows] = await locker.query<RowDataPacket[]>('SELECT event_id FROM special_events WHERE event_id = ?', [
      created.body.eventId,
    ]);
    expect(rows).toHaveLength(1);
    expect((await http.get('/health/ready')).status).toBe(200);
  });
});
