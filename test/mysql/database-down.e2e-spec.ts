import request from 'supertest';
import { DataSource } from 'typeorm';
import { AUTH, createTestApp, type TestApp } from '../helpers/test-app.js';
import { createTestDatabase, MYSQL_TEST_URL, type TestDatabase } from '../helpers/test-database.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';

const event = (eventId: string) => ({
  eventId,
  name: 'Night at the museum',
  location: 'Hall 1',
  eventDescription: 'Torches and dinosaurs.',
  dates: ['2026-12-01'],
  price: 12.5,
});

/** Polls until `check` passes or `ms` elapse; returns the time it took. */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < ms) {
    if (await check()) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`not within ${ms} ms`);
}

describe('MySQL unreachable, then back (TCP proxy between service and server)', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let t: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase('mysql');
    const server = new URL(MYSQL_TEST_URL);
    proxy = new TcpProxy(server.hostname, Number(server.port || 3306));
    const port = await proxy.start();
    const url = new URL(database.url);
    url.host = `127.0.0.1:${port}`;
    t = await createTestApp({
      DATABASE_URL: url.toString(),
      DB_CONNECT_TIMEOUT_MS: '2000',
      DB_QUERY_TIMEOUT_MS: '3000',
    });
  });

  afterAll(async () => {
    await t?.close();
    await proxy?.stop();
    await database?.drop();
  });

  it('answers 503 with Retry-After while the database is gone, and recovers by itself', async () => {
    const http = request(t.baseUrl);
    const before = await http.post('/special-events').set('Authorization', AUTH).send(event(crypto.randomUUID()));
    expect(before.status).toBe(201);

    proxy.cut();
    const lostId = crypto.randomUUID();
    const started = Date.now();
    const during = await http.post('/special-events').set('Authorization', AUTH).send(event(lostId));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(during.status).toBe(503);
    expect(during.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(Number(during.headers['retry-after'])).toBeGreaterThan(0);
    expect(during.body).toMatchObject({ status: 503, title: 'Service Unavailable' });
    expect(JSON.stringify(during.body)).not.toMatch(/ECONN|mysql|127\.0\.0\.1|at /i);

    const deleteDuring = await http.delete(`/special-events/${crypto.randomUUID()}`).set('Authorization', AUTH);
    expect(deleteDuring.status).toBe(503);
    const ready = await http.get('/health/ready');
    expect(ready.status).toBe(503);
    expect(await http.get('/health/live').then((r) => r.status)).toBe(200);

    proxy.restore();
    const recoveredIn = await within(5000, async () => (await http.get('/health/ready')).status === 200);
    expect(recoveredIn).toBeLessThan(5000);

    // Nothing was acknowledged during the outage, and nothing was stored: the id is free.
    const after = await http.post('/special-events').set('Authorization', AUTH).send(event(lostId));
    expect(after.status).toBe(201);
    expect(after.body).toEqual(event(lostId));
  });
});

describe('every pooled connection busy: bounded wait for a connection', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ DB_POOL_SIZE: '1', DB_ACQUIRE_TIMEOUT_MS: '500', DB_QUERY_TIMEOUT_MS: '10000' });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('answers 503 with Retry-After after DB_ACQUIRE_TIMEOUT_MS instead of queueing, then serves again', async () => {
    const http = request(t.baseUrl);
    // Verifies (and caches) the credentials while the connection is free.
    expect((await http.post('/special-events').set('Authorization', AUTH).send(event(crypto.randomUUID()))).status).toBe(201);

    const hold = t.app.get(DataSource).query('SELECT SLEEP(3)');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const waitingId = crypto.randomUUID();
    const started = Date.now();
    const waiting = await http.post('/special-events').set('Authorization', AUTH).send(event(waitingId));
    const waited = Date.now() - started;
    expect(waiting.status).toBe(503);
    expect(Number(waiting.headers['retry-after'])).toBeGreaterThan(0);
    expect(waited).toBeGreaterThanOrEqual(400);
    expect(waited).toBeLessThan(2500);

    await hold;
    const after = await http.post('/special-events').set('Authorization', AUTH).send(event(waitingId));
    expect(after.status).toBe(201);
  });
});
