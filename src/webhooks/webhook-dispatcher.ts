import { Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import type { WebhooksConfig } from '../config/app-config.js';
import type { DeliveryResult, WebhookSender } from './webhook-sender.js';
import { type ClaimedDelivery, EVENT_TYPES, type WebhookOutbox } from './webhooks.repository.js';
import { retryDelayMs } from './retry-delay.js';
import { signatureHeaders } from './signature.js';
import type { WebhooksMetrics } from './webhooks.metrics.js';

/**
 * Deliveries one instance sends at once to one subscriber. Subscribers never share a limit, so a
 * receiver that never answers holds only its own deliveries back: an instance has at most
 * WEBHOOK_SUBSCRIPTIONS_MAX times this many in flight.
 */
export const MAX_IN_FLIGHT_PER_SUBSCRIBER = 4;
/** Deliveries one read of the outbox claims at most: a bound on its cost, not on the sending. */
export const CLAIM_BATCH = 32;
/**
 * How often an instance looks for deliveries that others wrote or that are due again, whether or
 * not deliveries are in flight (a due retry never waits for a slow receiver).
 */
const POLL_MS = 250;
/** How soon after a local event write the outbox is read (its transaction has committed by then). */
const NUDGE_MS = 5;
/** A subscriber's last success is written at most this often per instance: it is health, not state. */
const SUCCESS_RECORD_MS = 1000;
/** Event-loop utilization above which the process counts as saturated (by requests, most likely). */
const SATURATED_UTILIZATION = 0.85;
/** How often the utilization is sampled. */
const UTILIZATION_SAMPLE_MS = 250;
/**
 * Deliveries per second while the process is saturated: a few per cent of a core, so that a
 * burst of writes keeps its throughput and its deliveries wait (durably, in the outbox) until the
 * burst is over. A receiver across a network costs little CPU per delivery and is not affected:
 * its deliveries wait on the network, which leaves the event loop idle.
 */
export const SATURATED_DELIVERIES_PER_SECOND = 200;
/** While saturated, the outbox is read this often, a batch at a time (each read costs queries). */
const SATURATED_PUMP_MS = 100;

/**
 * Sends the outbox's deliveries, off the request path: each instance claims due deliveries with a
 * lease in the database, POSTs them signed (Standard Webhooks), deletes each one acknowledged
 * with a 2xx and reschedules each failure with backoff. A subscriber whose deliveries have failed
 * for WEBHOOK_RETRY_SECONDS since their first failure is disabled, its deliveries kept.
 */
export class WebhookDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WebhookDispatcher.name);
  private readonly inFlight = new Set<Promise<void>>();
  /** Deliveries in flight, by subscriber. */
  private readonly inFlightOf = new Map<string, number>();
  private readonly lastSuccessRecorded = new Map<string, number>();
  private timer?: NodeJS.Timeout;
  private timerDue = 0;
  private pumping = false;
  private pumpAgain = false;
  private stopping = false;
  private lastErrorLogged = 0;
  private utilizationSampledAt = 0;
  private saturated = false;
  /** Deliveries that may start while saturated (a token bucket refilled at SATURATED_DELIVERIES_PER_SECOND). */
  private saturatedBudget = SATURATED_DELIVERIES_PER_SECOND;
  private budgetRefilledAt = 0;
  /** Passes over the outbox begun so far, and who waits for a quiet one begun after a count (quiet()). */
  private passesBegun = 0;
  private readonly quietWaiters: { after: number; resolve: () => void }[] = [];

  constructor(
    private readonly outbox: WebhookOutbox,
    private readonly sender: WebhookSender,
    private readonly config: WebhooksConfig,
    private readonly metrics: WebhooksMetrics,
    /** Whether the event loop was saturated since the last call (a seam for the unit spec). */
    private readonly saturatedSinceLastCall: () => boolean = eventLoopSaturation(),
  ) {}

  onApplicationBootstrap(): void {
    this.schedule(0);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    this.sender.close();
    await Promise.allSettled(this.inFlight);
  }

  /** An event write that may have added deliveries: look soon, not at the next poll. */
  nudge(): void {
    // While saturated the throttled pump comes by itself: a nudge per write would defeat batching.
    if (!this.saturated) this.schedule(NUDGE_MS);
  }

  /**
   * Resolves once a pass over the outbox begun after this call found nothing due to claim, with no
   * delivery in flight: whatever was due when called has been sent and its outcome recorded (or is
   * no longer due: rescheduled, or its subscriber disabled). The barrier before asserting that
   * nothing (more) was sent, where a fixed wait would let a slow sender pass.
   */
  quiet(): Promise<void> {
    const after = this.passesBegun;
    const waiting = new Promise<void>((resolve) => this.quietWaiters.push({ after, resolve }));
    this.schedule(0);
    return waiting;
  }

  /** Runs pump() in `delayMs`, or sooner if it is already due sooner (a stream of nudges never delays it). */
  private schedule(delayMs: number): void {
    if (this.stopping) return;
    const due = Date.now() + delayMs;
    if (this.timer !== undefined && this.timerDue <= due) return;
    clearTimeout(this.timer);
    this.timerDue = due;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.pump();
    }, delayMs);
    this.timer.unref();
  }

  private async pump(): Promise<void> {
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    const pass = ++this.passesBegun;
    let more = false;
    let throttled = false;
    let claimedNone = false;
    try {
      const room = this.room();
      throttled = room === 0;
      if (room > 0 && !this.stopping) {
        const full = [...this.inFlightOf]
          .filter(([, count]) => count >= MAX_IN_FLIGHT_PER_SUBSCRIBER)
          .map(([id]) => id);
        const roomOf = (webhookId: string): number =>
          MAX_IN_FLIGHT_PER_SUBSCRIBER - (this.inFlightOf.get(webhookId) ?? 0);
        const batch = await this.outbox.claim(room, roomOf, full);
        more = batch.more;
        claimedNone = batch.claimed.length === 0 && !more;
        if (this.saturated) this.saturatedBudget -= batch.claimed.length;
        for (const delivery of batch.claimed) this.start(delivery);
      }
    } catch (error) {
      this.warnThrottled('Reading the webhook outbox failed; trying again shortly', error);
    } finally {
      this.pumping = false;
    }
    if (claimedNone && this.inFlight.size === 0) {
      this.metrics.recordQuietPass();
      this.releaseQuietWaiters(pass);
    }
    if (throttled) {
      this.schedule(SATURATED_PUMP_MS);
    } else if (this.pumpAgain || more) {
      this.pumpAgain = false;
      this.schedule(0);
    } else {
      this.schedule(POLL_MS);
    }
  }

  /** Resolves the quiet() waiters that were waiting for a pass begun after theirs, up to `pass`. */
  private releaseQuietWaiters(pass: number): void {
    for (let i = this.quietWaiters.length - 1; i >= 0; i--) {
      const waiter = this.quietWaiters[i];
      if (waiter.after >= pass) continue;
      this.quietWaiters.splice(i, 1);
      waiter.resolve();
    }
  }

  /** How many deliveries one claim may take now: CLAIM_BATCH, fewer while the process is saturated. */
  private room(): number {
    const now = performance.now();
    if (now - this.utilizationSampledAt >= UTILIZATION_SAMPLE_MS) {
      this.saturated = this.saturatedSinceLastCall();
      this.utilizationSampledAt = now;
    }
    const room = CLAIM_BATCH;
    if (!this.saturated) return room;
    this.saturatedBudget = Math.min(
      (SATURATED_DELIVERIES_PER_SECOND * SATURATED_PUMP_MS) / 1000,
      this.saturatedBudget + ((now - this.budgetRefilledAt) * SATURATED_DELIVERIES_PER_SECOND) / 1000,
    );
    this.budgetRefilledAt = now;
    return Math.max(0, Math.min(room, Math.floor(this.saturatedBudget)));
  }

  private start(delivery: ClaimedDelivery): void {
    const { webhookId } = delivery;
    this.inFlightOf.set(webhookId, (this.inFlightOf.get(webhookId) ?? 0) + 1);
    const sending: Promise<void> = this.deliver(delivery)
      .catch((error: unknown) => this.warnThrottled('Recording a webhook delivery failed', error))
      .finally(() => {
        this.inFlight.delete(sending);
        const left = (this.inFlightOf.get(webhookId) ?? 1) - 1;
        if (left === 0) this.inFlightOf.delete(webhookId);
        else this.inFlightOf.set(webhookId, left);
        this.schedule(0);
      });
    this.inFlight.add(sending);
  }

  private async deliver(delivery: ClaimedDelivery): Promise<void> {
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      ...signatureHeaders(delivery.secret, delivery.messageId, timestamp, delivery.payload),
      'museum-event-type': EVENT_TYPES[delivery.kind],
    };
    const result = await this.sender.send(delivery.url, headers, delivery.payload);
    const now = Date.now();
    if (result.outcome === 'delivered') {
      this.metrics.recordDelivery('delivered');
      await this.outbox.delivered(delivery);
      const last = this.lastSuccessRecorded.get(delivery.webhookId) ?? 0;
      if (now - last >= SUCCESS_RECORD_MS) {
        this.lastSuccessRecorded.set(delivery.webhookId, now);
        await this.outbox.recordSuccess(delivery.webhookId, now);
      }
      return;
    }
    if (this.stopping) {
      await this.outbox.release(delivery);
      return;
    }
    await this.recordFailure(delivery, result, now);
  }

  private async recordFailure(
    delivery: ClaimedDelivery,
    result: Exclude<DeliveryResult, { outcome: 'delivered' }>,
    now: number,
  ): Promise<void> {
    this.metrics.recordDelivery(result.outcome);
    const attempts = delivery.attempts + 1;
    await this.outbox.failed(delivery, now, now + retryDelayMs(attempts));
    await this.outbox.recordFailure(delivery.webhookId, now, result.reason);
    this.logger.warn({
      msg: 'Webhook delivery failed',
      webhookId: delivery.webhookId,
      messageId: delivery.messageId,
      attempts,
      reason: result.reason,
    });
    const failingSince = delivery.firstFailedAt ?? now;
    if (now - failingSince >= this.config.retryPeriodMs) {
      await this.outbox.disable(
        delivery.webhookId,
        `Deliveries failed for ${Math.round((now - failingSince) / 1000)} s since ${new Date(failingSince).toISOString()} ` +
          `(${attempts} attempts of ${delivery.messageId}); the last failure: ${result.reason}`,
      );
      this.logger.warn({
        msg: 'Webhook subscription disabled after failing deliveries',
        webhookId: delivery.webhookId,
      });
    }
  }

  private warnThrottled(message: string, error: unknown): void {
    const now = Date.now();
    if (now - this.lastErrorLogged < 10_000) return;
    this.lastErrorLogged = now;
    const code = (error as { code?: unknown } | null)?.code;
    this.logger.warn({ msg: message, code: typeof code === 'string' ? code : undefined });
  }
}

/** A sampler of this process's event-loop utilization: above SATURATED_UTILIZATION since the last sample. */
function eventLoopSaturation(): () => boolean {
  let last = performance.eventLoopUtilization();
  return () => {
    const current = performance.eventLoopUtilization();
    const saturated = performance.eventLoopUtilization(current, last).utilization > SATURATED_UTILIZATION;
    last = current;
    return saturated;
  };
}
