import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { AUTH, type TestApp } from '../helpers/test-app.js';
import { type ContractCases, type Exchange, JSON_TYPE, send, viewer } from '../helpers/contract.js';

/** The webhooks' operations in the contract table (test/openapi-contract.e2e-spec.ts). */

/** A webhook subscription to a receiver that is not there (its deliveries fail in the background). */
const WEBHOOK_URL = 'http://127.0.0.1:9/hook';
const postWebhook = (t: TestApp, body: string, headers: Record<string, string> = {}): Promise<Exchange> =>
  send(t, 'post', '/webhooks', { headers: { Authorization: AUTH, 'Content-Type': JSON_TYPE, ...headers }, body });

async function webhook(t: TestApp): Promise<string> {
  const res = await postWebhook(t, JSON.stringify({ url: WEBHOOK_URL }));
  expect(res.status).toBe(201);
  return (JSON.parse(res.text) as { webhookId: string }).webhookId;
}

const contract: ContractCases = {
  cases: [
    {
      app: 'main',
      method: 'post',
      path: '/webhooks',
      status: 201,
      what: 'a URL on an allowed host',
      send: (t) => postWebhook(t, JSON.stringify({ url: WEBHOOK_URL, description: 'Newsletter' })),
    },
    {
      app: 'main',
      method: 'post',
      path: '/webhooks',
      status: 400,
      what: 'a relative URL',
      send: (t) => postWebhook(t, JSON.stringify({ url: '/hook' })),
    },
    {
      app: 'main',
      method: 'post',
      path: '/webhooks',
      status: 401,
      what: 'no credentials',
      send: (t) => send(t, 'post', '/webhooks', { headers: { 'Content-Type': JSON_TYPE }, body: '{}' }),
    },
    {
      app: 'main',
      method: 'post',
      path: '/webhooks',
      status: 403,
      what: 'a viewer',
      send: async (t) => postWebhook(t, JSON.stringify({ url: WEBHOOK_URL }), { Authorization: await viewer(t) }),
    },
    {
      app: 'main',
      method: 'post',
      path: '/webhooks',
      status: 422,
      what: 'a loopback address not allowed',
      send: (t) => postWebhook(t, JSON.stringify({ url: 'https://127.0.0.2/hook' })),
    },
    {
      app: 'main',
      method: 'get',
      path: '/webhooks',
      status: 200,
      what: 'the subscriptions',
      send: async (t) => {
        await webhook(t);
        return send(t, 'get', '/webhooks', { headers: { Authorization: AUTH } });
      },
    },
    {
      app: 'main',
      method: 'get',
      path: '/webhooks',
      status: 403,
      what: 'a viewer',
      send: async (t) => send(t, 'get', '/webhooks', { headers: { Authorization: await viewer(t) } }),
    },
    {
      app: 'main',
      method: 'delete',
      path: '/webhooks/{webhookId}',
      status: 204,
      what: 'an existing subscription',
      send: async (t) => send(t, 'delete', `/webhooks/${await webhook(t)}`, { headers: { Authorization: AUTH } }),
    },
    {
      app: 'main',
      method: 'delete',
      path: '/webhooks/{webhookId}',
      status: 404,
      what: 'an unknown id',
      send: (t) => send(t, 'delete', `/webhooks/${randomUUID()}`, { headers: { Authorization: AUTH } }),
    },
    {
      app: 'main',
      method: 'delete',
      path: '/webhooks/{webhookId}',
      status: 400,
      what: 'a malformed id',
      send: (t) => send(t, 'delete', '/webhooks/nope', { headers: { Authorization: AUTH } }),
    },
    {
      app: 'main',
      method: 'post',
      path: '/webhooks/{webhookId}/enable',
      status: 200,
      what: 'an existing subscription',
      send: async (t) => send(t, 'post', `/webhooks/${await webhook(t)}/enable`, { headers: { Authorization: AUTH } }),
    },
    {
      app: 'main',
      method: 'post',
      path: '/webhooks/{webhookId}/enable',
      status: 404,
      what: 'an unknown id',
      send: (t) => send(t, 'post', `/webhooks/${randomUUID()}/enable`, { headers: { Authorization: AUTH } }),
    },
  ],
};

export default contract;
