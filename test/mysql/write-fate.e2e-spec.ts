import { createConnection, type Connection, type RowDataPacket } from 'mysql2/promise';
import request from 'supertest';
import { validEvent } from '../helpers/problem-assertions.js';
import { AUTH, createTestApp, type TestApp } from '../helpers/test-app.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';

const QUERY_TIMEOUT_MS = 1000;
const ACQUIRE_TIMEOUT_MS = 500;
/** The longest a write may take from the request's point of view, plus room for a busy machine. */
const ANSWER_BOUND_MS = ACQUIRE_TIMEOUT_MS + QUERY_TIMEOUT_MS + 2000;
const LOCK_HELD_MS = 8000;

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
  let database: TestDatabase;
  let t: TestApp;
  let locker: Connection;

  beforeAll(async () => {
    database = await createTestDatabase('mysql');
    t = await createTestApp({
      DATABASE_URL: database.url,
      DB_QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS),
      DB_ACQUIRE_TIMEOUT_MS: String(ACQUIRE_TIMEOUT_MS),
    });
    locker = await createConnection({ uri: database.url });
  });

  afterAll(async () => {
    await locker?.end();
    await t?.close();
    await database?.drop();
  });

  it('answers 503 with Retry-After within the deadline, never 409, and serves again after the lock', async () => {
    const http = request(t.baseUrl);
    // Verifies (and caches) the credentials while the table is free.
    expect((await http.post('/special-events').set('Authorization', AUTH).send(withoutId())).status).toBe(201);

    await locker.query('LOCK TABLES special_events WRITE');
    const unlocked = new Promise<void>((resolve) =>
      setTimeout(() => void locker.query('UNLOCK TABLES').then(() => resolve()), LOCK_HELD_MS),
    );
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

    // Once the lock is gone, the service serves again at once: no connection still waits behind
    // a statement it gave up on.
    await unlocked;
    const created = await http.post('/special-events').set('Authorization', AUTH).send(withoutId());
    expect(created.status).toBe(201);
    const [rows] = await locker.query<RowDataPacket[]>('SELECT event_id FROM special_events WHERE event_id = ?', [
      created.body.eventId,
    ]);
    expect(rows).toHaveLength(1);
    expect((await http.get('/health/ready')).status).toBe(200);
  });
});
