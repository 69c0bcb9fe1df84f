import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { UsersService } from '../../src/auth/users.service.js';
import { AddressPolicy } from '../../src/webhooks/address-policy.js';
import { WebhookDispatcher } from '../../src/webhooks/webhook-dispatcher.js';
import { expectProblem, expectStatus, expectUnauthorized, validEvent } from '../helpers/problem-assertions.js';
import { AUTH, basicHeader, useTestApp, type TestApp } from '../helpers/test-app.js';
import { type ReceivedDelivery, WebhookReceiver } from '../helpers/webhook-receiver.js';

/**
 * publishNewEvent webhooks (issue 29), on SQLite and MariaDB: subscriptions and their statuses,
 * what a delivery carries (checked with the standardwebhooks verifier), order per event, retries
 * until a receiver comes back, the address rules at subscription and at delivery, and disabling
 * after the retry period.
 */

const EDITOR = { user: 'curator', password: 'curator-password-1234' };

interface Subscription {
  webhookId: string;
  url: string;
  secret: string;
}

async function subscribe(t: TestApp, url: string, description?: string): Promise<Subscription> {
  const res = await request(t.baseUrl)
    .post('/webhooks')
    .set('Authorization', AUTH)
    .send(description === undefined ? { url } : { url, description });
  expectStatus(res, 201);
  return res.body as Subscription;
}

async function createEvent(t: TestApp, overrides: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const res = await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(validEvent(overrides));
  expectStatus(res, 201);
  return res.body as Record<string, unknown>;
}

async function getEvent(t: TestApp, eventId: string): Promise<string> {
  const res = await request(t.baseUrl).get(`/special-events/${eventId}`).set('Authorization', AUTH);
  expectStatus(res, 200);
  return res.text;
}

async function listWebhooks(t: TestApp): Promise<Record<string, unknown>[]> {
  const res = await request(t.baseUrl).get('/webhooks').set('Authorization', AUTH);
  expectStatus(res, 200);
  return res.body as Record<string, unknown>[];
}

