import request from 'supertest';
import { AUTH } from '../helpers/test-app.js';

/**
 * The webhooks API as other features' tests call it (an event's deliveries): with the admin's
 * credentials unless told, answered as supertest answers. Its paths too, for a client of another
 * kind (fetch, another process).
 */

/** Where a subscription is POSTed. */
export const WEBHOOKS_PATH = '/webhooks';

/** A subscription. */
export const webhookPath = (webhookId: string): string => `${WEBHOOKS_PATH}/${webhookId}`;

/** POST a subscription. */
export const subscribeWebhook = (baseUrl: string, body: object, auth = AUTH) =>
  request(baseUrl).post(WEBHOOKS_PATH).set('Authorization', auth).send(body);

/** DELETE a subscription. */
export const removeWebhook = (baseUrl: string, webhookId: string, auth = AUTH) =>
  request(baseUrl).delete(webhookPath(webhookId)).set('Authorization', auth);

/** This instance's count of quiet passes over the outbox (webhook_quiet_passes_total). */
async function quietPasses(baseUrl: string): Promise<number> {
  const metrics = (await request(baseUrl).get('/metrics')).text;
  return Number(/^webhook_quiet_passes_total (\d+)$/m.exec(metrics)?.[1] ?? Number.NaN);
}

/**
 * Resolves once every instance has made a pass over the outbox, begun after this call, that found
 * nothing due and none of its deliveries in flight (two more quiet passes than now): what was due
 * has been sent and recorded. The barrier before checking that nothing more was sent, for services
 * in other processes (in-process tests call WebhookDispatcher.quiet()). Fails after `timeoutMs`.
 */
export async function outboxQuiet(baseUrls: readonly string[], timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const before = await Promise.all(baseUrls.map(quietPasses));
  if (before.some(Number.isNaN)) throw new Error('webhook_quiet_passes_total is missing from /metrics');
  for (const [i, baseUrl] of baseUrls.entries()) {
    while ((await quietPasses(baseUrl)) < before[i] + 2) {
      if (Date.now() > deadline) throw new Error(`${baseUrl}: no quiet pass over the outbox within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
