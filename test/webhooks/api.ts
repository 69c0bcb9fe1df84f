import request from 'supertest';
import { AUTH } from '../helpers/test-app.js';

/**
 * The webhooks API as other features' tests call it (an event's deliveries): with the admin's
 * credentials unless told, answered as supertest answers.
 */

/** POST a subscription. */
export const subscribeWebhook = (baseUrl: string, body: object, auth = AUTH) =>
  request(baseUrl).post('/webhooks').set('Authorization', auth).send(body);

/** DELETE a subscription. */
export const removeWebhook = (baseUrl: string, webhookId: string, auth = AUTH) =>
  request(baseUrl).delete(`/webhooks/${webhookId}`).set('Authorization', auth);