/** The first subscription, read again until `done` holds of it (at most 20 s). */
async function webhookWhen(
  t: TestApp,
  done: (webhook: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  for (let tries = 0; ; tries++) {
    const [webhook] = await listWebhooks(t);
    if (done(webhook) || tries === 100) return webhook;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Resolves once the outbox holds no delivery: every one was sent and acknowledged, or dropped. */
async function outboxDrained(t: TestApp): Promise<void> {
  const pending = async () =>
    Number(
      ((await t.app.get(DataSource).query('SELECT COUNT(*) AS n FROM webhook_deliveries')) as { n: unknown }[])[0].n,
    );
  while ((await pending()) > 0) await new Promise((resolve) => setTimeout(resolve, 20));
}

const eventIdOf = (delivery: ReceivedDelivery): string => (JSON.parse(delivery.body) as { eventId: string }).eventId;

describe('webhooks', () => {
  const receiver = new WebhookReceiver();
  let receiverUrl = '';
  const t = useTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });

  beforeAll(async () => {
    receiverUrl = await receiver.start();
    await t.app.get(UsersService).add(EDITOR.user, EDITOR.password, 'editor');
  });
  afterAll(() => receiver.stop());
  afterEach(async () => {
    for (const { webhookId } of await listWebhooks(t)) {
      await request(t.baseUrl)
        .delete(`/webhooks/${String(webhookId)}`)
        .set('Authorization', AUTH);
    }
    vi.useRealTimers();
    receiver.behaviour = () => ({ status: 202 });
    receiver.received.length = 0;
  });

  it('POST /webhooks: 201 with the secret (only there), Location; GET lists it with its health and no secret', async () => {
    const res = await request(t.baseUrl)
      .post('/webhooks')
      .set('Authorization', AUTH)
      .send({ url: `${receiverUrl}/hook#fragment`, description: 'Newsletter 📰' });
    expectStatus(res, 201);
    const created = res.body as Record<string, unknown>;
    expect(Object.keys(created).sort()).toEqual(['createdAt', 'description', 'secret', 'url', 'webhookId']);
    expect(created.url).toBe(`${receiverUrl}/hook`);
    expect(created.description).toBe('Newsletter 📰');
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(String(created.secret).slice(6), 'base64')).toHaveLength(24);
    expect(res.headers.location).toBe(`/webhooks/${String(created.webhookId)}`);
    expect(Date.parse(String(created.createdAt))).toBeGreaterThan(Date.now() - 60_000);

    const listed = await listWebhooks(t);
    expect(listed).toEqual([
      {
        webhookId: created.webhookId,
        url: created.url,
        description: 'Newsletter 📰',
        createdAt: created.createdAt,
        enabled: true,
        disabledReason: null,
        lastSuccessAt: null,
        lastFailureAt: null,
        lastFailureReason: null,
        pendingDeliveries: 0,
      },
    ]);
    expect(JSON.stringify(listed)).not.toContain(String(created.secret));
    expect(t.logText()).not.toContain(String(created.secret));
  });

  it('POST /webhooks: 400 for a missing, relative or non-http URL, a long description, an unknown field; 401; 403 below admin', async () => {
    for (const body of [
      {},
      { url: '/relative' },
      { url: 'ftp://files.example.org/' },
      { url: 42 },
      { url: `https://example.org/${'a'.repeat(2100)}` },
      { url: 'https://example.org/', description: 'x'.repeat(201) },
      { url: 'https://example.org/', secret: 'whsec_mine' },
    ]) {
      const res = await request(t.baseUrl).post('/webhooks').set('Authorization', AUTH).send(body);
      expectProblem(res, 400, '/webhooks', true);
    }
    expectUnauthorized(await request(t.baseUrl).post('/webhooks').send({ url: receiverUrl }), '/webhooks');
    const forbidden = await request(t.baseUrl)
      .post('/webhooks')
      .set('Authorization', basicHeader(EDITOR.user, EDITOR.password))
      .send({ url: receiverUrl });
    expect(expectProblem(forbidden, 403, '/webhooks').detail).toBe(
      'This operation needs the admin role; your role is editor.',
    );
    expect(await listWebhooks(t)).toEqual([]);
  });

  it('POST /webhooks: 422 for plain http to a host not listed, internal literals, and names that resolve inside', async () => {
    const port = new URL(receiverUrl).port;
    const refused: [string, RegExp][] = [
      [`http://example.org:${port}/hook`, /plain http is allowed only to the hosts in WEBHOOK_ALLOWED_HOSTS/],
      [`http://localhost:${port}/hook`, /plain http/],
      [`https://localhost:${port}/hook`, /localhost resolves to (127\.0\.0\.1|::1) is a loopback/],
      ['https://127.0.0.2/hook', /127\.0\.0\.2 is a loopback/],
      ['https://[::1]/hook', /::1 is a loopback/],
      ['https://169.254.169.254/latest/meta-data/', /169\.254\.169\.254 is a loopback, private, link-local/],
      ['https://10.0.0.8/hook', /internal address/],
      ['https://[::ffff:192.168.0.1]/hook', /internal address/],
      ['https://user:secret@example.org/hook', /must not carry credentials/],
    ];
    for (const [url, reason] of refused) {
      const res = await request(t.baseUrl).post('/webhooks').set('Authorization', AUTH).send({ url });
      const problem = expectProblem(res, 422, '/webhooks');
      expect(problem.type).toBe('urn:museum:problem:webhook-url-refused');
      expect(problem.detail).toMatch(reason);
    }
    expect(await listWebhooks(t)).toEqual([]);
  });

  it('DELETE /webhooks/{id}: 204 and gone, then 404; 400 for a malformed id; POST …/enable: 404 and 400 likewise', async () => {
    const { webhookId } = await subscribe(t, `${receiverUrl}/gone`);
    expectStatus(
      await request(t.baseUrl).delete(`/webhooks/${webhookId.toUpperCase()}`).set('Authorization', AUTH),
      204,
    );
    expect(await listWebhooks(t)).toEqual([]);
    const again = await request(t.baseUrl).delete(`/webhooks/${webhookId}`).set('Authorization', AUTH);
    expect(expectProblem(again, 404, `/webhooks/${webhookId}`).detail).toBe(
      `No webhook subscription has webhookId ${webhookId}.`,
    );
    expectProblem(
      await request(t.baseUrl).delete('/webhooks/not-a-uuid').set('Authorization', AUTH),
      400,
      '/webhooks/not-a-uuid',
      true,
    );
    const unknown = randomUUID();
    expectProblem(
      await request(t.baseUrl).post(`/webhooks/${unknown}/enable`).set('Authorization', AUTH),
      404,
      `/webhooks/${unknown}/enable`,
    );
    expectProblem(
      await request(t.baseUrl).post('/webhooks/nope/enable').set('Authorization', AUTH),
      400,
      '/webhooks/nope/enable',
      true,
    );
    // Events written after the removal go nowhere: once a later subscriber has its delivery and
    // nothing is left to deliver, the removed one must have received nothing.
    await subscribe(t, `${receiverUrl}/after`);
    const { eventId } = await createEvent(t);
    await receiver.waitFor(() => receiver.acknowledged().some((delivery) => delivery.path === '/after'));
    await outboxDrained(t);
    expect(receiver.received.map(({ path }) => path)).toEqual(['/after']);
    expect(eventIdOf(receiver.received[0])).toBe(eventId);
  });

  it('delivers create, update and delete: the event exactly as GET returns it, signed (standardwebhooks verifies), in order', async () => {
    // The museum's clock stands still here, so a delivery is signed at exactly this second.
    const signedAt = new Date('2031-03-04T05:06:07.890Z');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(signedAt);
    const subscription = await subscribe(t, `${receiverUrl}/museum`);
    const event = await createEvent(t, {
      name: 'Nocturne, "late" 🌙',
      eventDescription: 'Line one\nLine two — ünïcødé',
    });
    const eventId = String(event.eventId);
    const created = await getEvent(t, eventId);
    const patched = await request(t.baseUrl)
      .patch(`/special-events/${eventId}`)
      .set('Authorization', AUTH)
      .send({ price: 12.5 });
    expectStatus(patched, 200);
    const updated = await getEvent(t, eventId);
    expectStatus(await request(t.baseUrl).delete(`/special-events/${eventId}`).set('Authorization', AUTH), 204);

    await receiver.waitFor(() => receiver.acknowledged().length >= 3);
    const deliveries = receiver.acknowledged();
    expect(deliveries.map(({ headers }) => headers['museum-event-type'])).toEqual([
      'special-event.created',
      'special-event.updated',
      'special-event.deleted',
    ]);
    expect(deliveries.map(({ body }) => body)).toEqual([created, updated, JSON.stringify({ eventId })]);
    const verifier = new Webhook(subscription.secret);
    for (const delivery of deliveries) {
      expect(delivery.path).toBe('/museum');
      expect(delivery.headers['content-type']).toBe('application/json');
      expect(delivery.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{16}[0-9a-z]+$/);
      expect(delivery.headers['webhook-timestamp']).toBe(String(Math.floor(signedAt.getTime() / 1000)));
      expect(
        verifier.verify(delivery.body, {
          'webhook-id': String(delivery.headers['webhook-id']),
          'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
          'webhook-signature': String(delivery.headers['webhook-signature']),
        }),
      ).toEqual(JSON.parse(delivery.body));
    }
    expect(new Set(deliveries.map(({ headers }) => headers['webhook-id'])).size).toBe(3);
    // The receiver has answered; the dispatcher removes each acknowledged delivery right after.
    const health = await webhookWhen(t, (webhook) => webhook.pendingDeliveries === 0);
    expect(health.pendingDeliveries).toBe(0);
    expect(health.lastSuccessAt).toEqual(expect.any(String));
  });

  it('the OpenAPI document describes publishNewEvent (x-webhooks) with the headers and the body a delivery carries', async () => {
    const doc = (await request(t.baseUrl).get('/openapi.json')).body as {
      'x-webhooks': Record<string, { post: Record<string, unknown> }>;
    };
    const operation = doc['x-webhooks'].publishNewEvent.post as {
      operationId: string;
      parameters: { name: string; in: string }[];
      requestBody: { content: Record<string, { schema: { anyOf: { $ref?: string }[] } }> };
      responses: Record<string, unknown>;
    };
    expect(operation.operationId).toBe('publishNewEvent');
    expect(operation.parameters.map(({ name, in: where }) => `${where} ${name}`)).toEqual([
      'header webhook-id',
      'header webhook-timestamp',
      'header webhook-signature',
      'header museum-event-type',
    ]);
    expect(operation.requestBody.content['application/json'].schema.anyOf[0].$ref).toBe(
      '#/components/schemas/SpecialEventResponse',
    );
    expect(Object.keys(operation.responses)).toEqual(['202']);
  });

  it('a receiver down for a while gets everything once it is back: each webhook-id acknowledged once, in order per event', async () => {
    await subscribe(t, `${receiverUrl}/flaky`);
    let down = true;
    receiver.behaviour = () => ({ status: down ? 503 : 204 });
    const events = await Promise.all(Array.from({ length: 5 }, () => createEvent(t)));
    for (const event of events) {
      for (const price of [1, 2]) {
        expectStatus(
          await request(t.baseUrl)
            .patch(`/special-events/${String(event.eventId)}`)
            .set('Authorization', AUTH)
            .send({ price }),
          200,
        );
      }
    }
    await receiver.waitFor(() => receiver.received.length >= 5, 10_000, 'the first failed attempts');
    const failing = await webhookWhen(t, (webhook) => webhook.pendingDeliveries === 15);
    expect(failing.pendingDeliveries).toBe(15);
    expect(failing.lastFailureReason).toBe('HTTP 503');
    down = false;
    await receiver.waitFor(() => receiver.acknowledged().length >= 15, 30_000);

    const acknowledged = receiver.acknowledged();
    const ids = acknowledged.map(({ headers }) => String(headers['webhook-id']));
    expect(new Set(ids).size).toBe(15);
    // Retries of one delivery kept its webhook-id: every failed id was acknowledged later.
    const failedIds = new Set(
      receiver.received.filter(({ status }) => status === 503).map(({ headers }) => String(headers['webhook-id'])),
    );
    for (const id of failedIds) expect(ids).toContain(id);
    for (const event of events) {
      const own = acknowledged.filter((delivery) => eventIdOf(delivery) === event.eventId);
      expect(own.map(({ headers }) => headers['museum-event-type'])).toEqual([
        'special-event.created',
        'special-event.updated',
        'special-event.updated',
      ]);
      expect(own.map(({ body }) => (JSON.parse(body) as { price: number }).price)).toEqual([event.price, 1, 2]);
    }
    // Nothing sent twice: once the dispatcher found nothing more due, still 15.
    await t.app.get(WebhookDispatcher).quiet();
    expect(receiver.acknowledged()).toHaveLength(15);
    const [healthy] = await listWebhooks(t);
    expect(healthy).toMatchObject({ enabled: true, pendingDeliveries: 0, lastSuccessAt: expect.any(String) });
  }, 60_000);

  it('follows no redirect', async () => {
    await subscribe(t, `${receiverUrl}/moved`);
    receiver.behaviour = (path) =>
      path === '/moved' ? { status: 307, headers: { location: `${receiverUrl}/elsewhere` } } : { status: 202 };
    await createEvent(t);
    await receiver.waitFor(() => receiver.received.length >= 1);
    await t.app.get(WebhookDispatcher).quiet();
    expect(receiver.received.map(({ path }) => path)).not.toContain('/elsewhere');
    const [health] = await listWebhooks(t);
    expect(health.lastFailureReason).toBe('HTTP 307: redirects are not followed');
  });

  it('reads no more than 64 KiB of an answer: a 2xx that never ends is a delivery, long before the 10 s timeout', async () => {
    await subscribe(t, `${receiverUrl}/chatty`);
    receiver.behaviour = () => ({ status: 200, endlessAfterBytes: 80 * 1024 });
    const started = Date.now();
    await createEvent(t);
    let health: Record<string, unknown> = {};
    while (Date.now() - started < 8000) {
      [health] = await listWebhooks(t);
      // The delivery row goes first, then the subscription's last success (its own statement).
      if (health.pendingDeliveries === 0 && health.lastSuccessAt !== null) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(health).toMatchObject({ pendingDeliveries: 0, lastFailureAt: null, lastSuccessAt: expect.any(String) });
    expect(Date.now() - started).toBeLessThan(8000);
  }, 15_000);

  describe('a name that resolves to a public address when subscribed and to loopback at delivery', () => {
    // Where the name points: a resolver of the test's own stands in for DNS.
    let answer = '93.184.216.34';
    const resolver = ((
      _hostname: string,
      options: { all?: boolean } | number,
      callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
    ) => {
      if (typeof options === 'object' && options.all) callback(null, [{ address: answer, family: 4 }]);
      else callback(null, answer, 4);
    }) as unknown as typeof dnsLookup;
    // A raw TCP port in place of the subscriber's TLS one: it counts the connections made to it
    // and every byte it receives (a TLS handshake's first included).
    const connections: Socket[] = [];
    let bytesReceived = 0;
    const listener = createServer((socket) => {
      connections.push(socket);
      socket.on('error', () => undefined);
      socket.on('data', (chunk: Buffer) => {
        bytesReceived += chunk.length;
      });
    });
    let url = '';

    beforeAll(async () => {
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
      url = `https://rebound.museum.test:${(listener.address() as AddressInfo).port}/hook`;
    });
    afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));
    beforeEach(() => {
      answer = '93.184.216.34';
      connections.length = 0;
      bytesReceived = 0;
      t.app.get(AddressPolicy).dnsLookup = resolver;
    });
    afterEach(() => {
      t.app.get(AddressPolicy).dnsLookup = dnsLookup;
    });

    async function refusalAtDelivery(): Promise<unknown> {
      const { webhookId } = await subscribe(t, url);
      answer = '127.0.0.1';
      await createEvent(t);
      let health: Record<string, unknown> | undefined;
      while (!health?.lastFailureReason) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        health = (await listWebhooks(t)).find((webhook) => webhook.webhookId === webhookId);
      }
      const metrics = await request(t.baseUrl).get('/metrics');
      expect(metrics.text).toMatch(/^webhook_deliveries_total\{outcome="refused"\} [1-9]/m);
      return health.lastFailureReason;
    }

    it('is refused after DNS, before any connection', async () => {
      expect(await refusalAtDelivery()).toMatch(
        /^rebound\.museum\.test resolves to 127\.0\.0\.1 is a loopback, private, link-local or otherwise internal address$/,
      );
      expect(connections).toEqual([]);
      expect(bytesReceived).toBe(0);
    });

    it('is refused on connect by the address actually connected to, whatever the lookup let through', async () => {
      // A lookup that checks nothing, as if a name had moved between the check and the connection.
      vi.spyOn(t.app.get(AddressPolicy), 'lookupFor').mockReturnValue(resolver);
      expect(await refusalAtDelivery()).toBe(
        '127.0.0.1 is a loopback, private, link-local or otherwise internal address',
      );
      // Connected, and refused before the TLS handshake began: not one byte reached the port,
      // once the sender has closed every connection it made.
      expect(connections.length).toBeGreaterThan(0);
      await vi.waitFor(() =>
        expect(connections.every((socket) => socket.readableEnded || socket.destroyed)).toBe(true),
      );
      expect(bytesReceived).toBe(0);
    });
  });

  it('/metrics: deliveries by outcome, the pending count and the oldest pending age', async () => {
    await subscribe(t, `${receiverUrl}/slow`);
    receiver.behaviour = () => ({ status: 500 });
    await createEvent(t);
    await receiver.waitFor(() => receiver.received.length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const metrics = (await request(t.baseUrl).get('/metrics')).text;
    expect(metrics).toMatch(/^webhook_deliveries_total\{outcome="delivered"\} \d+$/m);
    expect(metrics).toMatch(/^webhook_deliveries_total\{outcome="failed"\} [1-9]\d*$/m);
    expect(metrics).toMatch(/^webhook_pending_deliveries 1$/m);
    const age = Number(/^webhook_oldest_pending_delivery_age_seconds (\S+)$/m.exec(metrics)?.[1]);
    expect(age).toBeGreaterThanOrEqual(1);
    expect(age).toBeLessThan(30);
  });
});

