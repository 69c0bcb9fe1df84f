import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { describe, expect, it, vi } from 'vitest';
import { DataSource } from 'typeorm';
import { CHALLENGE, expectProblem, expectStatus, expectUnauthorized } from '../helpers/problem-assertions.js';
import { AUTH, useTestApp } from '../helpers/test-app.js';
import { FEATURES, migrationsOf } from '../../src/features.js';
import { EXHIBITS_MIGRATIONS } from './exhibits.migrations.js';
import { ExhibitsModule } from './exhibits.module.js';

/**
 * README.md's "Adding a module", done as written: a folder of its own (this one, standing for
 * src/exhibits/: module, controller, DTO, repository), its table made by a migration per driver
 * listed in exhibits.migrations.ts, and one line in the feature list, given here as
 * createApp's `features` (the line src/features.ts would hold); nothing else anywhere. What it
 * must get for free, each asserted below: its table on start, authentication, documented
 * security, body reading and validation, problem details, 405 with Allow, request logs, metrics
 * and its place in the OpenAPI document.
 */

const t = useTestApp({}, { features: [{ module: ExhibitsModule, migrations: EXHIBITS_MIGRATIONS }] });

const put = (path: string, body: unknown, authorization: string | null = AUTH): request.Test => {
  const req = request(t.baseUrl).put(path).set('Content-Type', 'application/json');
  return (authorization === null ? req : req.set('Authorization', authorization)).send(JSON.stringify(body));
};

describe('a module added in its own folder with one line in the feature list', () => {
  const path = `/exhibits/${randomUUID()}`;

  it('has its table on start: its migration ran in the one history, in timestamp order with the others', async () => {
    const dataSource = t.app.get(DataSource);
    const applied = (await dataSource.query('SELECT name FROM migrations ORDER BY id')) as { name: string }[];
    // The whole history, not "ours is last": a module generated later gets a later timestamp
    // (Date.now()), and its migration then runs after this one.
    const history = migrationsOf([...FEATURES, { migrations: EXHIBITS_MIGRATIONS }]).sqlite;
    expect(applied.map((row) => row.name)).toEqual(history.map((migration) => migration.name));
    expect(applied.map((row) => row.name)).toContain('Exhibits1790000000000');
    await expect(dataSource.query('SELECT COUNT(*) AS n FROM exhibits')).resolves.toHaveLength(1);
  });

  it('is protected by default: 401 with the challenge without credentials, on GET and PUT', async () => {
    expectUnauthorized(await request(t.baseUrl).get(path), path);
    expectUnauthorized(await put(path, { title: 'Sundial', room: 3 }, null), path);
  });

  it('reads and validates a JSON body with nothing but @Body(): stored with credentials, read back', async () => {
    const stored = await put(path, { title: 'Sundial', room: 3 });
    expectStatus(stored, 200);
    expect(stored.body).toStrictEqual({ title: 'Sundial', room: 3 });
    const read = await request(t.baseUrl).get(path).set('Authorization', AUTH);
    expectStatus(read, 200);
    expect(read.body).toStrictEqual({ title: 'Sundial', room: 3 });
    const rows = (await t.app
      .get(DataSource)
      .query('SELECT title, room FROM exhibits WHERE exhibit_id = ?', [path.split('/')[2]])) as {
      title: string;
      room: unknown;
    }[];
    expect(rows.map((row) => ({ title: row.title, room: Number(row.room) }))).toEqual([{ title: 'Sundial', room: 3 }]);
  });

  it('answers invalid input with 400 problem details naming every field, unknown properties too', async () => {
    const body = expectProblem(await put(path, { title: ' ', room: 99, shelf: 2 }), 400, path, true);
    expect((body.errors as { field: string }[]).map((error) => error.field).sort()).toEqual(['room', 'shelf', 'title']);
    const malformed = await request(t.baseUrl)
      .put(path)
      .set('Authorization', AUTH)
      .set('Content-Type', 'application/json')
      .send('{"title":');
    expect(expectProblem(malformed, 400, path).detail).toBe('The request body is not valid JSON.');
    const wrongType = await request(t.baseUrl)
      .put(path)
      .set('Authorization', AUTH)
      .set('Content-Type', 'text/plain')
      .send('x');
    expectProblem(wrongType, 415, path);
    const missing = `/exhibits/${randomUUID()}`;
    expectProblem(await request(t.baseUrl).get(missing).set('Authorization', AUTH), 404, missing);
  });

  it('answers other methods 405 with Allow after authentication, and deeper paths 404', async () => {
    const res = await request(t.baseUrl).post(path).set('Authorization', AUTH);
    expectProblem(res, 405, path);
    expect(res.headers.allow).toBe('GET, HEAD, PUT');
    const anonymous = await request(t.baseUrl).post(path);
    expectProblem(anonymous, 401, path);
    expect(anonymous.headers['www-authenticate']).toBe(CHALLENGE);
    expectProblem(await request(t.baseUrl).delete('/exhibits').set('Authorization', AUTH), 405, '/exhibits');
    expectProblem(await request(t.baseUrl).get(`${path}/deeper`).set('Authorization', AUTH), 404, `${path}/deeper`);
  });

  it('opens a @Public() method to everyone, and only that one', async () => {
    const res = await request(t.baseUrl).get('/exhibits');
    expectStatus(res, 200);
    expect(res.body).toEqual({ count: expect.any(Number) as unknown });
    const other = await request(t.baseUrl).delete('/exhibits');
    expectProblem(other, 405, '/exhibits');
    expect(other.headers.allow).toBe('GET, HEAD');
  });

  it('is in the OpenAPI document, protected unless @Public(), with its problem responses', async () => {
    const doc = (await request(t.baseUrl).get('/openapi.json')).body as {
      security: unknown[];
      paths: Record<
        string,
        Record<string, { operationId: string; security?: unknown[]; responses: Record<string, unknown> }>
      >;
    };
    expect(doc.security).toEqual([{ basic: [] }]);
    const item = doc.paths['/exhibits/{exhibitId}'];
    expect(Object.keys(item).sort()).toEqual(['get', 'put']);
    expect(item.get.operationId).toBe('getExhibit');
    expect(item.get.security).toBeUndefined();
    expect(item.put.security).toBeUndefined();
    expect(Object.keys(item.put.responses).sort()).toEqual(['200', '400', '401', '415']);
    expect(Object.keys(doc.paths['/exhibits'])).toEqual(['get']);
    expect(doc.paths['/exhibits'].get.security).toEqual([]);
  });

  it('logs each request with its route pattern and counts it in the metrics', async () => {
    const res = await request(t.baseUrl).get(path).set('Authorization', AUTH).set('X-Request-Id', 'exhibit-read');
    expectStatus(res, 200);
    const line = await vi.waitFor(() => {
      const found = t.logs.find((entry) => entry.requestId === 'exhibit-read' && 'status' in entry);
      expect(found).toBeDefined();
      return found;
    });
    expect(line).toMatchObject({ method: 'GET', route: '/exhibits/:exhibitId', status: 200, msg: 'request completed' });
    const metrics = await request(t.baseUrl).get('/metrics');
    expect(metrics.text).toMatch(
      /^http_requests_total\{method="GET",route="\/exhibits\/:exhibitId",status="200"\} [1-9]\d*$/m,
    );
    expect(metrics.text).toMatch(
      /^http_requests_total\{method="PUT",route="\/exhibits\/:exhibitId",status="401"\} [1-9]\d*$/m,
    );
  });
});
