import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningService, startService, useBuiltService } from '../helpers/built-service.js';
import { validEvent } from '../helpers/problem-assertions.js';
import { basicHeader } from '../helpers/test-app.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';
import { outboxQuiet } from './api.js';

const USER = 'outbox';
const PASSWORD = 'outbox-password-1234';
const AUTH = basicHeader(USER, PASSWORD);

/**
 * Two instances of the built service on one MariaDB database (MySQL only): both dispatchers poll
 * the same outbox, and the lease in the database lets only one of them send a delivery at a time.
 * The receiver is slow, so that a double claim would show as two requests with the same
 * webhook-id at once; with every answer a 2xx, each webhook-id arrives exactly once.
 */
describe('webhooks: two instances on one MariaDB database', () => {
  const built = useBuiltService('mysql', { sharedAcrossTests: true });
  const receiver = new WebhookReceiver();
  let receiverUrl = '';
  const services: RunningService[] = [];
  beforeAll(async () => {
    receiverUrl = await receiver.start();
  });
  afterAll(async () => {
    await Promise.all(services.map((service) => service.stop()));
    await receiver.stop();
  });

  it('sends no delivery twice at the same time, and each exactly once, in order per event', async () => {
    receiver.behaviour = () => ({ status: 202, delayMs: 150 });
    const env = {
      DATABASE_URL: built.database.url,
      DB_MIGRATIONS_RUN: 'true',
      ADMIN_USERNAME: USER,
      ADMIN_PASSWORD: PASSWORD,
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    };
    services.push(await startService(built.entry, env, 60_000));
    services.push(await startService(built.entry, env, 60_000));
    for (const path of ['/a', '/b']) {
      const res = await request(services[0].baseUrl)
        .post('/webhooks')
        .set('Authorization', AUTH)
        .send({ url: `${receiverUrl}${path}` });
      expect(res.status).toBe(201);
    }

    const eventIds: string[] = [];
    await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const event = validEvent();
        const baseUrl = services[i % 2].baseUrl;
        expect((await request(baseUrl).post('/special-events').set('Authorization', AUTH).send(event)).status).toBe(
          201,
        );
        // The update goes through the other instance.
        const other = services[(i + 1) % 2].baseUrl;
        const patched = await request(other)
          .patch(`/special-events/${String(event.eventId)}`)
          .set('Authorization', AUTH)
          .send({ price: 1 });
        expect(patched.status).toBe(200);
        eventIds.push(String(event.eventId));
      }),
    );
    // 30 events x (create + update) x 2 subscribers.
    await receiver.waitFor(() => receiver.acknowledged().length >= 120, 90_000);
    // Nothing more to come: both instances found nothing left due, with nothing in flight.
    await outboxQuiet(services.map(({ baseUrl }) => baseUrl));

    expect(receiver.maxConcurrentPerId).toBe(1);
    const keys = receiver.acknowledged().map(({ path, headers }) => `${path} ${String(headers['webhook-id'])}`);
    expect(keys).toHaveLength(120);
    expect(new Set(keys).size).toBe(120);
    for (const path of ['/a', '/b']) {
      for (const eventId of eventIds) {
        const kinds = receiver
          .acknowledged()
          .filter(
            (delivery) =>
              delivery.path === path && (JSON.parse(delivery.body) as { eventId: string }).eventId === eventId,
          )
          .map(({ headers }) => headers['museum-event-type']);
        expect(kinds).toEqual(['special-event.created', 'special-event.updated']);
      }
    }
    // Both instances sent some: each one's counter counts its own deliveries.
    const delivered = await Promise.all(
      services.map(async (service) => {
        const metrics = (await request(service.baseUrl).get('/metrics')).text;
        return Number(/^webhook_deliveries_total\{outcome="delivered"\} (\d+)$/m.exec(metrics)?.[1]);
      }),
    );
    expect(delivered[0] + delivered[1]).toBe(120);
    expect(Math.min(...delivered)).toBeGreaterThan(0);
    process.stdout.write(`[webhooks two instances] delivered ${delivered.join(' + ')}\n`);
  }, 180_000);
});
