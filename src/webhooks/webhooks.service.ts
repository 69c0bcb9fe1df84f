import { Injectable } from '@nestjs/common';
import { uuidv7 } from '../domain/time-ordered-ids.js';
import type { AppConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/config.module.js';
import { AddressPolicy } from './address-policy.js';
import { newSecret } from './signature.js';
import type { WebhookSubscription } from './webhook-subscription.entity.js';
import { WebhookRefusal } from './webhooks.refusals.js';
import { type NewSubscription, WebhookSubscriptions } from './webhooks.repository.js';

/** What became of a subscribe. */
export type SubscribeOutcome =
  | { readonly kind: 'created'; readonly subscription: NewSubscription }
  | { readonly kind: 'url-refused'; readonly reason: string }
  | { readonly kind: 'limit-reached'; readonly max: number };

/** A subscription and the deliveries still to be made to it. */
export interface WebhookState {
  readonly subscription: WebhookSubscription;
  readonly pendingDeliveries: number;
}

/** Subscriptions: made, listed, removed and re-enabled by admins. */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly subscriptions: WebhookSubscriptions,
    private readonly policy: AddressPolicy,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /**
   * Subscribes `url` once the address policy has accepted it, while there are fewer than
   * WEBHOOK_SUBSCRIPTIONS_MAX subscriptions. The URL is stored as the WHATWG parser writes it,
   * without a fragment (never sent in HTTP).
   */
  async create(url: string, description: string | null | undefined): Promise<SubscribeOutcome> {
    const target = new URL(url);
    target.hash = '';
    const refusal = await this.policy.refusal(target);
    if (refusal !== null) return { kind: 'url-refused', reason: refusal };
    const max = this.config.webhooks.subscriptionsMax;
    const subscription: NewSubscription = {
      webhookId: uuidv7(),
      url: target.href,
      description: description ?? null,
      secret: newSecret(),
      createdAt: Date.now(),
    };
    if (!(await this.subscriptions.insertBelowLimit(subscription, max))) return { kind: 'limit-reached', max };
    return { kind: 'created', subscription };
  }

  async list(): Promise<WebhookState[]> {
    const [subscriptions, pendingOf] = await Promise.all([
      this.subscriptions.list(),
      this.subscriptions.pendingDeliveries(),
    ]);
    return subscriptions.map((subscription) => ({
      subscription,
      pendingDeliveries: pendingOf.get(subscription.webhookId) ?? 0,
    }));
  }

  /** Removes the subscription and whatever was still to be delivered to it. */
  async delete(webhookId: string): Promise<void> {
    if (!(await this.subscriptions.delete(webhookId))) throw notFound(webhookId);
  }

  /**
   * Resumes deliveries to a subscriber: its pending deliveries are due at once, with their retry
   * period starting afresh. Enabling an enabled subscription changes nothing.
   */
  async enable(webhookId: string): Promise<WebhookState> {
    const subscription = await this.subscriptions.byId(webhookId);
    if (subscription === null) throw notFound(webhookId);
    if (!subscription.enabled) await this.subscriptions.enable(webhookId, Date.now());
    const [after, pending] = await Promise.all([
      this.subscriptions.byId(webhookId),
      this.subscriptions.pendingDeliveriesOf(webhookId),
    ]);
    if (after === null) throw notFound(webhookId);
    return { subscription: after, pendingDeliveries: pending };
  }
}

function notFound(webhookId: string): WebhookRefusal {
  return new WebhookRefusal('not-found', { webhookId });
}
