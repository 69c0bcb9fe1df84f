import { STATUS_CODES } from 'node:http';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { DataSource } from 'typeorm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type AppKind,
  type Case,
  CONTRACT_NOW,
  type ContractCases,
  type Exchange,
  HUGE_HEADER,
  type Json,
  newEvent,
  type OpenApiDocument,
  schemaValidator,
  send,
} from './helpers/contract.js';
import { setMuseumClock } from './helpers/clock.js';
import { featureRows } from './helpers/feature-rows.js';
import { useTestApp, type TestApp } from './helpers/test-app.js';

/**
 * The OpenAPI document against the service: the document lints clean with the repository's
 * redocly.yaml, and real responses of every documented operation (each status the service
 * produces, driven for real) are checked against it: the status is documented, the media type is
 * one documented for it (no body for 204), the body validates against the documented schema
 * (Ajv), and every documented header is sent and matches its schema. In the other direction,
 * every status documented for the operations a feature marks complete is produced by a case.
 *
 * Each feature's cases sit in its own test folder (`test/<feature>/contract-cases.ts`); this file
 * holds the operations endpoints' and collects the rest.
 */

const ROOT = resolve(import.meta.dirname, '..');
const run = promisify(execFile);
const byNumber = (a: number, b: number): number => a - b;
const CREATE = '/special-events';
const ITEM = '/special-events/{eventId}';

const FEATURES: readonly ContractCases[] = (await featureRows<ContractCases>('contract-cases')).map(({ rows }) => rows);

/** The operations endpoints: health and metrics. */
const OPERATIONS_CASES: readonly Case[] = [
  // Health
  {
    app: 'main',
    method: 'get',
    path: '/health/live',
    status: 200,
    what: 'up',
    send: (t) => send(t, 'get', '/health/live'),
  },
  {
    app: 'main',
    method: 'get',
    path: '/health/live',
    status: 431,
    what: 'headers over 16 KiB',
    send: (t) => send(t, 'get', '/health/live', { headers: HUGE_HEADER }),
  },
  {
    app: 'main',
    method: 'get',
    path: '/health/ready',
    status: 200,
    what: 'database up',
    send: (t) => send(t, 'get', '/health/ready'),
  },
  {
    app: 'main',
    method: 'get',
    path: '/health/ready',
    status: 431,
    what: 'headers over 16 KiB',
    send: (t) => send(t, 'get', '/health/ready', { headers: HUGE_HEADER }),
  },
  {
    app: 'database-destroyed',
    method: 'get',
    path: '/health/ready',
    status: 503,
    what: 'the database gone',
    send: (t) => send(t, 'get', '/health/ready'),
  },
  {
    app: 'database-destroyed',
    method: 'get',
    path: '/health/live',
    status: 200,
    what: 'up, database gone',
    send: (t) => send(t, 'get', '/health/live'),
  },

  // Metrics (Prometheus text format)
  {
    app: 'main',
    method: 'get',
    path: '/metrics',
    status: 200,
    what: 'the metrics',
    send: (t) => send(t, 'get', '/metrics'),
  },
  {
    app: 'main',
    method: 'get',
    path: '/metrics',
    status: 431,
    what: 'headers over 16 KiB',
    send: (t) => send(t, 'get', '/metrics', { headers: HUGE_HEADER }),
  },
];

const CASES: readonly Case[] = [...FEATURES.flatMap((feature) => feature.cases), ...OPERATIONS_CASES];

async function fetchDocument(t: TestApp): Promise<OpenApiDocument> {
  const res = await fetch(`${t.baseUrl}/openapi.json`);
  expect(res.status).toBe(200);
  return (await res.json()) as OpenApiDocument;
}

/** Checks one real response against what the document says about the operation. */
/**
 * What the document gets wrong about one real response (empty: nothing): the status must be
 * documented for the operation; with no documented content there is no body and no Content-Type,
 * else the media type is a documented one and the body validates against its schema; every
 * required documented header is sent, and every documented header sent matches its schema.
 */
