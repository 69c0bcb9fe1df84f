import { randomUUID } from 'node:crypto';
import { METHODS } from 'node:http';
import request from 'supertest';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { CredentialCache } from '../src/auth/credential-cache.js';
import { PasswordHasher } from '../src/auth/password-hasher.js';
import { UsersRepository } from '../src/auth/users.repository.js';
import { UsersService } from '../src/auth/users.service.js';
import { expectStatus, validEvent } from './helpers/problem-assertions.js';
import { useMuseumClock } from './helpers/clock.js';
import { basicHeader, TEST_USER, useTestApp, type TestApp } from './helpers/test-app.js';
import { featureRows } from './helpers/feature-rows.js';
import { BOX_OFFICE, CALLERS, EDITOR, forbidden, open, type RoleRows, VIEWER } from './helpers/roles.js';

/**
 * Roles (issues 19 and 28): a viewer lists and reads, box office also sells tickets and checks
 * them in (but changes no event), an editor does everything on special events, an admin also
 * manages calendar feed tokens and webhooks. Every route the app has registered is tried
 * anonymously and as each role, from a table keyed by the registered routes
 * themselves: a new route without a row here fails the test, so no route ships without a decision
 * about who may call it. Each feature's rows sit in its own test folder (`test/<feature>/role-rows.ts`);
 * this file holds the operations endpoints' and collects the rest.
 */

const FEATURE_ROWS = (await featureRows<RoleRows>('role-rows')).flatMap(({ feature, rows }) =>
  Object.entries(rows).map(([route, row]) => ({ feature, route, row })),
);
for (const { route } of FEATURE_ROWS) {
  const owners = FEATURE_ROWS.filter((other) => other.route === route).map((other) => other.feature);
  if (owners.length > 1) throw new Error(`${route} has rows in ${owners.join(' and ')}; one feature owns a route`);
}

/** Every registered route (`METHOD path` as Express holds it) and what each caller gets there. */
const ROUTES: RoleRows = {
  ...Object.fromEntries(FEATURE_ROWS.map(({ route, row }) => [route, row])),
  'GET /health/live': open('GET', '/health/live', 200),
  'GET /health/ready': open('GET', '/health/ready', 200),
  'GET /metrics': open('GET', '/metrics', 200),
  'GET /openapi.json': open('GET', '/openapi.json', 200),
  'GET /': open('GET', '/', 302),
  // The answers installRouteDefaults adds on public paths: public too, for anyone.
  'ALL /health/live': open('PUT', '/health/live', 405),
  'ALL /health/ready': open('POST', '/health/ready', 405),
  'ALL /health/*rest': open('GET', '/health/nothing-here', 404),
  'ALL /metrics': open('DELETE', '/metrics', 405),
  'ALL /metrics/*rest': open('GET', '/metrics/nothing-here', 404),
};

/**
 * The app's routes as Express has them registered: `METHOD path`, or `ALL path` for a route that
 * answers every method (Nest's @All()).
 */
function registeredRoutes(t: TestApp): string[] {
  const express = t.app.getHttpAdapter().getInstance() as unknown as {
    router: { stack: { route?: { path: string; methods: Record<string, boolean> } }[] };
  };
  return express.router.stack.flatMap(({ route }) => {
    if (route === undefined) return [];
    const methods = Object.keys(route.methods).map((method) => method.toUpperCase());
    if (METHODS.every((method) => methods.includes(method))) return [`ALL ${route.path}`];
    return methods.map((method) => `${method} ${route.path}`);
  });
}

describe('roles: every registered route, tried by each kind of caller', () => {
  const t = useTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
  useMuseumClock(t);

  beforeAll(async () => {
    await t.app.get(UsersService).add(VIEWER.user, VIEWER.password, 'viewer');
    await t.app.get(UsersService).add(BOX_OFFICE.user, BOX_OFFICE.password, 'box-office');
    await t.app.get(UsersService).add(EDITOR.user, EDITOR.password, 'editor');
  }, 60_000);

  it('every registered route has a row in the table, and every row is a registered route', () => {
    const registered = registeredRoutes(t).filter((route) => !isSwaggerUi(route));
    expect([...new Set(registered)].sort()).toEqual(Object.keys(ROUTES).sort());
  });

  for (const [route, routeCase] of Object.entries(ROUTES)) {
    for (const caller of CALLERS) {
      it(`${route}: ${caller}`, async () => {
        await routeCase.check(t, caller);
      });
    }
  }

  it('a role changed on this instance is in force on the next request', async () => {
    const user = `switch-${randomUUID().slice(0, 8)}`;
    const password = 'switch-password-1234';
    const authorization = basicHeader(user, password);
    const users = t.app.get(UsersService);
    await users.add(user, password, 'viewer');
    const post = () =>
      request(t.baseUrl).post('/special-events').set('Authorization', authorization).send(validEvent());
    forbidden(await post(), '/special-events');
    await users.setRole(user, 'editor');
    expectStatus(await post(), 201);
    await users.setRole(user, 'viewer');
    forbidden(await post(), '/special-events');
  });

  it('the bootstrap user (ADMIN_USERNAME) is an admin', async () => {
    expect((await t.app.get(UsersService).find(TEST_USER))?.role).toBe('admin');
  });
});

