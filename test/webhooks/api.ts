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
