import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterEach, describe, expect, it } from 'vitest';
import { expectProblem, expectStatus } from '../helpers/problem-assertions.js';
import { AUTH, useTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Making subscriptions, on SQLite and MariaDB: IPv6 forms that carry an IPv4 address are refused,
 * the answer that holds the secret is never cached, a retried subscribe with its Idempotency-Key
 * gets the same subscription, and WEBHOOK_SUBSCRIPTIONS_MAX holds, under concurrency too.
 */

const MAX = 5;

async function rowCount(t: TestApp): Promise<number> {
  const [row] = (await t.app.get(DataSource).query('SELECT COUNT(*) AS n FROM webhook_subscriptions')) as {
    n: number | string;
  }[];
  return Number(row.n);
}

describe('webhooks: subscriptions', () => {
  const t = useTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_SUBSCRIPTIONS_MAX: String(MAX) });
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    request(t.baseUrl)
      .post('/webhooks')
      .set('Authorization', AUTH)
      .set(headers)
      .send(body as object);

  afterEach(async () => {
    await t.app.get(DataSource).query('DELETE FROM webhook_subscriptions');
  });

  it.each([
    ['IPv4-compatible loopback', 'https://[::7f00:1]/hook'],
    ['IPv4-compatible, written dotted', 'https://[::127.0.0.1]/hook'],
    ['IPv4-compatible metadata', 'https://[::a9fe:a9fe]/hook'],
    ['RFC 6145 translated loopback', 'https://[::ffff:0:7f00:1]/hook'],
    ['NAT64 local-use loopback', 'https://[64:ff9b:1::7f00:1]/hook'],
    ['NAT64 local-use metadata', 'https://[64:ff9b:1::a9fe:a9fe]/hook'],
    ['NAT64 well-known metadata', 'https://[64:ff9b::a9fe:a9fe]/hook'],
    ['6to4 loopback', 'https://[2002:7f00:1::]/hook'],
    ['6to4 metadata', 'https://[2002:a9fe:a9fe::1]/hook'],
    ['Teredo', 'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook'],
    ['6to4 of a public address', 'https://[2002:808:808::1]/hook'],
  ])('POST /webhooks: 422 for %s (%s)', async (_what, url) => {
    const problem = expectProblem(await post({ url }), 422, '/webhooks');
    expect(problem.type).toBe('urn:museum:problem:webhook-url-refused');
    expect(problem.detail).toMatch(/otherwise internal address/);
    expect(await rowCount(t)).toBe(0);
  });

  it('POST /webhooks: the answer holding the secret says Cache-Control: no-store, replayed or not', async () => {
    const first = await post({ url: 'http://127.0.0.1:9/a' });
    expectStatus(first, 201);
    expect(first.headers['cache-control']).toBe('no-store');
    const keyed = await post({ url: 'http://127.0.0.1:9/b' }, { 'Idempotency-Key': 'no-store-key' });
    const replayed = await post({ url: 'http://127.0.0.1:9/b' }, { 'Idempotency-Key': 'no-store-key' });
    expectStatus(replayed, 201);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    for (const res of [keyed, replayed]) expect(res.headers['cache-control']).toBe('no-store');
  });

  it('POST /webhooks: a retry with the same Idempotency-Key gets the same subscription and secret; one row', async () => {
    const body = { url: 'http://127.0.0.1:9/retried', description: 'Retried' };
    const first = await post(body, { 'Idempotency-Key': 'subscribe-once' });
    expectStatus(first, 201);
    const again = await post(body, { 'Idempotency-Key': 'subscribe-once' });
    expectStatus(again, 201);
    expect(again.text).toBe(first.text);
    expect(again.headers.location).toBe(first.headers.location);
    expect(await rowCount(t)).toBe(1);
    // The same key for another request is refused; another key makes another subscription.
    expectProblem(
      await post({ url: 'http://127.0.0.1:9/other' }, { 'Idempotency-Key': 'subscribe-once' }),
      422,
      '/webhooks',
    );
    expectStatus(await post(body, { 'Idempotency-Key': 'subscribe-twice' }), 201);
    expect(await rowCount(t)).toBe(2);
  });

  it(`POST /webhooks: 409 once WEBHOOK_SUBSCRIPTIONS_MAX (${MAX}) exist; a delete makes room`, async () => {
    const created: string[] = [];
    for (let i = 0; i < MAX; i++) {
      const res = await post({ url: `http://127.0.0.1:9/${i}` });
      expectStatus(res, 201);
      created.push((res.body as { webhookId: string }).webhookId);
    }
    const full = expectProblem(await post({ url: 'http://127.0.0.1:9/one-more' }), 409, '/webhooks');
    expect(full.type).toBe('urn:museum:problem:webhook-subscriptions-full');
    expect(full.detail).toBe(
      `There are already ${MAX} webhook subscriptions, the most this service keeps; delete one first.`,
    );
    expect(await rowCount(t)).toBe(MAX);
    expectStatus(await request(t.baseUrl).delete(`/webhooks/${created[0]}`).set('Authorization', AUTH), 204);
    expectStatus(await post({ url: 'http://127.0.0.1:9/one-more' }), 201);
    expect(await rowCount(t)).toBe(MAX);
  });

  it(`POST /webhooks: ${4 * MAX} subscribes at once make exactly ${MAX} subscriptions; the others get 409`, async () => {
    const responses = await Promise.all(
      Array.from({ length: 4 * MAX }, (_, i) => post({ url: `http://127.0.0.1:9/race-${i}` })),
    );
    const statuses = responses.map(({ status }) => status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(MAX);
    expect(statuses.filter((status) => status === 409)).toHaveLength(3 * MAX);
    expect(await rowCount(t)).toBe(MAX);
  });
});
