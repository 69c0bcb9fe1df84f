import { describe, expect, expectTypeOf, it } from 'vitest';
import type { CreatedWebhookSubscription, Problem, WebhookSubscription } from '../../client/index.js';
import { useTypedClient } from '../helpers/typed-client.js';

/** The typed client (client/index.ts) on webhook subscriptions. */

const { client } = useTypedClient();

describe('createMuseumClient: webhook subscriptions (admin)', () => {
  it('subscribes, lists, enables and removes, typed; a refused URL is a typed 422 problem', async () => {
    const { museum } = client;
    const created = await museum.POST('/webhooks', {
      body: { url: 'http://127.0.0.1:9/hook', description: 'CMS cache' },
    });
    expectTypeOf(created.data).toEqualTypeOf<CreatedWebhookSubscription | undefined>();
    expect(created.response.status).toBe(201);
    const webhookId = created.data?.webhookId ?? '';
    expect(created.data?.secret).toMatch(/^whsec_/);

    const listed = await museum.GET('/webhooks');
    expectTypeOf(listed.data).toEqualTypeOf<WebhookSubscription[] | undefined>();
    expect(listed.data?.map((webhook) => webhook.webhookId)).toContain(webhookId);

    const enabled = await museum.POST('/webhooks/{webhookId}/enable', { params: { path: { webhookId } } });
    expect(enabled.data).toMatchObject({ webhookId, enabled: true });

    const removed = await museum.DELETE('/webhooks/{webhookId}', { params: { path: { webhookId } } });
    expect(removed.response.status).toBe(204);

    const refused = await museum.POST('/webhooks', { body: { url: 'https://169.254.169.254/' } });
    expect(refused.response.status).toBe(422);
    expectTypeOf(refused.error).toEqualTypeOf<Problem | undefined>();
    expect(refused.error).toMatchObject({ status: 422, type: 'urn:museum:problem:webhook-url-refused' });
  });
});
