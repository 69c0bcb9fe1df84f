import { afterEach, describe, expect, it } from 'vitest';
import { newSecret } from './signature.js';
import { MAX_IN_FLIGHT, SATURATED_DELIVERIES_PER_SECOND, WebhookDispatcher } from './webhook-dispatcher.js';
import type { ClaimedDelivery, WebhookOutbox } from './webhook-outbox.js';
import type { DeliveryResult, WebhookSender } from './webhook-sender.js';
import type { WebhooksMetrics } from './webhooks.metrics.js';

/**
 * The dispatcher's pacing, against an outbox that always has deliveries due and a receiver that
 * acknowledges at once (the database and the network are the e2e specs' business): it sends
 * freely while the event loop is free, and at most SATURATED_DELIVERIES_PER_SECOND while it is
 * saturated, so that a burst of requests keeps its CPU.
 */
class EndlessOutbox {
  claimed = 0;
  inFlightPeak = 0;
  private inFlight = 0;
  private readonly secret = newSecret();

  claim(limit: number): Promise<ClaimedDelivery[]> {
    this.claimed += limit;
    this.inFlight += limit;
    this.inFlightPeak = Math.max(this.inFlightPeak, this.inFlight);
    return Promise.resolve(
      Array.from({ length: limit }, (_, i) => ({
        deliveryId: this.claimed - i,
        messageId: `msg_${this.claimed - i}`,
        webhookId: 'w',
        kind: 'created' as const,
        payload: '{}',
        firstFailedAt: null,
        attempts: 0,
        url: 'https://hooks.example.org/',
        secret: this.secret,
        leaseOwner: 'me',
      })),
    );
  }

  delivered(): Promise<void> {
    this.inFlight--;
    return Promise.resolve();
  }

  recordSuccess(): Promise<void> {
    return Promise.resolve();
  }
}

const instantReceiver = {
  send: (): Promise<DeliveryResult> =>
    new Promise((resolve) => setImmediate(() => resolve({ outcome: 'delivered', status: 202 }))),
  close: () => undefined,
};
const metrics = { recordDelivery: () => undefined };

describe('WebhookDispatcher pacing', () => {
  let dispatcher: WebhookDispatcher | undefined;
  afterEach(async () => {
    await dispatcher?.onApplicationShutdown();
  });

  const run = async (saturated: () => boolean, ms: number): Promise<EndlessOutbox> => {
    const outbox = new EndlessOutbox();
    dispatcher = new WebhookDispatcher(
      outbox as unknown as WebhookOutbox,
      instantReceiver as unknown as WebhookSender,
      { allowedHosts: [], retryPeriodMs: 86_400_000 },
      metrics as unknown as WebhooksMetrics,
      saturated,
    );
    dispatcher.onApplicationBootstrap();
    await new Promise((resolve) => setTimeout(resolve, ms));
    return outbox;
  };

  it('sends freely, MAX_IN_FLIGHT at a time, while the event loop is not saturated', async () => {
    const outbox = await run(() => false, 500);
    expect(outbox.claimed).toBeGreaterThan(SATURATED_DELIVERIES_PER_SECOND);
    expect(outbox.inFlightPeak).toBe(MAX_IN_FLIGHT);
  });

  it('sends at most SATURATED_DELIVERIES_PER_SECOND while it is saturated, and still makes progress', async () => {
    const outbox = await run(() => true, 1000);
    expect(outbox.claimed).toBeLessThanOrEqual(SATURATED_DELIVERIES_PER_SECOND * 1.15);
    expect(outbox.claimed).toBeGreaterThan(SATURATED_DELIVERIES_PER_SECOND / 4);
  });

  it('goes back to full speed once the saturation is over', async () => {
    let saturated = true;
    setTimeout(() => (saturated = false), 500);
    const outbox = await run(() => saturated, 1000);
    expect(outbox.claimed).toBeGreaterThan(SATURATED_DELIVERIES_PER_SECOND * 2);
  });
});
