import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectStatus, validEvent } from '../helpers/problem-assertions.js';
import { AUTH, useTestApp, type TestApp } from '../helpers/test-app.js';
import { HungReceiver, WebhookReceiver } from '../helpers/webhook-receiver.js';

/**
 * Subscribers are isolated from each other, on SQLite and MariaDB: receivers that accept the
 * connection and never answer hold back only their own deliveries. A healthy subscriber gets all
 * of its deliveries, a retry included, before the first hung delivery reaches its timeout: told
 * by the order of what happens, not by the clock.
 */

async function subscribe(t: TestApp, url: string): Promise<void> {
  expectStatus(await request(t.baseUrl).post('/webhooks').set('Authorization', AUTH).send({ url }), 201);
}

async function createEvents(t: TestApp, count: number): Promise<void> {
  for (let i = 0; i < count; i += 5) {
    await Promise.all(
      Array.from({ length: Math.min(5, count - i) }, async () =>
        expectStatus(
          await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(validEvent()),
          201,
        ),
      ),
    );
  }
}

describe('webhooks: one subscriber that never answers does not delay the others', () => {
  const t = useTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
  let healthy: WebhookReceiver;
  let hung: HungReceiver;
  let healthyUrl = '';
  let hungUrl = '';

  beforeEach(async () => {
    healthy = new WebhookReceiver();
    hung = new HungReceiver();
    healthyUrl = await healthy.start();
    hungUrl = await hung.start();
  });
  afterEach(async () => {
    const listed = (await request(t.baseUrl).get('/webhooks').set('Authorization', AUTH)).body as {
      webhookId: string;
    }[];
    for (const { webhookId } of listed) {
      await request(t.baseUrl).delete(`/webhooks/${webhookId}`).set('Authorization', AUTH);
    }
    await Promise.all([healthy.stop(), hung.stop()]);
  });

  /**
   * Resolves with what had happened when the first of these came: every healthy delivery
   * acknowledged, or the sender giving up on a hung one (DELIVERY_TIMEOUT_MS after it began).
   */
  async function raceHealthyAgainstHungTimeout(expected: number): Promise<{ acknowledged: number; first: string }> {
    const acknowledgedIds = () => new Set(healthy.acknowledged().map(({ headers }) => headers['webhook-id'])).size;
    const first = await Promise.race([
      healthy.waitFor(() => acknowledgedIds() >= expected, 60_000).then(() => 'healthy'),
      hung.firstGiveUp().then(() => 'hung timeout'),
    ]);
    return { acknowledged: acknowledgedIds(), first };
  }

  it('with one hung subscriber, the healthy one gets all 40 deliveries, and a due retry, before any hung one times out', async () => {
    await subscribe(t, `${hungUrl}/never`);
    await subscribe(t, `${healthyUrl}/fine`);
    let answered = 0;
    // The healthy receiver fails its first delivery once: the retry is due about a second later.
    healthy.behaviour = () => ({ status: answered++ === 0 ? 500 : 202 });

    await createEvents(t, 40);
    const { acknowledged, first } = await raceHealthyAgainstHungTimeout(40);

    expect({ first, acknowledged }).toEqual({ first: 'healthy', acknowledged: 40 });
    expect(hung.closedBySender).toBe(0);
    // The hung deliveries were in flight all along: the two overlapped.
    expect(hung.connections).toBeGreaterThan(0);
    const retried = String(healthy.received.find(({ status }) => status === 500)?.headers['webhook-id']);
    expect(healthy.acknowledged().map(({ headers }) => headers['webhook-id'])).toContain(retried);
  }, 90_000);

  it('with 16 hung subscribers, the healthy one gets all 20 deliveries before any hung one times out', async () => {
    for (let i = 0; i < 16; i++) await subscribe(t, `${hungUrl}/never-${i}`);
    await subscribe(t, `${healthyUrl}/fine`);

    await createEvents(t, 20);
    const { acknowledged, first } = await raceHealthyAgainstHungTimeout(20);

    expect({ first, acknowledged }).toEqual({ first: 'healthy', acknowledged: 20 });
    expect(hung.closedBySender).toBe(0);
    expect(hung.connections).toBeGreaterThanOrEqual(16);
  }, 90_000);
});