/** Swagger UI's own assets under /docs (its page, scripts and styles), public by design. */
function isSwaggerUi(route: string): boolean {
  return /^GET \/docs(\/|$)/.test(route);
}

describe('roles: a change made elsewhere (the users CLI, another instance)', () => {
  const CACHE_TTL_SECONDS = 1;
  const t = useTestApp({ AUTH_CACHE_TTL_SECONDS: String(CACHE_TTL_SECONDS) });

  it('is in force once AUTH_CACHE_TTL_SECONDS has passed, without the instance being told', async () => {
    const user = `remote-${randomUUID().slice(0, 8)}`;
    const password = 'remote-password-1234';
    const authorization = basicHeader(user, password);
    // As the users CLI does it: its own UsersService, without this instance's credential cache.
    const elsewhere = new UsersService(t.app.get(UsersRepository), new PasswordHasher());
    await elsewhere.add(user, password, 'editor');
    const post = () =>
      request(t.baseUrl).post('/special-events').set('Authorization', authorization).send(validEvent());
    expectStatus(await post(), 201);
    await elsewhere.setRole(user, 'viewer');
    await new Promise((resolve) => setTimeout(resolve, CACHE_TTL_SECONDS * 1000 + 300));
    forbidden(await post(), '/special-events');
  });
});

describe('a change made elsewhere is in force within a second, with the default cache TTL (issue 26)', () => {
  const t = useTestApp();

  it('a removal, a lowered role and a changed password made by another process are refused within 1 s while requests keep coming', async () => {
    const elsewhere = new UsersService(t.app.get(UsersRepository), new PasswordHasher());
    const post = (authorization: string) =>
      request(t.baseUrl).post('/special-events').set('Authorization', authorization).send(validEvent());
    // The barrier: this instance's credential cache told that users changed (CredentialsEpoch).
    const cache = t.app.get(CredentialCache);
    const expireAll = cache.expireAll.bind(cache);
    let told: (() => void) | undefined;
    let expired = 0;
    vi.spyOn(cache, 'expireAll').mockImplementation(() => {
      expireAll();
      expired++;
      told?.();
    });
    // Adding a user moves the epoch too: its notice must reach the cache before a run starts, or
    // it would pass for the change's and time requests the user may still make.
    const addNoticed = async (name: string, role: 'editor') => {
      const before = expired;
      await elsewhere.add(name, password, role);
      while (expired === before) await new Promise((resolve) => setTimeout(resolve, 10));
    };
    const run = async (change: () => Promise<void>, refusedWith: number, authorization: string) => {
      expectStatus(await post(authorization), 201);
      expectStatus(await post(authorization), 201); // now from the credential cache
      let toldAt = 0;
      const toldNow = new Promise<void>((resolve) => {
        told = () => {
          toldAt ||= Date.now();
          resolve();
        };
      });
      // Requests keep coming while the change is made, as under load. Each one sent once the
      // cache was told must be refused; the load stops once enough of them were answered.
      let stop = false;
      const late: number[] = [];
      let afterTold = 0;
      const load = (async () => {
        while (!stop) {
          const sentAfterTold = toldAt > 0;
          const res = await post(authorization);
          if (!sentAfterTold) continue;
          afterTold++;
          if (res.status !== refusedWith) late.push(res.status);
        }
      })();
      await change();
      const changedAt = Date.now();
      await toldNow;
      while (afterTold < 10) await new Promise((resolve) => setImmediate(resolve));
      stop = true;
      await load;
      expect(late).toEqual([]);
      // Told within a second of the change's commit (the epoch is read twice a second).
      expect(toldAt - changedAt).toBeLessThan(1000);
      expect((await post(authorization)).status).toBe(refusedWith);
    };
    const user = (name: string) => `${name}-${randomUUID().slice(0, 8)}`;
    const password = 'elsewhere-password-1234';

    const removed = user('removed');
    await addNoticed(removed, 'editor');
    await run(() => elsewhere.remove(removed), 401, basicHeader(removed, password));

    const lowered = user('lowered');
    await addNoticed(lowered, 'editor');
    await run(() => elsewhere.setRole(lowered, 'viewer'), 403, basicHeader(lowered, password));

    const changed = user('changed');
    await addNoticed(changed, 'editor');
    await run(() => elsewhere.setPassword(changed, 'a-new-password-5678'), 401, basicHeader(changed, password));
  }, 60_000);
});
