import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import request from 'supertest';
import { basicHeader } from '../helpers/test-app.js';
import { buildService, startService, type RunningService } from '../helpers/built-service.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';

const ALICE = { user: 'alice', password: 'alice-password-1234' };
const BOB = { user: 'bob', password: 'bob-password-12345' };
const CACHE_TTL_SECONDS = 2;

const body = (eventId: string) => ({
  eventId,
  name: 'Ticket launch',
  location: 'Main hall',
  eventDescription: 'Everyone wants a ticket.',
  dates: ['2027-01-01'],
  price: 30,
});

describe('two service processes on one MySQL database', () => {
  let database: TestDatabase;
  let a: RunningService;
  let b: RunningService;

  beforeAll(async () => {
    database = await createTestDatabase('mysql');
    const entry = buildService('two-instances');
    const common = { DATABASE_URL: database.url, DB_MIGRATIONS_RUN: 'true', AUTH_CACHE_TTL_SECONDS: String(CACHE_TTL_SECONDS) };
    // Started together: the migration lock must let exactly one of them create the schema.
    [a, b] = await Promise.all([
      startService(entry, { ...common, ADMIN_USERNAME: ALICE.user, ADMIN_PASSWORD: ALICE.password }),
      startService(entry, { ...common, ADMIN_USERNAME: BOB.user, ADMIN_PASSWORD: BOB.password }),
    ]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.drop();
  });

  it('the same new eventId fired at both at once: exactly one 201, every other answer 409', async () => {
    const eventId = crypto.randomUUID();
    const sends = [a, b].flatMap((service, index) =>
      Array.from({ length: 20 }, () =>
        request(service.baseUrl)
          .post('/special-events')
          .set('Authorization', basicHeader(index === 0 ? ALICE.user : BOB.user, index === 0 ? ALICE.password : BOB.password))
          .send(body(eventId)),
      ),
    );
    const statuses = (await Promise.all(sends)).map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(39);
  });

  it('users created through one instance work on the other; a removal reaches both within the cache bound', async () => {
    const alice = basicHeader(ALICE.user, ALICE.password);
    const bob = basicHeader(BOB.user, BOB.password);
    for (const service of [a, b]) {
      for (const header of [alice, bob]) {
        const created = await request(service.baseUrl).post('/special-events').set('Authorization', header).send(body(crypto.randomUUID()));
        expect(created.status).toBe(201);
      }
    }

    execFileSync(join(import.meta.dirname, '..', '..', 'node_modules', '.bin', 'tsx'), ['src/users.cli.ts', 'remove', ALICE.user], {
      cwd: join(import.meta.dirname, '..', '..'),
      env: { ...process.env, DATABASE_URL: database.url },
    });
    await new Promise((resolve) => setTimeout(resolve, CACHE_TTL_SECONDS * 1000 + 500));
    for (const service of [a, b]) {
      const refused = await request(service.baseUrl).post('/special-events').set('Authorization', alice).send(body(crypto.randomUUID()));
      expect(refused.status).toBe(401);
      const stillFine = await request(service.baseUrl).post('/special-events').set('Authorization', bob).send(body(crypto.randomUUID()));
      expect(stillFine.status).toBe(201);
    }
  });

  it('both shut down cleanly on SIGTERM', async () => {
    expect(await a.stop('SIGTERM')).toBe(0);
    expect(await b.stop('SIGTERM')).toBe(0);
  });
});
