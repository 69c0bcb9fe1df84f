import { ProblemCatalog } from '../common/problem/problem-catalog.js';
import { WebhookRefusal, type WebhookReasons } from './webhooks.refusals.js';

/** Each refusal of the webhooks module as an HTTP problem, and as the API description words it. */
export const WEBHOOK_PROBLEMS = new ProblemCatalog<WebhookReasons>('webhooks', WebhookRefusal, {
  'url-refused': {
    status: 422,
    type: 'urn:museum:problem:webhook-url-refused',
    detail: ({ reason }) => `This webhook URL is not allowed: ${reason}.`,
    when:
      'The URL breaks the address rules: plain http to a host not in WEBHOOK_ALLOWED_HOSTS; an address that is ' +
      'not global unicast (loopback, private, link-local or metadata, or an IPv6 form that carries an IPv4 ' +
      'address); a name that resolves to one, or does not resolve.',
    example: {
      reason: 'localhost resolves to 127.0.0.1 is a loopback, private, link-local or otherwise internal address',
    },
  },
  'limit-reached': {
    status: 409,
    type: 'urn:museum:problem:webhook-subscriptions-full',
    detail: ({ max }) =>
      `There are already ${max} webhook subscriptions, the most this service keeps; delete one first.`,
    when: 'WEBHOOK_SUBSCRIPTIONS_MAX subscriptions exist already: delete one first.',
    example: { max: 100 },
  },
  'not-found': {
    status: 404,
    detail: ({ webhookId }) => `No webhook subscription has webhookId ${webhookId}.`,
    when: 'No webhook subscription has this webhookId.',
    example: { webhookId: '0190a7a0-9d4c-7c3e-8f00-1a2b3c4d5e6f' },
  },
});