function documentationProblems(doc: OpenApiDocument, c: Case, res: Exchange): string[] {
  const operation = doc.paths[c.path]?.[c.method];
  if (operation === undefined) return [`${c.method} ${c.path} is not documented`];
  const documented = operation.responses[String(res.status)];
  if (documented === undefined) {
    return [`status ${res.status} is not documented for ${c.method} ${c.path} (body: ${res.text.slice(0, 300)})`];
  }
  const validate = schemaValidator(doc);
  const problems: string[] = [];
  const contentType = res.headers.get('content-type');
  if (documented.content === undefined) {
    if (res.text !== '' || contentType !== null)
      problems.push(`a body where none is documented: ${contentType} ${res.text}`);
  } else {
    const mediaType = (contentType ?? '').split(';')[0].trim().toLowerCase();
    const media = documented.content[mediaType];
    if (media === undefined) {
      problems.push(`Content-Type ${contentType} is not one of ${Object.keys(documented.content).join(', ')}`);
    } else {
      const body: unknown = /^application\/([a-z.+-]+\+)?json$/.test(mediaType) ? JSON.parse(res.text) : res.text;
      problems.push(...validate(media.schema, body).map((error) => `body ${error}: ${res.text.slice(0, 300)}`));
    }
  }
  for (const [name, header] of Object.entries(documented.headers ?? {})) {
    const value = res.headers.get(name);
    if (value === null) {
      if (header.required) problems.push(`documented header ${name} is missing`);
      continue;
    }
    const typed = header.schema.type === 'integer' || header.schema.type === 'number' ? Number(value) : value;
    problems.push(...validate(header.schema, typed).map((error) => `header ${name}: ${value} ${error}`));
  }
  return problems;
}

/** One app at a time: each describe starts its own and closes it before the next starts. */
function describeApp(
  kind: AppKind,
  env: Record<string, string>,
  options: {
    prepare?: (t: TestApp) => Promise<void>;
    more?: (ctx: () => { t: TestApp; doc: OpenApiDocument }) => void;
  } = {},
): void {
  describe(`${kind} app`, () => {
    const t = useTestApp(env);
    let doc: OpenApiDocument;

    beforeAll(async () => {
      setMuseumClock(t, CONTRACT_NOW);
      doc = await fetchDocument(t);
      await options.prepare?.(t);
    });

    const cases = CASES.filter((c) => c.app === kind);
    it.each(cases.map((c) => [`${c.method.toUpperCase()} ${c.path} ${c.status}: ${c.what}`, c] as const))(
      'real response matches the document: %s',
      async (_name, c) => {
        const res = await c.send(t);
        expect({ status: res.status, body: res.text.slice(0, 500) }).toEqual({
          status: c.status,
          body: expect.any(String) as unknown,
        });
        expect(documentationProblems(doc, c, res)).toEqual([]);
      },
    );

    options.more?.(() => ({ t, doc }));
  });
}

