import type { CreatedWebhookResponse, WebhookResponse } from './dto/webhook-response.dto.js';
import type { NewSubscription } from './webhooks.repository.js';
import type { WebhookState } from './webhooks.service.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** A subscription as listed: never its secret. */
export function toResponse({ subscription, pendingDeliveries }: WebhookState): WebhookResponse {
  return {
    webhookId: subscription.webhookId,
    url: subscription.url,
    description: subscription.description,
    createdAt: new Date(subscription.createdAt).toISOString(),
    enabled: subscription.enabled,
    disabledReason: subscription.disabledReason,
    lastSuccessAt: iso(subscription.lastSuccessAt),
    lastFailureAt: iso(subscription.lastFailureAt),
    lastFailureReason: subscription.lastFailureReason,
    pendingDeliveries,
  };
}

/** A new subscription as its creator sees it, the only time: with its secret. */
export function toCreatedResponse(subscription: NewSubscription): CreatedWebhookResponse {
  return { ...subscription, createdAt: new Date(subscription.createdAt).toISOString() };
}
