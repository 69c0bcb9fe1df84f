import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { v7 as uuidv7 } from 'uuid';
import type { Repository } from 'typeorm';
import { ProblemException } from '../common/problem/problem.js';
import { SqlStatements } from '../database/sql-statements.js';
import { AddressPolicy } from './address-policy.js';
import type { CreatedWebhookResponse, WebhookResponse } from './dto/webhook-response.dto.js';
import { newSecret } from './signature.js';
import { WebhookSubscription } from './webhook-subscription.entity.js';

export const WEBHOOK_URL_PROBLEM_TYPE = 'urn:museum:problem:webhook-url-refused';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** Subscriptions: made, listed, removed and re-enabled by admins. */
@Injectable()
export class WebhooksService {
  constructor(
    @InjectRepository(WebhookSubscription) private readonly subscriptions: Repository<WebhookSubscription>,
    private readonly sql: SqlStatements,
    private readonly policy: AddressPolicy,
  ) {}

  /**
   * Subscribes `url` after the address policy has accepted it (422 with the reason otherwise).
   * The URL is stored as the WHATWG parser writes it, without a fragment (never sent in HTTP).
   */
  async create(url: string, description: string | null | undefined): Promise<CreatedWebhookResponse> {
    const target = new URL(url);
    target.hash = '';
    const refusal = await this.policy.refusal(target);
    if (refusal !== null) {
      throw new ProblemException(422, `This webhook URL is not allowed: ${refusal}.`, {
        type: WEBHOOK_URL_PROBLEM_TYPE,
      });
    }
    const subscription: WebhookSubscription = {
      webhookId: uuidv7(),
      url: target.href,
      description: description ?? null,
      secret: newSecret(),
      createdAt: Date.now(),
      enabled: true,
      disabledReason: null,
      lastSuccessAt: null,
      lastFailureAt: null,
      lastFailureReason: null,
    };
    await this.subscriptions.insert(subscription);
    return {
      webhookId: subscription.webhookId,
      url: subscription.url,
      description: subscription.description,
      secret: subscription.secret,
      createdAt: new Date(subscription.createdAt).toISOString(),
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

function notFound(webhookId: string): ProblemException {
  return new ProblemException(404, `No webhook subscription has webhookId ${webhookId}.`);
}
