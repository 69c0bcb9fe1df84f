import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningService, startService, useBuiltService } from '../helpers/built-service.js';
import { validEvent } from '../helpers/problem-assertions.js';
import { basicHeader } from '../helpers/test-app.js';
import { TEST_DATABASE } from '../helpers/test-database.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';
import { outboxQuiet } from './api.js';

const USER = 'outbox';
const PASSWORD = 'outbox-password-1234';
const AUTH = basicHeader(USER, PASSWORD);

/**
 * The outbox's promise (issue 29, item 3), on the built service and a real database: a create
 * that got its 201 is delivered even when the process is SIGKILLed right after, while the receiver
 * was refusing everything; the next start sends it. Nothing is delivered for an event that was
 * not stored.
 */
describe(`webhooks on ${TEST_DATABASE}: SIGKILL right after a 201, receiver refusing`, () => {
  const built = useBuiltService(TEST_DATABASE);
  const receiver = new WebhookReceiver();
  let receiverUrl = '';
  let service: RunningService | undefined;
  beforeAll(async () => {
    receiverUrl = await receiver.start();
  });
  afterAll(async () => {
    await service?.stop();
    await receiver.stop();
  });

  const env = () => ({
    DATABASE_URL: built.database.url,
    DB_MIGRATIONS_RUN: 'true',
    ADMIN_USERNAME: USER,
    ADMIN_PASSWORD: PASSWORD,
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  });

  it('delivers every acknowledged create after the restart, once each, and nothing else', async () => {
    receiver.behaviour = () => ({ status: 503 });
    service = await startService(built.entry, env(), 60_000);
    const subscribed = await request(service.baseUrl)
      .post('/webhooks')
      .set('Authorization', AUTH)
      .send({ url: `${receiverUrl}/outbox` });
    expect(subscribed.status).toBe(201);

    const acknowledged: string[] = [];
    const create = async (baseUrl: string): Promise<void> => {
      const event = validEvent();
      const res = await request(baseUrl).post('/special-events').set('Authorization', AUTH).send(event);
      if (res.status === 201) acknowledged.push(String(event.eventId));
    };
    const running = service;
    await Promise.all(Array.from({ length: 20 }, () => create(running.baseUrl)));
    expect(acknowledged).toHaveLength(20);
    // A last wave: the process is killed the moment its first 201 arrives, the rest in flight.
    let killed = false;
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        await create(running.baseUrl).catch(() => undefined);
        if (!killed) {
          killed = true;
          running.run.kill();
        }
      }),
    );
    const status = await running.run.waitForExit(15_000);
    expect(status.signal).toBe('SIGKILL');
    // Requests that reached the receiver before the kill are refused, even those it reads late:
    // once the killed process's connections have closed, all of them were read.
    await receiver.connectionsClosed();
    expect(receiver.acknowledged()).toEqual([]);

    receiver.behaviour = () => ({ status: 202 });
    service = await startService(built.entry, env(), 60_000);
    const wanted = new Set(acknowledged);
    const createdIds = () =>
      new Set(
        receiver
          .acknowledged()
          .filter(({ headers }) => headers['museum-event-type'] === 'special-event.created')
          .map(({ body }) => (JSON.parse(body) as { eventId: string }).eventId),
      );
    await receiver.waitFor(() => [...wanted].every((id) => createdIds().has(id)), 30_000, 'every acknowledged create');

    // Nothing announced that is not stored, and each message acknowledged once: checked once the
    // service found nothing more due, with nothing in flight.
    await outboxQuiet([service.baseUrl]);
    for (const eventId of createdIds()) {
      const res = await request(service.baseUrl).get(`/special-events/${eventId}`).set('Authorization', AUTH);
      expect(res.status).toBe(200);
    }
    const ids = receiver.acknowledged().map(({ headers }) => String(headers['webhook-id']));
    expect(new Set(ids).size).toBe(ids.length);
    process.stdout.write(
      `[webhooks kill ${TEST_DATABASE}] ${acknowledged.length} acknowledged creates, ${createdIds().size} delivered after the restart\n`,
    );
  }, 180_000);
});
