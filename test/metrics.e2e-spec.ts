import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { describe, expect, it, vi } from 'vitest';
import {
  type Body,
  expectProblem,
  expectStatus,
  expectUnauthorized,
  validEvent,
} from './helpers/problem-assertions.js';
import { AUTH, basicHeader, TEST_USER, useTestApp, type TestApp } from './helpers/test-app.js';
import { TEST_DATABASE } from './helpers/test-database.js';
import { UsersService } from '../src/auth/users.service.js';

/**
 * GET /metrics (Prometheus text format): counters that move by exactly the requests made, labelled
 * by route pattern, authentication failures, database state, process metrics; no credentials
 * needed; METRICS_ENABLED=false removes the route. One app open at a time.
 */

const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';

/** Series name with its labels sorted (`name{a="1",b="2"}`) → value. */
type Samples = Map<string, number>;

function parseMetrics(text: string): Samples {
  const samples: Samples = new Map();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels = match[2] ? (match[2].match(/[a-zA-Z_]+="(?:[^"\\]|\\.)*"/g) ?? []).sort().join(',') : '';
    samples.set(labels ? `${match[1]}{${labels}}` : match[1], Number(match[3]));
  }
  return samples;
}

/** The key of a series, labels given in any order. */
function series(name: string, labels: Record<string, string> = {}): string {
  const entries = Object.entries(labels)
    .map(([key, value]) => `${key}="${value}"`)
    .sort();
  return entries.length ? `${name}{${entries.join(',')}}` : name;
}

async function scrape(t: TestApp): Promise<Samples> {
  const res = await request(t.baseUrl).get('/metrics');
  expectStatus(res, 200);
  expect(res.headers['content-type']).toBe(PROMETHEUS_TEXT);
  return parseMetrics(res.text);
}

/** How much each series moved between two scrapes (absent = 0). */
function delta(before: Samples, after: Samples, key: string): number {
  return (after.get(key) ?? 0) - (before.get(key) ?? 0);
}

const requests = (method: string, route: string, status: number): string =>
  series('http_requests_total', { method, route, status: String(status) });
const durations = (method: string, route: string, status: number): string =>
  series('http_request_duration_seconds_count', { method, route, status: String(status) });