describeApp(
  'main',
  { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' },
  {
    more: (ctx) => {
      it('the document lints clean with redocly.yaml: exit 0, no errors, no warnings, nothing ignored', async () => {
        const dir = mkdtempSync(join(tmpdir(), 'museum-openapi-'));
        try {
          const file = join(dir, 'openapi.json');
          writeFileSync(file, JSON.stringify(ctx().doc));
          // execFile rejects on a non-zero exit: the lint must pass as well as report zero problems.
          const { stdout } = await run(
            join(ROOT, 'node_modules/.bin/redocly'),
            ['lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format', 'json'],
            { cwd: ROOT, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
          );
          const report = JSON.parse(stdout) as { totals: Json; problems: Json[] };
          expect(report.problems).toEqual([]);
          expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      });

      it('every status documented for an operation a feature marks complete is produced by a case', () => {
        const { doc } = ctx();
        const complete = FEATURES.flatMap((feature) => feature.complete ?? []);
        expect(complete.length).toBeGreaterThan(0);
        for (const [path, method] of complete) {
          const documented = Object.keys(doc.paths[path][method].responses).map(Number).sort(byNumber);
          const produced = [
            ...new Set(CASES.filter((c) => c.path === path && c.method === method).map((c) => c.status)),
          ].sort(byNumber);
          expect({ path, method, documented }).toEqual({ path, method, documented: produced });
        }
      });

      it.each(FEATURES.flatMap((feature) => Object.entries(feature.documentChecks ?? {})))('%s', (_title, check) => {
        expect.hasAssertions();
        const { doc } = ctx();
        check({ doc, validate: schemaValidator(doc) });
      });

      it('documents exactly the operations the cases drive', () => {
        const documented = Object.entries(ctx().doc.paths).flatMap(([path, item]) =>
          Object.keys(item).map((m) => `${m} ${path}`),
        );
        // The /testing/ operations exist only in test mode: the test-mode app checks them.
        const driven = [...new Set(CASES.filter((c) => c.app !== 'test-mode').map((c) => `${c.method} ${c.path}`))];
        expect(documented.sort()).toEqual(driven.sort());
      });

      it('the body validator is not vacuous: it resolves $refs and rejects what breaks the schema', () => {
        const validate = schemaValidator(ctx().doc);
        const event = { $ref: '#/components/schemas/SpecialEventResponse' };
        const good = { ...newEvent(), eventId: randomUUID() };
        expect(validate(event, good)).toEqual([]);
        expect(validate(event, { ...good, eventId: 'not-a-uuid' })).not.toEqual([]);
        expect(validate(event, { ...good, price: '19.99' })).not.toEqual([]);
        expect(validate(event, { ...good, name: undefined })).not.toEqual([]);
        const problem = { $ref: '#/components/schemas/ProblemDetailsSchema' };
        expect(validate(problem, { type: 'about:blank', title: 'Not Found', status: 404, detail: 'x' })).not.toEqual(
          [],
        );
      });

      it('gives every problem response an example of its own status, and create its own 409 wording', () => {
        const { doc } = ctx();
        let problems = 0;
        for (const operations of Object.values(doc.paths)) {
          for (const operation of Object.values(operations)) {
            for (const [status, response] of Object.entries(operation.responses)) {
              const example = response.content?.['application/problem+json']?.example;
              if (example === undefined) continue;
              problems++;
              expect(example).toMatchObject({ status: Number(status), title: STATUS_CODES[Number(status)] });
            }
          }
        }
        expect(problems).toBeGreaterThan(10);
        // The create's own wording, and @Idempotent()'s for a key still in flight (Swagger joins them).
        const conflict = doc.paths[CREATE].post.responses['409'].description;
        expect(conflict).toContain('An event with this eventId already exists; the stored event is unchanged.');
        expect(conflict).toContain('A request with the same Idempotency-Key is still being processed');
        expect(doc.paths[CREATE].post.responses['415'].content?.['application/problem+json'].example?.status).toBe(415);
      });

      it('requires the HTTP Basic scheme for the whole API, and only @Public() operations say security: []', () => {
        const { doc } = ctx();
        expect(doc.components.securitySchemes.basic).toMatchObject({ type: 'http', scheme: 'basic' });
        expect(doc.security).toEqual([{ basic: [] }]);
        // Protected operations inherit the document's requirement.
        const { post: create, get: list } = doc.paths[CREATE];
        const { get, patch: update, delete: remove } = doc.paths[ITEM];
        for (const operation of [create, list, get, update, remove]) expect(operation.security).toBeUndefined();
        for (const path of ['/health/live', '/health/ready', '/metrics'])
          expect(doc.paths[path].get.security).toEqual([]);
      });
    },
  },
);

describeApp('failure-limit-2', { AUTH_FAILURE_LIMIT: '2' });

describeApp(
  'test-mode',
  { TEST_MODE: 'true', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' },
  {
    more: (ctx) => {
      it("documents the operations the cases drive, test mode's included, and says test mode on every answer", async () => {
        const documented = Object.entries(ctx().doc.paths).flatMap(([path, item]) =>
          Object.keys(item).map((m) => `${m} ${path}`),
        );
        const driven = [...new Set(CASES.map((c) => `${c.method} ${c.path}`))];
        expect(documented.sort()).toEqual(driven.sort());
        expect((await send(ctx().t, 'get', '/health/live')).headers.get('museum-test-mode')).toBe('on');
      });
    },
  },
);

describeApp(
  'database-destroyed',
  {},
  {
    prepare: async (t) => {
      await t.app.get(DataSource).destroy();
    },
  },
);
