import { Refusal } from '../domain/refusal.js';

/** Why a webhook subscription is not made, read or changed as asked. */
export interface WebhookReasons {
  'url-refused': { readonly reason: string };
  'limit-reached': { readonly max: number };
  'not-found': { readonly webhookId: string };
}

export class WebhookRefusal<R extends keyof WebhookReasons = keyof WebhookReasons> extends Refusal<WebhookReasons, R> {}
