import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { expect } from 'vitest';
import { expectProblem, expectStatus, expectUnauthorized } from '../helpers/problem-assertions.js';
import { authenticated, everyRole, forbidden, open, type RoleRows, send } from '../helpers/roles.js';
import { AUTH, type TestApp } from '../helpers/test-app.js';

/** Who may call the calendar's routes (test/roles.e2e-spec.ts). */

async function createToken(t: TestApp): Promise<{ tokenId: string; token: string }> {
  const res = await request(t.baseUrl).post('/calendar-tokens').set('Authorization', AUTH).send({});
  expectStatus(res, 201);
  return res.body as { tokenId: string; token: string };
}

async function tokenCount(t: TestApp): Promise<number> {
  const rows = (await t.app.get(DataSource).query('SELECT COUNT(*) AS n FROM calendar_tokens')) as { n: unknown }[];
  return Number(rows[0].n);
}

async function tokenExists(t: TestApp, tokenId: string): Promise<boolean> {
  const rows = (await t.app
    .get(DataSource)
    .query('SELECT token_id FROM calendar_tokens WHERE token_id = ?', [tokenId])) as unknown[];
  return rows.length === 1;
}

const rows: RoleRows = {
  // The calendar feed (docs/api.md, Calendar feed): read like the list; its tokens are the admin's.
  'GET /special-events.ics': authenticated(
    everyRole((res) => expectStatus(res, 200)),
    'GET',
    () => '/special-events.ics?startDate=2026-01-01',
  ),
  'ALL /special-events.ics': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'PUT',
    () => '/special-events.ics',
  ),
  'ALL /special-events.ics/*rest': authenticated(
    everyRole((res, path) => expectProblem(res, 404, path)),
    'GET',
    () => '/special-events.ics/more',
  ),
  'POST /calendar-tokens': {
    async check(t, caller) {
      const before = await tokenCount(t);
      const res = await send(t, 'POST', '/calendar-tokens', caller).send({ description: `by ${caller}` });
      if (caller === 'anonymous') expectUnauthorized(res, '/calendar-tokens');
      if (caller !== 'anonymous' && caller !== 'admin') forbidden(res, '/calendar-tokens', 'admin', caller);
      if (caller === 'admin') expectStatus(res, 201);
      expect(await tokenCount(t)).toBe(before + (caller === 'admin' ? 1 : 0));
    },
  },
  'GET /calendar-tokens': {
    async check(t, caller) {
      const res = await send(t, 'GET', '/calendar-tokens', caller);
      if (caller === 'anonymous') expectUnauthorized(res, '/calendar-tokens');
      if (caller !== 'anonymous' && caller !== 'admin') forbidden(res, '/calendar-tokens', 'admin', caller);
      if (caller === 'admin') expectStatus(res, 200);
    },
  },
  'DELETE /calendar-tokens/:tokenId': {
    async check(t, caller) {
      const { tokenId } = await createToken(t);
      const path = `/calendar-tokens/${tokenId}`;
      const res = await send(t, 'DELETE', path, caller);
      if (caller === 'anonymous') expectUnauthorized(res, path);
      if (caller !== 'anonymous' && caller !== 'admin') forbidden(res, path, 'admin', caller);
      if (caller === 'admin') expectStatus(res, 204);
      expect(await tokenExists(t, tokenId)).toBe(caller !== 'admin');
    },
  },
  'ALL /calendar-tokens': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'PUT',
    () => '/calendar-tokens',
  ),
  'ALL /calendar-tokens/:tokenId': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'GET',
    () => `/calendar-tokens/${randomUUID()}`,
  ),
  'ALL /calendar-tokens/*rest': authenticated(
    everyRole((res, path) => expectProblem(res, 404, path)),
    'GET',
    () => `/calendar-tokens/${randomUUID()}/more`,
  ),
  // The token is the credential: the same feed for anyone who holds it, with or without a user.
  'GET /calendar/:token.ics': {
    async check(t, caller) {
      const { token } = await createToken(t);
      expectStatus(await send(t, 'GET', `/calendar/${token}.ics?startDate=2026-01-01`, caller), 200);
      expectProblem(
        await send(t, 'GET', `/calendar/${Buffer.alloc(32).toString('base64url')}.ics`, caller),
        404,
        '/calendar/{token}.ics',
      );
    },
  },
  'ALL /calendar/:token.ics': open('PUT', '/calendar/anything.ics', 405),
  'ALL /calendar/*rest': open('GET', '/calendar/anything/more', 404),
};

export default rows;
