import { Counter, Gauge, type Registry } from 'prom-client';
import type { DeliveryResult } from './webhook-sender.js';
import type { WebhookOutbox } from './webhooks.repository.js';

/**
 * - `webhook_deliveries_total{outcome}`: attempts by outcome: `delivered` (a 2xx), `failed`
 *   (another status, a timeout, a connection error), `refused` (the address policy);
 * - `webhook_pending_deliveries`: the outbox's depth, read from the database at each scrape, so
 *   every instance reports the same shared queue;
 * - `webhook_oldest_pending_delivery_age_seconds`: how long the oldest of them has waited;
 * - `webhook_quiet_passes_total`: this instance's passes over the outbox that found nothing due
 *   and nothing of its own in flight; two more than a reading mean a pass begun after it found
 *   everything then due sent and recorded (a barrier for a check that nothing more is sent).
 */
export class WebhooksMetrics {
  private readonly deliveries: Counter<'outcome'>;
  private readonly quietPasses: Counter;
  private backlog?: { at: number; value: ReturnType<WebhookOutbox['backlog']> };

  constructor(registry: Registry, outbox: WebhookOutbox) {
    this.deliveries = new Counter({
      name: 'webhook_deliveries_total',
      help: 'Webhook delivery attempts by outcome (delivered, failed, refused by the address policy).',
      labelNames: ['outcome'],
      registers: [registry],
    });
    for (const outcome of ['delivered', 'failed', 'refused']) this.deliveries.inc({ outcome }, 0);
    this.quietPasses = new Counter({
      name: 'webhook_quiet_passes_total',
      help: "Passes over the webhook outbox that found nothing due and none of this instance's deliveries in flight.",
      registers: [registry],
    });
    // One query per scrape serves both gauges.
    const backlog = () => {
      const now = Date.now();
      if (this.backlog === undefined || now - this.backlog.at > 100) {
        this.backlog = { at: now, value: outbox.backlog() };
      }
      return this.backlog.value;
    };
    new Gauge({
      name: 'webhook_pending_deliveries',
      help: 'Webhook deliveries not yet acknowledged, across all instances.',
      registers: [registry],
      async collect() {
        // A failed read keeps the last value: a scrape never fails because the database did.
        const value = await backlog().catch(() => undefined);
        if (value) this.set(value.pending);
      },
    });
    new Gauge({
      name: 'webhook_oldest_pending_delivery_age_seconds',
      help: 'Age of the oldest webhook delivery not yet acknowledged (0 when none).',
      registers: [registry],
      async collect() {
        const value = await backlog().catch(() => undefined);
        if (value)
          this.set(value.oldestCreatedAt === null ? 0 : Math.max(0, (Date.now() - value.oldestCreatedAt) / 1000));
      },
    });
  }

  recordDelivery(outcome: DeliveryResult['outcome']): void {
    this.deliveries.inc({ outcome });
  }

  recordQuietPass(): void {
    this.quietPasses.inc();
  }
}
