import { randomUUID } from 'node:crypto';
import request, { type Response } from 'supertest';
import { DataSource } from 'typeorm';
import { beforeAll, describe, expect, it } from 'vitest';
import { UsersService } from '../../src/auth/users.service.js';
import { IdempotencyStore, SWEEP_BATCH } from '../../src/idempotency/idempotency.store.js';
import {
  type Body,
  expectProblem,
  expectStatus,
  expectUnauthorized,
  validEvent,
} from '../helpers/problem-assertions.js';
import { AUTH, basicHeader, createTestApp, useTestApp, type TestApp } from '../helpers/test-app.js';
import { createTestDatabase } from '../helpers/test-database.js';

/**
 * Idempotency-Key on POST /special-events (issue 19), over HTTP on the app built as main.ts builds
 * it, on each database. What a client can observe is checked (statuses, headers, bytes), and what
 * was written is counted in the database itself.
 */

const OTHER = { user: 'integration', password: 'integration-password-1' };
const OTHER_AUTH = basicHeader(OTHER.user, OTHER.password);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A create body without eventId: the service generates one, so a second write would be a second event. */
function newEvent(name = `Idempotent ${randomUUID()}`): Body {
  const { eventId: _ignored, ...event } = validEvent({ name });
  return event;
}

function post(t: TestApp, body: Body, key?: string, authorization = AUTH): request.Test {
  const req = request(t.baseUrl).post('/special-events').set('Authorization', authorization);
  return (key === undefined ? req : req.set('Idempotency-Key', key)).send(body);
}

async function eventsNamed(t: TestApp, name: unknown): Promise<number> {
  const rows = (await t.app
    .get(DataSource)
    .query('SELECT COUNT(*) AS n FROM special_events WHERE name = ?', [name])) as {
    n: number | string;
  }[];
  return Number(rows[0].n);
}

async function keyRows(t: TestApp): Promise<number> {
  const rows = (await t.app.get(DataSource).query('SELECT COUNT(*) AS n FROM idempotency_keys')) as {
    n: number | string;
  }[];
  return Number(rows[0].n);
}

/** What a replay must repeat exactly: status, the kept headers and the body's bytes. */
function replayable(res: Response): Record<string, unknown> {
  return {
    status: res.status,
    contentType: res.headers['content-type'],
    contentLength: res.headers['content-length'],
    location: res.headers.location,
    body: res.text,
  };
}