describe('webhooks: a subscriber failing for the whole retry period is disabled, and enabling it delivers what was kept', () => {
  const receiver = new WebhookReceiver();
  let receiverUrl = '';
  const t = useTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_RETRY_SECONDS: '2' });
  beforeAll(async () => {
    receiverUrl = await receiver.start();
  });
  afterAll(() => receiver.stop());

  it('disables with the reason after WEBHOOK_RETRY_SECONDS, keeps the deliveries, and sends them in order once enabled', async () => {
    const { webhookId } = await subscribe(t, `${receiverUrl}/down`);
    receiver.behaviour = () => ({ status: 500 });
    const event = await createEvent(t);
    expectStatus(
      await request(t.baseUrl)
        .patch(`/special-events/${String(event.eventId)}`)
        .set('Authorization', AUTH)
        .send({ price: 3 }),
      200,
    );
    const deadline = Date.now() + 20_000;
    let [health] = await listWebhooks(t);
    while (health.enabled && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      [health] = await listWebhooks(t);
    }
    expect(health.enabled).toBe(false);
    expect(health.disabledReason).toMatch(/^Deliveries failed for \d+ s since .*; the last failure: HTTP 500$/);
    expect(health.pendingDeliveries).toBe(2);
    // Only the create was ever tried: the update waits behind it.
    expect(new Set(receiver.received.map(({ headers }) => headers['museum-event-type']))).toEqual(
      new Set(['special-event.created']),
    );
    const tried = receiver.received.length;
    await t.app.get(WebhookDispatcher).quiet();
    expect(receiver.received).toHaveLength(tried);

    receiver.behaviour = () => ({ status: 200 });
    const enabled = await request(t.baseUrl).post(`/webhooks/${webhookId}/enable`).set('Authorization', AUTH);
    expectStatus(enabled, 200);
    expect(enabled.body).toMatchObject({ webhookId, enabled: true, disabledReason: null, pendingDeliveries: 2 });
    await receiver.waitFor(() => receiver.acknowledged().length >= 2);
    expect(receiver.acknowledged().map(({ headers }) => headers['museum-event-type'])).toEqual([
      'special-event.created',
      'special-event.updated',
    ]);
  }, 40_000);
});
