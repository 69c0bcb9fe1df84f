import request from 'supertest';
import { startService, useBuiltService, type RunningService } from './helpers/built-service.js';
import { TEST_DATABASE } from './helpers/test-database.js';

const LIMIT = 6;
/**
 * An hour: windows are aligned on the clock, and a test that ran across the end of one would see
 * its count start again (a one-in-a-thousand chance with an hour, not one in forty with a minute).
 */
const WINDOW_SECONDS = 3600;

/**
 * The public read limit is kept in the database: two processes of the service on one database
 * (SQLite file or MySQL) count one address's anonymous reads together, so it gets its 429 after
 * PUBLIC_RATE_LIMIT reads in total, from whichever instance, with the Retry-After of the window.
 */
describe(`the public read limit, shared by two instances on one ${TEST_DATABASE} database`, () => {
  const built = useBuiltService(TEST_DATABASE, { sharedAcrossTests: true });
  let a: RunningService;
  let b: RunningService;

  beforeAll(async () => {
    const env = {
      DATABASE_URL: built.database.url,
      DB_MIGRATIONS_RUN: 'true',
      ADMIN_USERNAME: 'alice',
      ADMIN_PASSWORD: 'alice-password-1234',
      PUBLIC_READ: 'true',
      PUBLIC_RATE_LIMIT: String(LIMIT),
      PUBLIC_RATE_WINDOW_SECONDS: String(WINDOW_SECONDS),
      TRUST_PROXY: 'loopback',
    };
    a = await startService(built.entry, env);
    b = await startService(built.entry, env);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  const read = (service: RunningService, client: string) =>
    request(service.baseUrl).get('/special-events').set('X-Forwarded-For', client);

  it('counts one address across both instances, and answers 429 with the rest of the window', async () => {
    for (let i = 0; i < LIMIT; i++) expect((await read(i % 2 === 0 ? a : b, '203.0.113.9')).status).toBe(200);
    for (const service of [a, b]) {
      const before = Date.now();
      const limited = await read(service, '203.0.113.9');
      const after = Date.now();
      expect(limited.status).toBe(429);
      // What is left of the hour on the clock when the request was made (rounded up to a second).
      const end = (Math.floor(before / (WINDOW_SECONDS * 1000)) + 1) * WINDOW_SECONDS * 1000;
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(Math.max(1, Math.floor((end - after) / 1000)));
      expect(retryAfter).toBeLessThanOrEqual(Math.ceil((end - before) / 1000));
    }
    // Another address has a count of its own.
    expect((await read(b, '203.0.113.10')).status).toBe(200);
  });

  it('lets exactly the limit in when one address reads from both instances at once', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 4 * LIMIT }, (_, i) => read(i % 2 === 0 ? a : b, '198.51.100.4').then((r) => r.status)),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(3 * LIMIT);
  });
});