describe('METRICS_ENABLED (default true)', () => {
  const t = useTestApp();

  it('GET /metrics needs no credentials, is Prometheus text, and ignores any it gets', async () => {
    const anonymous = await request(t.baseUrl).get('/metrics');
    expectStatus(anonymous, 200);
    expect(anonymous.headers['content-type']).toBe(PROMETHEUS_TEXT);
    expect(anonymous.text).toMatch(/^# HELP /m);
    expect(anonymous.headers['www-authenticate']).toBeUndefined();
    const wrong = await request(t.baseUrl)
      .get('/metrics')
      .set('Authorization', basicHeader(TEST_USER, 'wrong password!'));
    expectStatus(wrong, 200);
  });

  it('request counters and latency histograms move by exactly the requests made, by route pattern and status', async () => {
    const before = await scrape(t);
    const event = validEvent();
    const id = event.eventId as string;
    const unknownId = randomUUID();
    expectStatus(await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(event), 201);
    expectStatus(await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(validEvent()), 201);
    expectProblem(
      await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(event),
      409,
      '/special-events',
    );
    expectUnauthorized(await request(t.baseUrl).post('/special-events').send(validEvent()), '/special-events');
    expectStatus(await request(t.baseUrl).delete(`/special-events/${id}`).set('Authorization', AUTH), 204);
    expectProblem(
      await request(t.baseUrl).delete(`/special-events/${unknownId}`).set('Authorization', AUTH),
      404,
      `/special-events/${unknownId}`,
    );
    expectProblem(await request(t.baseUrl).get(`/nothing/here/${unknownId}`), 404, `/nothing/here/${unknownId}`);
    expectStatus(await request(t.baseUrl).get('/health/live'), 200);

    const expected: [string, number][] = [
      [requests('POST', '/special-events', 201), 2],
      [requests('POST', '/special-events', 409), 1],
      [requests('POST', '/special-events', 401), 1],
      [requests('DELETE', '/special-events/:eventId', 204), 1],
      [requests('DELETE', '/special-events/:eventId', 404), 1],
      [requests('GET', '(unmatched)', 404), 1],
      [requests('GET', '/health/live', 200), 1],
      // The scrape before: counted once its response is finished.
      [requests('GET', '/metrics', 200), 1],
      [durations('POST', '/special-events', 201), 2],
      [durations('DELETE', '/special-events/:eventId', 204), 1],
      [
        series('http_request_duration_seconds_bucket', {
          method: 'POST',
          route: '/special-events',
          status: '201',
          le: '+Inf',
        }),
        2,
      ],
    ];
    const after = await vi.waitFor(async () => {
      const samples = await scrape(t);
      expect(delta(before, samples, requests('GET', '/health/live', 200))).toBe(1);
      return samples;
    });
    expect(expected.map(([key]) => [key, delta(before, after, key)])).toEqual(expected);
    // No other request series moved, and each histogram counted what its counter counted.
    const moved = [...after.keys()].filter(
      (key) => key.startsWith('http_requests_total{') && delta(before, after, key) !== 0,
    );
    expect(moved.sort()).toEqual(
      expected
        .map(([key]) => key)
        .filter((key) => key.startsWith('http_requests_total{'))
        .sort(),
    );
    for (const key of moved) {
      const count = key.replace('http_requests_total', 'http_request_duration_seconds_count');
      expect([key, delta(before, after, count)]).toEqual([key, delta(before, after, key)]);
    }
    // Never a raw path: no id in any label.
    const text = (await request(t.baseUrl).get('/metrics')).text;
    for (const raw of [id, unknownId, '/nothing/here']) expect(text).not.toContain(raw);
    expect(
      after.get(
        series('http_request_duration_seconds_sum', { method: 'POST', route: '/special-events', status: '201' }),
      ),
    ).toBeGreaterThan(0);
  });

  it('auth_failures_total counts every refused credential, and nothing else', async () => {
    const before = await scrape(t);
    const path = `/special-events/${randomUUID()}`;
    expectUnauthorized(await request(t.baseUrl).post('/special-events').send(validEvent()), '/special-events');
    expectUnauthorized(
      await request(t.baseUrl)
        .post('/special-events')
        .set('Authorization', basicHeader(TEST_USER, 'not the password'))
        .send(validEvent()),
      '/special-events',
    );
    expectUnauthorized(await request(t.baseUrl).delete(path).set('Authorization', 'Bearer abc'), path);
    expectProblem(await request(t.baseUrl).delete(path).set('Authorization', AUTH), 404, path);
    expectStatus(await request(t.baseUrl).get('/health/live'), 200);
    const after = await scrape(t);
    expect(delta(before, after, 'auth_failures_total')).toBe(3);
  });

  it('auth_password_checks_total: fifty concurrent requests with the same new credentials cost one hash, repeated wrong ones none', async () => {
    const username = `flight-${randomUUID().slice(0, 8)}`;
    const password = 'single flight password';
    await t.app.get(UsersService).add(username, password);
    const before = await scrape(t);
    const fresh = basicHeader(username, password);
    const paths = Array.from({ length: 50 }, () => `/special-events/${randomUUID()}`);
    const answers = await Promise.all(paths.map((path) => request(t.baseUrl).delete(path).set('Authorization', fresh)));
    answers.forEach((res, i) => expectProblem(res, 404, paths[i]));
    const afterFlight = await scrape(t);
    expect(delta(before, afterFlight, 'auth_password_checks_total')).toBe(1);

    const wrong = basicHeader(username, 'not the password at all');
    for (let attempt = 0; attempt < 5; attempt++) {
      expectUnauthorized(
        await request(t.baseUrl).post('/special-events').set('Authorization', wrong).send(validEvent()),
        '/special-events',
      );
    }
    const afterWrong = await scrape(t);
    expect(delta(afterFlight, afterWrong, 'auth_password_checks_total')).toBe(1);
    expect(delta(afterFlight, afterWrong, 'auth_failures_total')).toBe(5);
  });

  it('db_up is 1, and the process metrics are there', async () => {
    const samples = await scrape(t);
    expect(samples.get('db_up')).toBe(1);
    expect(samples.get('process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(samples.get('nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });

  it.runIf(TEST_DATABASE === 'mysql')('MySQL: the pool state of the driver (open, idle, max, queued)', async () => {
    const samples = await scrape(t);
    const open = samples.get('db_pool_connections_open') as number;
    expect(open).toBeGreaterThanOrEqual(1);
    expect(samples.get('db_pool_connections_max')).toBe(t.config.databasePool.size);
    expect(samples.get('db_pool_connections_idle')).toBeGreaterThanOrEqual(0);
    expect(samples.get('db_pool_connections_idle')).toBeLessThanOrEqual(open);
    expect(samples.get('db_pool_queued_requests')).toBe(0);
  });

  it.runIf(TEST_DATABASE === 'sqlite')('SQLite: no pool metrics (there is no pool), db_up only', async () => {
    const names = [...(await scrape(t)).keys()].filter((key) => key.startsWith('db_'));
    expect(names).toEqual(['db_up']);
  });

  it('the OpenAPI document describes GET /metrics: text/plain, no security, tagged Operations', async () => {
    const doc = (await request(t.baseUrl).get('/openapi.json')).body as { paths: Record<string, Record<string, Body>> };
    const operation = doc.paths['/metrics']?.get;
    expect(operation).toMatchObject({ operationId: 'metrics', tags: ['Operations'] });
    expect(operation.description).toEqual(expect.any(String));
    const ok = (operation.responses as Record<string, Body>)['200'];
    expect(ok.description).toEqual(expect.any(String));
    expect(Object.keys(ok.content as Body)).toEqual(['text/plain']);
    expect(operation.security ?? []).toEqual([]);
  });
});

describe('METRICS_ENABLED=false', () => {
  const t = useTestApp({ METRICS_ENABLED: 'false' });

  it('GET /metrics is a 404 problem like any unknown route, with or without credentials', async () => {
    expectProblem(await request(t.baseUrl).get('/metrics'), 404, '/metrics');
    expectProblem(await request(t.baseUrl).get('/metrics').set('Authorization', AUTH), 404, '/metrics');
  });

  it('the OpenAPI document has no /metrics; the service works as before', async () => {
    const doc = (await request(t.baseUrl).get('/openapi.json')).body as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).not.toContain('/metrics');
    expectStatus(await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(validEvent()), 201);
    expectUnauthorized(await request(t.baseUrl).post('/special-events').send(validEvent()), '/special-events');
  });
});

describe('a second app in the same process', () => {
  const t = useTestApp();

  it('has its own registry: it counts only its own requests', async () => {
    const first = await scrape(t);
    expect([...first.keys()].filter((key) => key.startsWith('http_requests_total{'))).toEqual([]);
    expect(first.get('auth_failures_total')).toBe(0);
    expectStatus(await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(validEvent()), 201);
    const second = await scrape(t);
    expect(second.get(requests('POST', '/special-events', 201))).toBe(1);
    expect(second.get(requests('GET', '/metrics', 200))).toBe(1);
  });
});
