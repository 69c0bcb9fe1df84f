import Database from 'better-sqlite3';
import request from 'supertest';
import { validEvent } from './helpers/problem-assertions.js';
import { AUTH, createTestApp, type TestApp } from './helpers/test-app.js';
import { createTestDatabase, type TestDatabase } from './helpers/test-database.js';

/**
 * The SQLite counterpart of test/mysql/database-down: another connection (as another process
 * would) takes the database's write lock and keeps it. The service must answer 503 with
 * Retry-After within 5 s without stalling, turn unready, store nothing it did not acknowledge,
 * and recover by itself once the lock is released.
 */
describe('SQLite write lock held by someone else, then released', () => {
  let database: TestDatabase;
  let t: TestApp;
  let locker: Database.Database;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    t = await createTestApp({ DATABASE_URL: database.url });
    locker = new Database(database.url.slice('sqlite:'.length));
  });

  afterAll(async () => {
    if (locker?.inTransaction) locker.exec('ROLLBACK');
    locker?.close();
    await t?.close();
    await database?.drop();
  });

  it('503 with Retry-After within 5 s for every write, unready, nothing stored; recovers after release', async () => {
    const http = request(t.baseUrl);
    const stored = validEvent();
    expect((await http.post('/special-events').set('Authorization', AUTH).send(stored)).status).toBe(201);
    expect((await http.get('/health/ready')).status).toBe(200);

    locker.exec('BEGIN EXCLUSIVE');
    const refused = Array.from({ length: 20 }, () => validEvent());
    const started = Date.now();
    const answers = await Promise.all([
      ...refused.map((event) => http.post('/special-events').set('Authorization', AUTH).send(event)),
      http.delete(`/special-events/${stored.eventId as string}`).set('Authorization', AUTH),
    ]);
    const elapsed = Date.now() - started;
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    }
    // 21 writes: one waits the busy timeout (1 s), the others fail fast; without the fail-fast
    // they would block the event loop one after another for 21 s.
    expect(elapsed).toBeLessThan(5000);

    const liveStarted = Date.now();
    expect((await http.get('/health/live')).status).toBe(200);
    expect(Date.now() - liveStarted).toBeLessThan(1000);
    const ready = await http.get('/health/ready');
    expect(ready.status).toBe(503);
    expect(Number(ready.headers['retry-after'])).toBeGreaterThan(0);

    locker.exec('ROLLBACK');
    const recovery = Date.now();
    let readyAgain = false;
    while (!readyAgain && Date.now() - recovery < 5000) {
      readyAgain = (await http.get('/health/ready')).status === 200;
      if (!readyAgain) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(readyAgain).toBe(true);
    let created = 0;
    while (created !== 201 && Date.now() - recovery < 5000) {
      created = (await http.post('/special-events').set('Authorization', AUTH).send(refused[0])).status;
      if (created !== 201) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(created).toBe(201);

    // Nothing refused was stored: every other refused id is still free, the deleted one still there.
    for (const event of refused.slice(1, 5)) {
      expect((await http.delete(`/special-events/${event.eventId as string}`).set('Authorization', AUTH)).status).toBe(404);
    }
    expect((await http.delete(`/special-events/${stored.eventId as string}`).set('Authorization', AUTH)).status).toBe(204);
  });
});