describe('Idempotency-Key on POST /special-events', () => {
  const t = useTestApp();

  beforeAll(async () => {
    await t.app.get(UsersService).add(OTHER.user, OTHER.password, 'editor');
  }, 60_000);

  it('the same request again replays the first response byte for byte, marked, and writes once', async () => {
    const key = randomUUID();
    const body = newEvent();
    const first = await post(t, body, key);
    expectStatus(first, 201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(first.headers.location).toBe(`/special-events/${(first.body as Body).eventId as string}`);

    const again = await post(t, body, key);
    expect(replayable(again)).toEqual(replayable(first));
    expect(again.headers['idempotent-replayed']).toBe('true');
    // Per-request headers are the new request's own.
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(await eventsNamed(t, body.name)).toBe(1);

    // The same JSON, formatted differently, is the same request.
    const reformatted = await request(t.baseUrl)
      .post('/special-events')
      .set('Authorization', AUTH)
      .set('Idempotency-Key', key)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(body, null, 2));
    expect(replayable(reformatted)).toEqual(replayable(first));
    expect(await eventsNamed(t, body.name)).toBe(1);
  });

  it('50 concurrent identical requests with one key make exactly one event; every answer is that 201 or a 409', async () => {
    const key = randomUUID();
    const body = newEvent();
    const responses = await Promise.all(Array.from({ length: 50 }, () => post(t, body, key)));
    const created = responses.filter((res) => res.status === 201);
    const original = created.filter((res) => res.headers['idempotent-replayed'] === undefined);
    expect(original).toHaveLength(1);
    for (const res of created) expect(replayable(res)).toEqual(replayable(original[0]));
    for (const res of responses.filter((r) => r.status !== 201)) {
      const problem = expectProblem(res, 409, '/special-events');
      expect(problem.detail).toMatch(/still being processed/);
    }
    expect(await eventsNamed(t, body.name)).toBe(1);
    // Once settled, every retry is the replay.
    expect(replayable(await post(t, body, key))).toEqual(replayable(original[0]));
  });

  it('the same key with a different request is a 422 and writes nothing', async () => {
    const key = randomUUID();
    const body = newEvent();
    expectStatus(await post(t, body, key), 201);
    const changed = { ...body, price: (body.price as number) + 1 };
    const refused = await post(t, changed, key);
    const problem = expectProblem(refused, 422, '/special-events');
    expect(problem.detail).toMatch(/different request/);
    expect(refused.headers['idempotent-replayed']).toBeUndefined();
    expect(await eventsNamed(t, body.name)).toBe(1);
  });

  it('keys are per user: another user with the same key gets its own processing', async () => {
    const key = randomUUID();
    const body = newEvent();
    const mine = await post(t, body, key);
    expectStatus(mine, 201);
    const theirs = await post(t, body, key, OTHER_AUTH);
    expectStatus(theirs, 201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect((theirs.body as Body).eventId).not.toBe((mine.body as Body).eventId);
    expect(await eventsNamed(t, body.name)).toBe(2);
    // Each user's own retry replays their own response.
    expect(replayable(await post(t, body, key, OTHER_AUTH))).toEqual(replayable(theirs));
    expect(replayable(await post(t, body, key))).toEqual(replayable(mine));
  });

  it('errors that changed nothing are not kept: the key can be retried, and then succeeds', async () => {
    const key = randomUUID();
    const body = newEvent();
    // 400 (validation, after the key was claimed): not kept.
    const invalid = await post(t, { ...body, price: 'free' }, key);
    expectProblem(invalid, 400, '/special-events', true);
    const invalidAgain = await post(t, { ...body, price: 'free' }, key);
    expectProblem(invalidAgain, 400, '/special-events', true);
    expect(invalidAgain.headers['idempotent-replayed']).toBeUndefined();
    // 409 (the eventId exists): not kept either; once the event is gone the retry creates it.
    const eventId = randomUUID();
    expectStatus(await post(t, { ...body, eventId }), 201);
    const duplicateKey = randomUUID();
    expectProblem(await post(t, { ...body, eventId }, duplicateKey), 409, '/special-events');
    expectStatus(await request(t.baseUrl).delete(`/special-events/${eventId}`).set('Authorization', AUTH), 204);
    const retried = await post(t, { ...body, eventId }, duplicateKey);
    expectStatus(retried, 201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    // The first key, after its 400s, works for a valid body.
    expectStatus(await post(t, body, key), 201);
  });

  it('a key in flight answers 409; one abandoned in flight (its process died) is taken over once its lease is over', async () => {
    const dataSource = t.app.get(DataSource);
    const body = newEvent();
    const inFlight = randomUUID();
    const abandoned = randomUUID();
    const fingerprintOf = async (key: string): Promise<string> => {
      // The real fingerprint of this request, from a claim that is then released.
      expectStatus(await post(t, body, key), 201);
      const [row] = (await dataSource.query('SELECT fingerprint FROM idempotency_keys WHERE idempotency_key = ?', [
        key,
      ])) as {
        fingerprint: string;
      }[];
      return row.fingerprint;
    };
    const fingerprint = await fingerprintOf(randomUUID());
    const insert =
      'INSERT INTO idempotency_keys (username, idempotency_key, fingerprint, claim, expires_at) VALUES (?, ?, ?, ?, ?)';
    await dataSource.query(insert, ['tester', inFlight, fingerprint, 'someone-else', Date.now() + 60_000]);
    await dataSource.query(insert, ['tester', abandoned, fingerprint, 'a-dead-process', Date.now() - 1]);
    const before = await eventsNamed(t, body.name);

    const busy = await post(t, body, inFlight);
    expectProblem(busy, 409, '/special-events');
    expect(await eventsNamed(t, body.name)).toBe(before);

    const takenOver = await post(t, body, abandoned);
    expectStatus(takenOver, 201);
    expect(takenOver.headers['idempotent-replayed']).toBeUndefined();
    expect(await eventsNamed(t, body.name)).toBe(before + 1);
    expect(replayable(await post(t, body, abandoned))).toEqual(replayable(takenOver));
  });

  it('a viewer is refused (403) and an anonymous caller gets the 401, keys or not, and no key is kept for them', async () => {
    const viewer = { user: `viewer-${randomUUID().slice(0, 8)}`, password: 'viewer-password-1' };
    await t.app.get(UsersService).add(viewer.user, viewer.password, 'viewer');
    const key = randomUUID();
    const rowsBefore = await keyRows(t);
    expectProblem(await post(t, newEvent(), key, basicHeader(viewer.user, viewer.password)), 403, '/special-events');
    expectUnauthorized(
      await request(t.baseUrl).post('/special-events').set('Idempotency-Key', key).send(newEvent()),
      '/special-events',
    );
    expect(await keyRows(t)).toBe(rowsBefore);
  });

  it('an invalid Idempotency-Key is a 400 that writes nothing; 255 visible characters are fine', async () => {
    const body = newEvent();
    const invalid = ['', ' ', 'a b', 'x'.repeat(256), 'tab\there', 'caf\u00e9', '\u{1F600}'];
    for (const key of invalid) {
      // supertest refuses some of these as header values; node:http sends them as raw latin1.
      const res = await post(t, body, Buffer.from(key, 'utf8').toString('latin1'));
      const problem = expectProblem(res, 400, '/special-events');
      expect(problem.detail).toBe('The Idempotency-Key header must be 1 to 255 visible ASCII characters, sent once.');
    }
    expect(await eventsNamed(t, body.name)).toBe(0);
    const longest = '!~'.repeat(127) + 'k';
    expectStatus(await post(t, body, longest), 201);
    expect((await post(t, body, longest)).headers['idempotent-replayed']).toBe('true');
    expect(await eventsNamed(t, body.name)).toBe(1);
  });

  it('the sweep removes every expired key in batches, oldest first, and nothing that is still live', async () => {
    const dataSource = t.app.get(DataSource);
    const now = Date.now();
    // Expiring in ten minutes, swept as of twenty: the background sweep (as of now) leaves them.
    const soon = now + 10 * 60_000;
    const rows = Array.from({ length: SWEEP_BATCH * 2 + 500 }, (_, i) => ['sweep-test', `k${i}`, 'f', 'c', soon + i]);
    for (let i = 0; i < rows.length; i += 500) {
      const chunk = rows.slice(i, i + 500);
      await dataSource.query(
        `INSERT INTO idempotency_keys (username, idempotency_key, fingerprint, claim, expires_at) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
        chunk.flat(),
      );
    }
    await dataSource.query(
      'INSERT INTO idempotency_keys (username, idempotency_key, fingerprint, claim, expires_at) VALUES (?, ?, ?, ?, ?)',
      ['sweep-test', 'live', 'f', 'c', now + 30 * 60_000],
    );
    const sweptAt = now + 20 * 60_000;
    // Earlier tests' keys that expire by then go too.
    const [{ n: expired }] = (await dataSource.query(
      'SELECT COUNT(*) AS n FROM idempotency_keys WHERE expires_at <= ?',
      [sweptAt],
    )) as {
      n: number | string;
    }[];
    expect(Number(expired)).toBeGreaterThanOrEqual(rows.length);
    expect(await t.app.get(IdempotencyStore).sweep(sweptAt)).toBe(Number(expired));
    const left = (await dataSource.query('SELECT idempotency_key FROM idempotency_keys WHERE username = ?', [
      'sweep-test',
    ])) as {
      idempotency_key: string;
    }[];
    expect(left).toEqual([{ idempotency_key: 'live' }]);
    await dataSource.query('DELETE FROM idempotency_keys WHERE username = ?', ['sweep-test']);
  });

  it('PATCH: a retried update replays its 200 and ETag and applies once; another change or precondition is a 422; a 412 is not kept', async () => {
    const created = await post(t, newEvent());
    expectStatus(created, 201);
    const path = `/special-events/${(created.body as Body).eventId as string}`;
    const patch = (body: Body, key: string, ifMatch?: string) => {
      const req = request(t.baseUrl).patch(path).set('Authorization', AUTH).set('Idempotency-Key', key);
      return (ifMatch === undefined ? req : req.set('If-Match', ifMatch)).send(body);
    };
    const version = async (): Promise<number> => {
      const rows = (await t.app
        .get(DataSource)
        .query('SELECT version FROM special_events WHERE event_id = ?', [(created.body as Body).eventId])) as {
        version: number | string;
      }[];
      return Number(rows[0].version);
    };
    const key = randomUUID();
    const first = await patch({ price: 42 }, key, created.headers.etag as string);
    expectStatus(first, 200);
    const afterFirst = await version();
    const again = await patch({ price: 42 }, key, created.headers.etag as string);
    expect({ ...replayable(again), etag: again.headers.etag }).toEqual({
      ...replayable(first),
      etag: first.headers.etag,
    });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await version()).toBe(afterFirst);
    expectProblem(await patch({ price: 43 }, key, created.headers.etag as string), 422, path);
    expectProblem(await patch({ price: 42 }, key, first.headers.etag as string), 422, path);
    // A stale If-Match (412) changed nothing: not kept, the key is free for a corrected retry.
    const staleKey = randomUUID();
    expectProblem(await patch({ price: 7 }, staleKey, created.headers.etag as string), 412, path);
    const corrected = await patch({ price: 7 }, staleKey);
    expectStatus(corrected, 200);
    expect(corrected.headers['idempotent-replayed']).toBeUndefined();
    expect(await version()).toBe(afterFirst + 1);
  });

  it('a retry whose JSON members come in another order is the same request: replayed on POST and PATCH, written once (issue 26)', async () => {
    const body = newEvent();
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    expect(JSON.stringify(reordered)).not.toBe(JSON.stringify(body));
    const key = randomUUID();
    const first = await post(t, body, key);
    expectStatus(first, 201);
    const again = await post(t, reordered, key);
    expect(replayable(again)).toEqual(replayable(first));
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await eventsNamed(t, body.name)).toBe(1);

    const path = `/special-events/${(first.body as Body).eventId as string}`;
    const patch = (text: string) =>
      request(t.baseUrl)
        .patch(path)
        .set('Authorization', AUTH)
        .set('Idempotency-Key', `${key}-patch`)
        .set('Content-Type', 'application/json')
        .send(text);
    const updated = await patch('{"price": 12.5, "location": "Hall B"}');
    expectStatus(updated, 200);
    const retried = await patch('{ "location" : "Hall B",\n "price" : 12.50 }');
    expect({ ...replayable(retried), etag: retried.headers.etag }).toEqual({
      ...replayable(updated),
      etag: updated.headers.etag,
    });
    expect(retried.headers['idempotent-replayed']).toBe('true');
    // What does differ is still another request.
    expectProblem(await patch('{"price": 12.6, "location": "Hall B"}'), 422, path);
  });

  it('without the header nothing is kept: the same request twice makes two events', async () => {
    const body = newEvent();
    const rowsBefore = await keyRows(t);
    expectStatus(await post(t, body), 201);
    expectStatus(await post(t, body), 201);
    expect(await eventsNamed(t, body.name)).toBe(2);
    expect(await keyRows(t)).toBe(rowsBefore);
  });
});

describe('Idempotency-Key: expiry and restarts', () => {
  it('a key expires after IDEMPOTENCY_TTL_SECONDS: then it is new again, and expired keys are removed by themselves', async () => {
    const t = await createTestApp({ IDEMPOTENCY_TTL_SECONDS: '1' });
    try {
      const key = randomUUID();
      const body = newEvent();
      expectStatus(await post(t, body, key), 201);
      await sleep(1300);
      // Within the lifetime this would be a 422 (another body): expired, the key is new again.
      const fresh = await post(t, { ...body, price: 1 }, key);
      expectStatus(fresh, 201);
      expect(fresh.headers['idempotent-replayed']).toBeUndefined();
      expect(await eventsNamed(t, body.name)).toBe(2);
      // With a 1 s lifetime the background sweep runs every second: the expired key goes by itself.
      const deadline = Date.now() + 30_000;
      while ((await keyRows(t)) > 0 && Date.now() < deadline) await sleep(200);
      expect(await keyRows(t)).toBe(0);
    } finally {
      await t.close();
    }
  }, 60_000);

  it('keys survive a restart: the restarted service replays, and refuses a different request with the key', async () => {
    const database = await createTestDatabase();
    try {
      const key = randomUUID();
      const body = newEvent();
      const before = await createTestApp({ DATABASE_URL: database.url });
      let first: Response;
      try {
        first = await post(before, body, key);
        expectStatus(first, 201);
      } finally {
        await before.close();
      }
      const after = await createTestApp({ DATABASE_URL: database.url });
      try {
        const again = await post(after, body, key);
        expect(replayable(again)).toEqual(replayable(first));
        expect(again.headers['idempotent-replayed']).toBe('true');
        expectProblem(await post(after, { ...body, price: 2 }, key), 422, '/special-events');
        expect(await eventsNamed(after, body.name)).toBe(1);
      } finally {
        await after.close();
      }
    } finally {
      await database.drop();
    }
  }, 90_000);
});
