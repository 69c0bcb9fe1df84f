import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { createConnection, type RowDataPacket } from 'mysql2/promise';
import request from 'supertest';
import { basicHeader } from '../helpers/test-app.js';
import { startService, useBuiltService, type RunningService } from '../helpers/built-service.js';

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
  const built = useBuiltService('mysql', { sharedAcrossTests: true });
  const database = built.database;
  let a: RunningService;
  let b: RunningService;

  beforeAll(async () => {
    const entry = built.entry;
    const common = {
      DATABASE_URL: database.url,
      DB_MIGRATIONS_RUN: 'true',
      AUTH_CACHE_TTL_SECONDS: String(CACHE_TTL_SECONDS),
    };
    // Started together: the migration lock must let exactly one of them create the schema.
    [a, b] = await Promise.all([
      startService(entry, { ...common, ADMIN_USERNAME: ALICE.user, ADMIN_PASSWORD: ALICE.password }),
      startService(entry, { ...common, ADMIN_USERNAME: BOB.user, ADMIN_PASSWORD: BOB.password }),
    ]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it('the same new eventId fired at both at once: exactly one 201, every other answer 409', async () => {
    const eventId = crypto.randomUUID();
    const sends = [a, b].flatMap((service, index) =>
      Array.from({ length: 20 }, () =>
        request(service.baseUrl)
          .post('/special-events')
          .set(
            'Authorization',
            basicHeader(index === 0 ? ALICE.user : BOB.user, index === 0 ? ALICE.password : BOB.password),
          )
          .send(body(eventId)),
      ),
    );
    const statuses = (await Promise.all(sends)).map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(39);
  });

  it('one Idempotency-Key fired at both at once: one event, every 201 the same response, a later retry on either replays it', async () => {
    const bob = basicHeader(BOB.user, BOB.password);
    const key = crypto.randomUUID();
    const { eventId: _generated, ...event } = { ...body(crypto.randomUUID()), name: `Idempotent ${key}` };
    const sends = [a, b].flatMap((service) =>
      Array.from({ length: 20 }, () =>
        request(service.baseUrl)
          .post('/special-events')
          .set('Authorization', bob)
          .set('Idempotency-Key', key)
          .send(event),
      ),
    );
    const responses = await Promise.all(sends);
    const created = responses.filter((response) => response.status === 201);
    expect(created.filter((response) => response.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    expect(new Set(created.map((response) => response.text)).size).toBe(1);
    expect(responses.filter((response) => response.status !== 201).map((response) => response.status)).toEqual(
      Array.from({ length: 40 - created.length }, () => 409),
    );
    for (const service of [a, b]) {
      const retried = await request(service.baseUrl)
        .post('/special-events')
        .set('Authorization', bob)
        .set('Idempotency-Key', key)
        .send(event);
      expect({ status: retried.status, text: retried.text, replayed: retried.headers['idempotent-replayed'] }).toEqual({
        status: 201,
        text: created[0].text,
        replayed: 'true',
      });
    }
    const connection = await createConnection({ uri: database.url });
    try {
      const [rows] = await connection.query<RowDataPacket[]>(
        'SELECT COUNT(*) AS n FROM special_events WHERE name = ?',
        [event.name],
      );
      expect(Number(rows[0].n)).toBe(1);
    } finally {
      await connection.end();
    }
  });

  // Two users CLI runs (tsx, scrypt each) and the cache bound: longer than the default timeout.
  it('a role changed with the users CLI reaches both instances within the cache bound', async () => {
    const carol = { user: 'carol', password: 'carol-password-1234' };
    const header = basicHeader(carol.user, carol.password);
    const cli = (args: string[], input = '') =>
      execFileSync(
        join(import.meta.dirname, '..', '..', 'node_modules', '.bin', 'tsx'),
        ['src/users.cli.ts', ...args],
        {
          cwd: join(import.meta.dirname, '..', '..'),
          env: { ...process.env, DATABASE_URL: database.url },
          input,
        },
      );
    cli(['add', carol.user, '--role', 'editor'], `${carol.password}\n`);
    for (const service of [a, b]) {
      const created = await request(service.baseUrl)
        .post('/special-events')
        .set('Authorization', header)
        .send(body(crypto.randomUUID()));
      expect(created.status).toBe(201);
    }
    cli(['role', carol.user, 'viewer']);
    await new Promise((resolve) => setTimeout(resolve, CACHE_TTL_SECONDS * 1000 + 500));
    for (const service of [a, b]) {
      const refused = await request(service.baseUrl)
        .post('/special-events')
        .set('Authorization', header)
        .send(body(crypto.randomUUID()));
      expect(refused.status).toBe(403);
    }
  }, 180_000);

  it('users created through one instance work on the other; a removal reaches both within the cache bound', async () => {
    const alice = basicHeader(ALICE.user, ALICE.password);
    const bob = basicHeader(BOB.user, BOB.password);
    for (const service of [a, b]) {
      for (const header of [alice, bob]) {
        const created = await request(service.baseUrl)
          .post('/special-events')
          .set('Authorization', header)
          .send(body(crypto.randomUUID()));
        expect(created.status).toBe(201);
      }
    }

    execFileSync(
      join(import.meta.dirname, '..', '..', 'node_modules', '.bin', 'tsx'),
      ['src/users.cli.ts', 'remove', ALICE.user],
      {
        cwd: join(import.meta.dirname, '..', '..'),
        env: { ...process.env, DATABASE_URL: database.url },
      },
    );
    await new Promise((resolve) => setTimeout(resolve, CACHE_TTL_SECONDS * 1000 + 500));
    for (const service of [a, b]) {
      const refused = await request(service.baseUrl)
        .post('/special-events')
        .set('Authorization', alice)
        .send(body(crypto.randomUUID()));
      expect(refused.status).toBe(401);
      const stillFine = await request(service.baseUrl)
        .post('/special-events')
        .set('Authorization', bob)
        .send(body(crypto.randomUUID()));
      expect(stillFine.status).toBe(201);
    }
  });

  it('a user removed with the users CLI mid-load is refused by both instances within 1 s, before the cache bound (issue 26)', async () => {
    const erin = { user: 'erin', password: 'erin-password-12345' };
    const header = basicHeader(erin.user, erin.password);
    const root = join(import.meta.dirname, '..', '..');
    const cli = (args: string[], input = '') =>
      execFileSync(join(root, 'node_modules', '.bin', 'tsx'), ['src/users.cli.ts', ...args], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: database.url },
        input,
      });
    cli(['add', erin.user, '--role', 'editor'], `${erin.password}\n`);
    const post = (service: RunningService) =>
      request(service.baseUrl).post('/special-events').set('Authorization', header).send(body(crypto.randomUUID()));
    let removedAt = 0;
    let stop = false;
    const late: string[] = [];
    const accepted = [0, 0];
    // Four clients per instance, sending one request after another throughout.
    const load = [a, b].flatMap((service, index) =>
      Array.from({ length: 4 }, async () => {
        while (!stop) {
          const sentAt = Date.now();
          const res = await post(service);
          if (res.status === 201) accepted[index]++;
          // Refused: 401, or 429 once the refusals of the removed name reach the failure limit.
          if (removedAt > 0 && sentAt > removedAt + 1_000 && ![401, 429].includes(res.status)) {
            late.push(`${index}:${res.status}`);
          }
        }
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    cli(['remove', erin.user]);
    removedAt = Date.now();
    // Shorter than the instances' cache bound (AUTH_CACHE_TTL_SECONDS = 2), which no longer decides.
    await new Promise((resolve) => setTimeout(resolve, 1_800));
    stop = true;
    await Promise.all(load);
    expect(accepted.every((count) => count > 0)).toBe(true);
    expect(late).toEqual([]);
    for (const service of [a, b]) expect([401, 429]).toContain((await post(service)).status);
  }, 120_000);

  it('both shut down cleanly on SIGTERM', async () => {
    expect(await a.stop('SIGTERM')).toBe(0);
    expect(await b.stop('SIGTERM')).toBe(0);
  });
});
