import { afterEach, describe, expect, it } from 'vitest';
import { newSecret } from './signature.js';
import {
  MAX_IN_FLIGHT_PER_SUBSCRIBER,
  SATURATED_DELIVERIES_PER_SECOND,
  WebhookDispatcher,
} from './webhook-dispatcher.js';
import type { ClaimedDelivery, WebhookOutbox } from './webhooks.repository.js';
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
  readonly claimedOf = new Map<string, number>();
  private inFlight = 0;
  private readonly secret = newSecret();

  constructor(private readonly webhookIds: readonly string[] = ['w']) {}

  claim(
    limit: number,
    roomOf: (webhookId: string) => number,
    full: readonly string[],
  ): Promise<{ claimed: ClaimedDelivery[]; more: boolean }> {
    const claimed: ClaimedDelivery[] = [];
    for (const webhookId of this.webhookIds) {
      if (full.includes(webhookId)) continue;
      for (let room = roomOf(webhookId); room > 0 && claimed.length < limit; room--) {
        this.claimed++;
        this.claimedOf.set(webhookId, (this.claimedOf.get(webhookId) ?? 0) + 1);
        claimed.push({
          deliveryId: this.claimed,
          messageId: `msg_${this.claimed}`,
          webhookId,
          kind: 'created' as const,
          payload: '{}',
          firstFailedAt: null,
          attempts: 0,
          url: `https://hooks.example.org/${webhookId}`,
          secret: this.secret,
          leaseOwner: 'me',
        });
      }
    }
    this.inFlight += claimed.length;
    this.inFlightPeak = Math.max(this.inFlightPeak, this.inFlight);
    return Promise.resolve({ claimed, more: claimed.length === limit });
  }

  delivered(): Promise<void> {
    this.inFlight--;
    return Promise.resolve();
  }

  recordSuccess(): Promise<void> {
    return Promise.resolve();
  }

  release(): Promise<void> {
    this.inFlight--;
    return Promise.resolve();
  }
}

const instantReceiver = {
  send: (): Promise<DeliveryResult> =>
    new Promise((resolve) => setImmediate(() => resolve({ outcome: 'delivered', status: 202 }))),
  close: () => undefined,
};
const metrics = { recordDelivery: () => undefined, recordQuietPass: () => undefined };

describe('WebhookDispatcher pacing', () => {
  let dispatcher: WebhookDispatcher | undefined;
  afterEach(async () => {
    await dispatcher?.onApplicationShutdown();
  });

  const run = async (
    saturated: () => boolean,
    ms: number,
    outbox = new EndlessOutbox(),
    sender: Pick<WebhookSender, 'send' | 'close'> = instantReceiver,
  ): Promise<EndlessOutbox> => {
    dispatcher = new WebhookDispatcher(
      outbox as unknown as WebhookOutbox,
      sender as unknown as WebhookSender,
      { allowedHosts: [], retryPeriodMs: 86_400_000, subscriptionsMax: 100 },
      metrics as unknown as WebhooksMetrics,
      saturated,
    );
    dispatcher.onApplicationBootstrap();
    await new Promise((resolve) => setTimeout(resolve, ms));
    return outbox;
  };

  it('sends freely, MAX_IN_FLIGHT_PER_SUBSCRIBER at a time to each subscriber, while the event loop is not saturated', async () => {
    const outbox = await run(() => false, 500, new EndlessOutbox(['a', 'b', 'c']));
    expect(outbox.claimed).toBeGreaterThan(SATURATED_DELIVERIES_PER_SECOND);
    expect(outbox.inFlightPeak).toBe(3 * MAX_IN_FLIGHT_PER_SUBSCRIBER);
  });

  it('a subscriber whose deliveries never end holds only its own slots: the others keep being sent', async () => {
    const hung = Array.from({ length: 20 }, (_, i) => `hung-${i}`);
    const outbox = new EndlessOutbox([...hung, 'healthy']);
    // Hung deliveries end only when the sender is closed (at shutdown), as a timed-out one would.
    const hanging: (() => void)[] = [];
    const sender = {
      send: (url: string): Promise<DeliveryResult> =>
        new Promise((resolve) => {
          if (url.includes('hung')) hanging.push(() => resolve({ outcome: 'failed', reason: 'closed' }));
          else setImmediate(() => resolve({ outcome: 'delivered', status: 202 }));
        }),
      close: () => hanging.forEach((end) => end()),
    };
    await run(() => false, 500, outbox, sender);
    for (const id of hung) expect(outbox.claimedOf.get(id)).toBe(MAX_IN_FLIGHT_PER_SUBSCRIBER);
    expect(outbox.claimedOf.get('healthy')).toBeGreaterThan(SATURATED_DELIVERIES_PER_SECOND);
  });

  it('sends at most SATURATED_DELIVERIES_PER_SECOND while it is saturated, and still makes progress', async () => {
    const outbox = await run(() => true, 1000);
    expect(outbox.claimed).toBeLessThanOrEqual(SATURATED_DELIVERIES_PER_SECOND * 1.15);
    expect(outbox.claimed).toBeGreaterThan(SATURATED_DELIVERIES_PER_SECOND / 4);
  });

  it('goes back to full speed once the saturation is over', async () => {
    let saturated = true;
    setTimeout(() => (saturated = false), 500);
    const outbox = await run(() => saturated, 1000, new EndlessOutbox(['a', 'b', 'c', 'd']));
    expect(outbox.claimed).toBeGreaterThan(SATURATED_DELIVERIES_PER_SECOND * 2);
  });
});
