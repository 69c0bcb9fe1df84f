import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Body, expectProblem, expectStatus } from './helpers/problem-assertions.js';
import { featureRows } from './helpers/feature-rows.js';
import type { OpenApiPaths } from './helpers/openapi-path-rows.js';
import { AUTH, useTestApp } from './helpers/test-app.js';

/**
 * The operations endpoints (docs/api.md, "Operations endpoints"): health, the OpenAPI document and
 * the API reference, none behind authentication. The document is checked against the contract,
 * and its own example is sent to the service.
 */

type OpenApi = {
  openapi: string;
  paths: Record<string, Record<string, Body>>;
  components: { schemas: Record<string, Body>; securitySchemes: Record<string, Body> };
};

const t = useTestApp();
let doc: OpenApi;

beforeAll(async () => {
  doc = (await request(t.baseUrl).get('/openapi.json')).body as OpenApi;
});

/** The schema a `$ref` points to (local references only). */
function deref(schema: Body): Body {
  const ref = schema.$ref as string | undefined;
  if (ref === undefined) return schema;
  expect(ref).toMatch(/^#\/components\/schemas\//);
  const name = ref.slice('#/components/schemas/'.length);
  expect(Object.keys(doc.components.schemas)).toContain(name);
  return doc.components.schemas[name];
}

const operation = (path: string, method: string): Body => {
  const op = doc.paths[path]?.[method];
  expect(Object.keys(doc.paths[path] ?? {})).toContain(method);
  return op;
};
const responses = (op: Body): Record<string, Body> => op.responses as Record<string, Body>;
const create = (): Body => operation('/special-events', 'post');
const remove = (): Body => operation('/special-events/{eventId}', 'delete');
const createDto = (): Body => {
  const content = (create().requestBody as Body).content as Record<string, Body>;
  return deref(content['application/json'].schema as Body);
};
const properties = (schema: Body): Record<string, Body> => schema.properties as Record<string, Body>;

describe('health', () => {
  it('GET /health/live: 200 {status: "ok"} without credentials', async () => {
    const res = await request(t.baseUrl).get('/health/live');
    expectStatus(res, 200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toStrictEqual({ status: 'ok' });
  });

  it('GET /health/ready: 200 {status: "ok"} without credentials (the database answers)', async () => {
    const res = await request(t.baseUrl).get('/health/ready');
    expectStatus(res, 200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toStrictEqual({ status: 'ok' });
  });

  it('credentials, even broken ones, change nothing on the health endpoints', async () => {
    for (const authorization of [AUTH, 'Basic ***', 'Bearer x']) {
      for (const path of ['/health/live', '/health/ready']) {
        const res = await request(t.baseUrl).get(path).set('Authorization', authorization);
        expectStatus(res, 200);
        expect(res.body).toStrictEqual({ status: 'ok' });
      }
    }
  });

  it('other methods on the health endpoints: 405 with Allow, no credentials needed', async () => {
    for (const res of [
      await request(t.baseUrl).post('/health/live'),
      await request(t.baseUrl).delete('/health/ready'),
    ]) {
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD');
    }
    expectProblem(await request(t.baseUrl).post('/health/live'), 405, '/health/live');
  });
});

describe('GET /', () => {
  it('redirects to the reference at /docs, without credentials (302, HEAD too); other methods 404', async () => {
    for (const res of [await request(t.baseUrl).get('/'), await request(t.baseUrl).head('/')]) {
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('/docs');
    }
    expectProblem(await request(t.baseUrl).post('/'), 404, '/');
  });
});

describe('GET /openapi.json', () => {
  it('is served without credentials as JSON, OpenAPI 3', async () => {
    const res = await request(t.baseUrl).get('/openapi.json');
    expectStatus(res, 200);
    expect(res.headers['content-type']).toMatch(/^application\/json(;|$)/);
    expect((res.body as OpenApi).openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(res.body).toStrictEqual(doc);
  });

  it('documents exactly create, list, get, update and delete of special events, the calendar feed, webhooks, museum hours, tickets, health and metrics', async () => {
    const expected: OpenApiPaths = { '/health/live': ['get'], '/health/ready': ['get'], '/metrics': ['get'] };
    for (const { feature, rows } of await featureRows<OpenApiPaths>('openapi-paths')) {
      for (const [path, methods] of Object.entries(rows)) {
        expect(expected[path], `${path} is named by ${feature} and another`).toBeUndefined();
        expected[path] = methods;
      }
    }
    expect(Object.keys(doc.paths).sort()).toEqual(Object.keys(expected).sort());
    for (const [path, methods] of Object.entries(expected)) {
      expect({ path, methods: Object.keys(doc.paths[path]).sort() }).toEqual({ path, methods: [...methods].sort() });
    }
  });

  it('both operations require the HTTP Basic security scheme (the document-wide one); health does not', () => {
    const security = (doc as unknown as { security?: Record<string, string[]>[] }).security ?? [];
    expect(security).toEqual([{ basic: [] }]);
    expect(doc.components.securitySchemes.basic).toMatchObject({ type: 'http', scheme: 'basic' });
    for (const op of [create(), remove()]) expect(op.security).toBeUndefined();
    for (const path of ['/health/live', '/health/ready']) expect(doc.paths[path].get.security).toEqual([]);
  });

  // 431: headers over 16 KiB, answered before routing (docs/api.md), on every operation; 403 for a
  // role below the operation's, and 422 for an Idempotency-Key used for another request.
  it('response codes are exactly the contract: create 201,400,401,403,409,413,415,422,429,431,503', () => {
    expect(Object.keys(responses(create())).sort()).toEqual([
      '201',
      '400',
      '401',
      '403',
      '409',
      '413',
      '415',
      '422',
      '429',
      '431',
      '503',
    ]);
  });

  it('response codes are exactly the contract: delete 204,400,401,403,404,412,429,431,503', () => {
    expect(Object.keys(responses(remove())).sort()).toEqual([
      '204',
      '400',
      '401',
      '403',
      '404',
      '412',
      '429',
      '431',
      '503',
    ]);
  });

  it('201 has a Location header and the stored event as application/json', () => {
    const created = responses(create())['201'];
    expect(Object.keys(created.headers as Body)).toEqual(['Location', 'ETag', 'Idempotent-Replayed']);
    expect(((created.headers as Record<string, Body>).Location.schema as Body).type).toBe('string');
    const content = created.content as Record<string, Body>;
    expect(Object.keys(content)).toEqual(['application/json']);
    const event = deref(content['application/json'].schema as Body);
    // capacity and ticketsAvailable: optional, only for an event with a capacity; capacityPerDate,
    // durationMinutes and prices only when set.
    expect(Object.keys(properties(event)).sort()).toEqual(
      [
        'capacity',
        'capacityPerDate',
        'dates',
        'durationMinutes',
        'eventDescription',
        'eventId',
        'location',
        'name',
        'price',
        'prices',
        'ticketsAvailable',
      ].sort(),
    );
    expect([...(event.required as string[])].sort()).toEqual(
      ['dates', 'eventDescription', 'eventId', 'location', 'name', 'price'].sort(),
    );
    expect(properties(event).ticketsAvailable).toMatchObject({ type: 'integer', minimum: 0 });
    expect(properties(event).eventId).toMatchObject({ type: 'string', format: 'uuid' });
    expect(properties(event).price).toMatchObject({ type: 'number' });
    expect(properties(event).dates).toMatchObject({ type: 'array', items: { type: 'string' } });
  });

  it('204 has no body', () => {
    expect(responses(remove())['204'].content).toBeUndefined();
  });

  it('every error response is application/problem+json with the problem schema', () => {
    for (const op of [create(), remove()]) {
      for (const [status, response] of Object.entries(responses(op))) {
        if (Number(status) < 400) continue;
        const content = response.content as Record<string, Body>;
        expect({ status, types: Object.keys(content) }).toEqual({ status, types: ['application/problem+json'] });
        const problem = deref(content['application/problem+json'].schema as Body);
        expect(Object.keys(properties(problem)).sort()).toEqual(
          ['detail', 'errors', 'instance', 'line', 'status', 'title', 'type'].sort(),
        );
        expect([...(problem.required as string[])].sort()).toEqual(['detail', 'instance', 'status', 'title', 'type']);
        expect(properties(problem).status).toMatchObject({ type: 'number' });
      }
    }
  });

  it('401 documents WWW-Authenticate; 429 and 503 document Retry-After', () => {
    for (const op of [create(), remove()]) {
      const byStatus = responses(op);
      expect(Object.keys(byStatus['401'].headers as Body)).toEqual(['WWW-Authenticate']);
      expect(String((byStatus['401'].headers as Record<string, Body>)['WWW-Authenticate'].description)).toContain(
        'Basic realm="museum", charset="UTF-8"',
      );
      for (const status of ['429', '503']) {
        expect((byStatus[status].headers as Record<string, Body>)['Retry-After'].schema).toEqual({ type: 'integer' });
      }
    }
  });

  it('DELETE documents eventId (path, uuid, required), the optional If-Match and the optional test cookie', () => {
    const parameters = remove().parameters as Body[];
    expect(parameters.map((parameter) => `${parameter.in as string}:${parameter.name as string}`).sort()).toEqual([
      'cookie:test',
      'header:If-Match',
      'path:eventId',
    ]);
    expect(parameters.find((parameter) => parameter.name === 'If-Match')).toMatchObject({ required: false });
    const eventId = parameters.find((parameter) => parameter.name === 'eventId') as Body;
    expect(eventId).toMatchObject({ in: 'path', required: true, schema: { type: 'string', format: 'uuid' } });
    const cookie = parameters.find((parameter) => parameter.name === 'test') as Body;
    expect(cookie).toMatchObject({ in: 'cookie', required: false, schema: { type: 'string' } });
  });

  it('POST takes a required application/json body: CreateSpecialEventDto with the contract rules', () => {
    const body = create().requestBody as Body;
    expect(body.required).toBe(true);
    expect(Object.keys(body.content as Body)).toEqual(['application/json']);
    const content = (body.content as Record<string, Body>)['application/json'];
    expect(content.schema).toEqual({ $ref: '#/components/schemas/CreateSpecialEventDto' });

    const dto = createDto();
    expect([...(dto.required as string[])].sort()).toEqual(
      ['dates', 'eventDescription', 'location', 'name', 'price'].sort(),
    );
    const p = properties(dto);
    expect(Object.keys(p).sort()).toEqual(
      [
        'capacity',
        'capacityPerDate',
        'dates',
        'durationMinutes',
        'eventDescription',
        'eventId',
        'location',
        'name',
        'price',
        'prices',
      ].sort(),
    );
    expect(p.prices).toMatchObject({ type: 'array', maxItems: 20, nullable: true });
    expect(p.capacity).toMatchObject({ type: 'integer', minimum: 1, maximum: 1_000_000_000, nullable: true });
    expect(p.capacityPerDate).toMatchObject({ type: 'integer', minimum: 1, maximum: 1_000_000_000, nullable: true });
    expect(p.durationMinutes).toMatchObject({ type: 'integer', minimum: 1, maximum: 1440, nullable: true });
    expect(p.eventId).toMatchObject({ type: 'string', format: 'uuid', nullable: true });
    expect(p.name).toMatchObject({ type: 'string', minLength: 1, maxLength: 200 });
    expect(p.location).toMatchObject({ type: 'string', minLength: 1, maxLength: 200 });
    expect(p.eventDescription).toMatchObject({ type: 'string', minLength: 1, maxLength: 5000 });
    expect(p.dates).toMatchObject({
      type: 'array',
      maxItems: 500,
      items: { type: 'string', minLength: 1, maxLength: 64 },
    });
    expect(p.price).toMatchObject({ type: 'number', minimum: 0, maximum: 1_000_000_000 });
  });

  it('the documented example, sent to the service, is created as is, again and again (no fixed eventId)', async () => {
    const content = (create().requestBody as Body).content as Record<string, Body>;
    // An example on the media type wins; otherwise the schema's per-property examples.
    const example =
      (content['application/json'].example as Body | undefined) ??
      Object.fromEntries(Object.entries(properties(createDto())).map(([name, schema]) => [name, schema.example]));
    expect(example.eventId).toBeNull();
    const documented = Object.keys(example).filter((field) => example[field] !== undefined);
    expect(documented).toEqual(expect.arrayContaining(['name', 'location', 'eventDescription', 'dates', 'price']));

    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(example);
      expectStatus(res, 201);
      const eventId = (res.body as Body).eventId as string;
      expect(res.headers.location).toBe(`/special-events/${eventId}`);
      // With the example's capacity, all of it still available.
      expect(res.body).toStrictEqual({ ...example, eventId, ticketsAvailable: example.capacity });
      ids.push(eventId);
    }
    expect(new Set(ids).size).toBe(2);
  });
});

describe('GET /docs', () => {
  it('serves the browsable API reference as HTML without credentials', async () => {
    const res = await request(t.baseUrl).get('/docs');
    expectStatus(res, 200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toMatch(/^\s*(<!--[^>]*-->\s*)?<!DOCTYPE html>/i);
    expect(res.text).toContain('swagger-ui');
    expect(res.text).toContain('<title>Museum Special Events API</title>');
  });

  it('the page loads its scripts and the document, all without credentials', async () => {
    const init = await request(t.baseUrl).get('/docs/swagger-ui-init.js');
    expectStatus(init, 200);
    expect(init.headers['content-type']).toMatch(/javascript/);
    // The init script embeds the same document that /openapi.json serves.
    expect(init.text).toContain('"createSpecialEvent"');
    expect(init.text).toContain('"deleteSpecialEvent"');
    const bundle = await request(t.baseUrl).get('/docs/swagger-ui-bundle.js');
    expectStatus(bundle, 200);
    expect(bundle.text.length).toBeGreaterThan(100_000);
  });

  it('serves only the files the page loads: the rest of swagger-ui-dist is a 404 problem', async () => {
    for (const path of [
      '/docs/',
      '/docs/index.html',
      '/docs/swagger-ui.css',
      '/docs/swagger-ui-standalone-preset.js',
      '/docs/favicon-16x16.png',
      '/docs/favicon-32x32.png',
    ]) {
      expect({ path, status: (await request(t.baseUrl).get(path)).status }).toEqual({ path, status: 200 });
    }
    for (const path of [
      '/docs/package.json',
      '/docs/README.md',
      '/docs/NOTICE',
      '/docs/LICENSE',
      '/docs/swagger-ui-bundle.js.map',
      '/docs/swagger-ui.css.map',
      '/docs/swagger-ui.js',
      '/docs/index.js',
      '/docs/oauth2-redirect.html',
      '/DOCS/package.json',
      '/docs/%70ackage.json',
      '/docs/./package.json',
      '/docs//package.json',
      '/docs/package.json?x=1',
    ]) {
      const res = await request(t.baseUrl).get(path);
      expectProblem(res, 404, path.split('?')[0]);
    }
  });
});
