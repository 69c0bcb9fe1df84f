import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { expect } from 'vitest';
import { expectProblem, expectStatus, expectUnauthorized } from '../helpers/problem-assertions.js';
import { adminOnly, authenticated, everyRole, forbidden, type RoleRows, send } from '../helpers/roles.js';
import { AUTH, type TestApp } from '../helpers/test-app.js';

/** Who may call the webhooks' routes: an admin (test/roles.e2e-spec.ts). */

const WEBHOOK_URL = 'http://127.0.0.1:9/hook';

/** A webhook subscription to a receiver that is never there (deliveries fail quietly in the background). */
async function createWebhook(t: TestApp): Promise<string> {
  const res = await request(t.baseUrl).post('/webhooks').set('Authorization', AUTH).send({ url: WEBHOOK_URL });
  expectStatus(res, 201);
  return (res.body as { webhookId: string }).webhookId;
}

async function webhookExists(t: TestApp, webhookId: string): Promise<boolean> {
  const rows = (await t.app
    .get(DataSource)
    .query('SELECT webhook_id FROM webhook_subscriptions WHERE webhook_id = ?', [webhookId])) as unknown[];
  return rows.length === 1;
}

const rows: RoleRows = {
  'POST /webhooks': {
    async check(t, caller) {
      const before = (await t.app.get(DataSource).query('SELECT webhook_id FROM webhook_subscriptions')) as unknown[];
      const res = await send(t, 'POST', '/webhooks', caller).send({ url: WEBHOOK_URL });
      if (caller === 'anonymous') expectUnauthorized(res, '/webhooks');
      else if (caller === 'admin') expectStatus(res, 201);
      else forbidden(res, '/webhooks', 'admin', caller);
      const after = (await t.app.get(DataSource).query('SELECT webhook_id FROM webhook_subscriptions')) as unknown[];
      expect(after.length - before.length).toBe(caller === 'admin' ? 1 : 0);
    },
  },
  'GET /webhooks': authenticated(
    adminOnly((res) => expectStatus(res, 200)),
    'GET',
    () => '/webhooks',
  ),
  'DELETE /webhooks/:webhookId': {
    async check(t, caller) {
      const webhookId = await createWebhook(t);
      const path = `/webhooks/${webhookId}`;
      const res = await send(t, 'DELETE', path, caller);
      if (caller === 'anonymous') expectUnauthorized(res, path);
      else if (caller === 'admin') expectStatus(res, 204);
      else forbidden(res, path, 'admin', caller);
      expect(await webhookExists(t, webhookId)).toBe(caller !== 'admin');
    },
  },
  'POST /webhooks/:webhookId/enable': authenticated(
    adminOnly((res) => expectStatus(res, 200)),
    'POST',
    (t) => createWebhook(t).then((webhookId) => `/webhooks/${webhookId}/enable`),
  ),
  'ALL /webhooks': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'PUT',
    () => '/webhooks',
  ),
  'ALL /webhooks/:webhookId': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'PUT',
    () => `/webhooks/${randomUUID()}`,
  ),
  'ALL /webhooks/:webhookId/enable': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'GET',
    () => `/webhooks/${randomUUID()}/enable`,
  ),
  'ALL /webhooks/*rest': authenticated(
    everyRole((res, path) => expectProblem(res, 404, path)),
    'GET',
    () => `/webhooks/${randomUUID()}/more`,
  ),
};

export default rows;
