import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { v7 as uuidv7 } from 'uuid';
import type { Repository } from 'typeorm';
import type { AppConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/config.module.js';
import { SqlStatements } from '../database/sql-statements.js';
import { AddressPolicy } from './address-policy.js';
import type { CreatedWebhookResponse, WebhookResponse } from './dto/webhook-response.dto.js';
import { newSecret } from './signature.js';
import { WebhookSubscription } from './webhook-subscription.entity.js';
import { WebhookRefusal } from './webhooks.refusals.js';

/** What became of a subscribe. */
export type SubscribeOutcome =
  | { readonly kind: 'created'; readonly subscription: CreatedWebhookResponse }
  | { readonly kind: 'url-refused'; readonly reason: string }
  | { readonly kind: 'limit-reached'; readonly max: number };

/**
 * One subscription more, only while there are fewer than the limit: the count and the insert are
 * one statement, so the database decides (SQLite runs one write at a time; InnoDB's INSERT …
 * SELECT reads the counted rows with shared locks, so of two racing inserts one waits or
 * deadlocks and is run again, and then counts the other).
 */
const INSERT_BELOW_LIMIT =
  'INSERT INTO webhook_subscriptions (webhook_id, url, description, secret, created_at, enabled) ' +
  'SELECT ?, ?, ?, ?, ?, 1 FROM (SELECT COUNT(*) AS n FROM webhook_subscriptions) c WHERE c.n < ?';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** Subscriptions: made, listed, removed and re-enabled by admins. */
@Injectable()
export class WebhooksService {
  constructor(
    @InjectRepository(WebhookSubscription) private readonly subscriptions: Repository<WebhookSubscription>,
    private readonly sql: SqlStatements,
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
    const subscription = {
      webhookId: uuidv7(),
      url: target.href,
      description: description ?? null,
      secret: newSecret(),
      createdAt: Date.now(),
    };
    const inserted = await this.sql.transactionIf(
      {
        sql: INSERT_BELOW_LIMIT,
        parameters: [
          subscription.webhookId,
          subscription.url,
          subscription.description,
          subscription.secret,
          subscription.createdAt,
          max,
        ],
      },
      [],
    );
    if (inserted === null) return { kind: 'limit-reached', max };
    return {
      kind: 'created',
      subscription: { ...subscription, createdAt: new Date(subscription.createdAt).toISOString() },
    };
  }

  async list(): Promise<WebhookResponse[]> {
    const [subscriptions, pending] = await Promise.all([
      this.subscriptions.find({ order: { createdAt: 'ASC', webhookId: 'ASC' } }),
      this.sql.select<{ webhook_id: string; pending: number | string }>(
        'SELECT webhook_id, COUNT(*) AS pending FROM webhook_deliveries GROUP BY webhook_id',
      ),
    ]);
    const pendingOf = new Map(pending.map((row) => [row.webhook_id, Number(row.pending)]));
    return subscriptions.map((subscription) =>
      this.toResponse(subscription, pendingOf.get(subscription.webhookId) ?? 0),
    );
  }

  /** Removes the subscription and whatever was still to be delivered to it. */
  async delete(webhookId: string): Promise<void> {
    const [, removed] = await this.sql.transaction([
      { sql: 'DELETE FROM webhook_deliveries WHERE webhook_id = ?', parameters: [webhookId] },
      { sql: 'DELETE FROM webhook_subscriptions WHERE webhook_id = ?', parameters: [webhookId] },
    ]);
    if (removed === 0) throw notFound(webhookId);
  }

  /**
   * Resumes deliveries to a subscriber: its pending deliveries are due at once, with their retry
   * period starting afresh. Enabling an enabled subscription changes nothing.
   */
  async enable(webhookId: string): Promise<WebhookResponse> {
    const subscription = await this.subscriptions.findOneBy({ webhookId });
    if (subscription === null) throw notFound(webhookId);
    if (!subscription.enabled) {
      await this.sql.transaction([
        {
          sql: 'UPDATE webhook_deliveries SET attempts = 0, first_failed_at = NULL, next_attempt_at = ? WHERE webhook_id = ?',
          parameters: [Date.now(), webhookId],
        },
        {
          sql: 'UPDATE webhook_subscriptions SET enabled = 1, disabled_reason = NULL WHERE webhook_id = ?',
          parameters: [webhookId],
        },
      ]);
    }
    const [after, pending] = await Promise.all([
      this.subscriptions.findOneBy({ webhookId }),
      this.sql.select<{ pending: number | string }>(
        'SELECT COUNT(*) AS pending FROM webhook_deliveries WHERE webhook_id = ?',
        [webhookId],
      ),
    ]);
    if (after === null) throw notFound(webhookId);
    return this.toResponse(after, Number(pending[0]?.pending ?? 0));
  }

  private toResponse(subscription: WebhookSubscription, pendingDeliveries: number): WebhookResponse {
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
}

function notFound(webhookId: string): WebhookRefusal {
  return new WebhookRefusal('not-found', { webhookId });
}
