import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterEach, describe, expect, it } from 'vitest';
import { expectProblem } from './helpers/problem-assertions.js';
import { AUTH, useTestApp, type TestApp } from './helpers/test-app.js';

/** Making subscriptions, on SQLite and MariaDB: IPv6 forms that carry an IPv4 address are refused. */

async function rowCount(t: TestApp): Promise<number> {
  const [row] = (await t.app.get(DataSource).query('SELECT COUNT(*) AS n FROM webhook_subscriptions')) as {
    n: number | string;
  }[];
  return Number(row.n);
}

describe('webhooks: subscriptions', () => {
  const t = useTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
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
});
