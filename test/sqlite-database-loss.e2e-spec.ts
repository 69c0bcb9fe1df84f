import { suiteDate, useMuseumClock } from './helpers/clock.js';
import Database from 'better-sqlite3';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { WRITE_FAILURE_UNREADY_MS } from '../src/database/write-health.js';
import { validEvent } from './helpers/problem-assertions.js';
import { AUTH, useTestApp } from './helpers/test-app.js';
import { useTestDatabase } from './helpers/test-database.js';
import { setHoursOn } from './museum-hours/api.js';
import { buyTicket } from './tickets/api.js';

/**
 * The SQLite counterpart of test/mysql/database-down: another connection (as another process
 * would) takes the database's write lock and keeps it. The service must answer 503 with
 * Retry-After within 5 s without stalling, turn unready, store nothing it did not acknowledge,
 * and recover by itself once the lock is released.
 */
describe('SQLite write lock held by someone else, then released', () => {
  const database = useTestDatabase('sqlite');
  const t = useTestApp(() => ({ DATABASE_URL: database.url }));
  let locker: Database.Database;

  beforeAll(() => {
    locker = new Database(database.url.slice('sqlite:'.length));
  });

  // Runs first at the end: the lock released before the app closes and the database goes.
  afterAll(() => {
    if (locker?.inTransaction) locker.exec('ROLLBACK');
    locker?.close();
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
    // No write comes to say the database takes writes again: readiness may wait out the failed
    // writes' WRITE_FAILURE_UNREADY_MS, then its own probe passes.
    const recovery = Date.now();
    let readyAgain = false;
    while (!readyAgain && Date.now() - recovery < WRITE_FAILURE_UNREADY_MS + 5000) {
      readyAgain = (await http.get('/health/ready')).status === 200;
      if (!readyAgain) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(readyAgain).toBe(true);
    const writing = Date.now();
    let created = 0;
    while (created !== 201 && Date.now() - writing < 5000) {
      created = (await http.post('/special-events').set('Authorization', AUTH).send(refused[0])).status;
      if (created !== 201) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(created).toBe(201);

    // Nothing refused was stored: every other refused id is still free, the deleted one still there.
    for (const event of refused.slice(1, 5)) {
      expect((await http.delete(`/special-events/${event.eventId as string}`).set('Authorization', AUTH)).status).toBe(
        404,
      );
    }
    expect((await http.delete(`/special-events/${stored.eventId as string}`).set('Authorization', AUTH)).status).toBe(
      204,
    );
  });
});

/**
 * Issue 17: readiness said 200 while every write failed with SQLITE_FULL (`SELECT 1` and taking
 * the write lock still work on a full disk). The database is made full the way SQLite itself
 * reports a full disk: `max_page_count` set to the pages it has, so any write that needs a new
 * page fails with SQLITE_FULL. Writes get 503, readiness turns 503, and both recover once there
 * is room again.
 */
describe('SQLite full (every write fails with SQLITE_FULL), then room again', () => {
  const t = useTestApp();
  let db: Database.Database;

  beforeAll(() => {
    db = (t.app.get(DataSource).driver as unknown as { databaseConnection: Database.Database }).databaseConnection;
  });

  /** An event whose description needs pages of its own. */
  const large = () => validEvent({ eventDescription: 'x'.repeat(5000) });

  it('503 with Retry-After for every write, unready while writes fail, ready and writing again after', async () => {
    const http = request(t.baseUrl);
    expect((await http.post('/special-events').set('Authorization', AUTH).send(large())).status).toBe(201);
    expect((await http.get('/health/ready')).status).toBe(200);

    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    const refused = await Promise.all(
      Array.from({ length: 5 }, () => http.post('/special-events').set('Authorization', AUTH).send(large())),
    );
    for (const answer of refused) {
      expect(answer.status).toBe(503);
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    }
    const ready = await http.get('/health/ready');
    expect(ready.status).toBe(503);
    expect(Number(ready.headers['retry-after'])).toBeGreaterThan(0);
    expect(ready.body).toMatchObject({ status: 503, title: 'Service Unavailable' });

    db.pragma('max_page_count = 1073741823');
    const room = Date.now();
    let created = 0;
    while (created !== 201 && Date.now() - room < 5000) {
      created = (await http.post('/special-events').set('Authorization', AUTH).send(large())).status;
      if (created !== 201) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(created).toBe(201);
    expect((await http.get('/health/ready')).status).toBe(200);
  });
});

/**
 * Readiness hears of every feature's failed writes, not only the special events': a ticket sale
 * that fails with SQLITE_FULL (readiness's own probe still passes on a full disk) makes the
 * service unready, and the next write that succeeds makes it ready again.
 */
describe('SQLite full while tickets are sold: readiness hears of the failed sale', () => {
  const t = useTestApp();
  useMuseumClock(t);
  let db: Database.Database;
  const day = suiteDate(10);

  beforeAll(() => {
    db = (t.app.get(DataSource).driver as unknown as { databaseConnection: Database.Database }).databaseConnection;
  });

  afterAll(() => {
    db?.pragma('max_page_count = 1073741823');
  });

  const buy = () =>
    buyTicket(t.baseUrl, {
      ticketType: 'general',
      ticketDate: day,
      email: `${'x'.repeat(64)}@${'e'.repeat(60)}.${'f'.repeat(60)}.${'g'.repeat(60)}.org`,
    });

  it('a sale refused with 503 turns /health/ready to 503; a sale that succeeds turns it back', async () => {
    const http = request(t.baseUrl);
    const opened = await setHoursOn(t.baseUrl, day, { timeOpen: '09:00', timeClose: '18:00' });
    expect(opened.status).toBe(200);
    expect((await buy()).status).toBe(201);
    expect((await http.get('/health/ready')).status).toBe(200);

    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    let status = 201;
    for (let sold = 0; status === 201 && sold < 500; sold++) status = (await buy()).status;
    expect(status).toBe(503);
    const ready = await http.get('/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ detail: 'The database does not take writes right now.' });

    db.pragma('max_page_count = 1073741823');
    // Writes fail fast for a moment after SQLITE_FULL (SQLITE_FAIL_FAST_MS): retry until one sells.
    const room = Date.now();
    let created = 0;
    while (created !== 201 && Date.now() - room < 5000) {
      created = (await buy()).status;
      if (created !== 201) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(created).toBe(201);
    expect((await http.get('/health/ready')).status).toBe(200);
  });
});
