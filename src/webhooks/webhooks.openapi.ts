import { applyDecorators } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { ApiProblemResponses } from '../common/problem/api-problem-responses.js';
import { CreateWebhookDto } from './dto/create-webhook.dto.js';
import { CreatedWebhookResponse, WebhookResponse } from './dto/webhook-response.dto.js';
import { WEBHOOK_PROBLEMS } from './webhooks.problems.js';

/** The webhooks operations as the OpenAPI document describes them; the controller holds the routes. */

export const ApiCreateWebhook = (): MethodDecorator =>
  applyDecorators(
    ApiProblemResponses(
      WEBHOOK_PROBLEMS.response(
        ['limit-reached'],
        'Or a request with the same Idempotency-Key is still being processed: retry shortly.',
      ),
      WEBHOOK_PROBLEMS.response(
        ['url-refused'],
        'Or this Idempotency-Key was already used by this user for a different request.',
      ),
    ),
    ApiOperation({
      operationId: 'createWebhook',
      summary: 'Subscribe a URL to publishNewEvent',
      description:
        'Every create, update and delete of a special event is then POSTed to `url`, signed as Standard Webhooks ' +
        'specify (`webhook-id`, `webhook-timestamp`, `webhook-signature`), with the event exactly as GET returns it ' +
        '(`{"eventId"}` for a delete) and a `museum-event-type` header saying which. Any 2xx acknowledges a delivery; ' +
        'others are retried with backoff, in order per event, for WEBHOOK_RETRY_SECONDS (24 h), then the subscription ' +
        'is disabled. The answer holds the signing secret, shown only here, and is never stored by caches. At most ' +
        'WEBHOOK_SUBSCRIPTIONS_MAX (100) subscriptions exist at once. A retry with the same Idempotency-Key gets the ' +
        'same subscription (and secret) again rather than a second one.',
    }),
    ApiConsumes('application/json'),
    ApiBody({ type: CreateWebhookDto }),
    ApiCreatedResponse({
      description: 'Subscribed; the body holds the secret, which is never shown again.',
      type: CreatedWebhookResponse,
      headers: {
        Location: {
          description: 'Path of the subscription: /webhooks/{webhookId}',
          required: true,
          schema: { type: 'string' },
        },
        'Cache-Control': {
          description: 'Always `no-store`: the body holds the secret.',
          required: true,
          schema: { type: 'string' },
        },
      },
    }),
    ApiProblemResponses(400, 401, 413, 415, 429, 503),
  );

export const ApiListWebhooks = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'listWebhooks',
      summary: 'List webhook subscriptions with their delivery health',
      description: 'Oldest first. Secrets are never listed.',
    }),
    ApiOkResponse({ description: 'The subscriptions.', type: WebhookResponse, isArray: true }),
    ApiProblemResponses(401, 429, 503),
  );

export const ApiDeleteWebhook = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'deleteWebhook',
      summary: 'Remove a webhook subscription',
      description: 'Its pending deliveries are dropped with it; a delivery already being sent may still arrive.',
    }),
    ApiNoContentResponse({ description: 'Removed; no body.' }),
    ApiProblemResponses(400, 401, WEBHOOK_PROBLEMS.response(['not-found']), 429, 503),
  );

export const ApiEnableWebhook = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'enableWebhook',
      summary: 'Resume deliveries to a disabled subscription',
      description:
        'Its pending deliveries (kept while it was disabled) are due at once, in order, with a fresh retry period. ' +
        'Enabling an enabled subscription changes nothing.',
    }),
    ApiOkResponse({ description: 'The subscription, enabled.', type: WebhookResponse }),
    ApiProblemResponses(400, 401, WEBHOOK_PROBLEMS.response(['not-found']), 429, 503),
  );

const header = (description: string) => ({ required: true, description, schema: { type: 'string' } });

/**
 * The Museum API's `publishNewEvent` webhook, as this service sends it, for the document's
 * `x-webhooks` (the controller brings it): OpenAPI 3.0 has no `webhooks` section (3.1 does), so it
 * is the extension that Redocly renders.
 */
export const X_WEBHOOKS = {
  publishNewEvent: {
    post: {
      operationId: 'publishNewEvent',
      summary: 'New special event added',
      description:
        'Publish details of a new or updated event: POSTed to every enabled subscriber (POST /webhooks) after each ' +
        'create and update, with the event exactly as GET returns it; after a delete, `{"eventId"}`. Signed as ' +
        'Standard Webhooks specify; retried with the same webhook-id until a 2xx, in order per event.',
      tags: ['Webhooks'],
      parameters: [
        {
          name: 'webhook-id',
          in: 'header',
          ...header('The message id (`msg_…`): the same on every retry; deduplicate on it.'),
        },
        {
          name: 'webhook-timestamp',
          in: 'header',
          ...header('Seconds since the epoch when this attempt was signed.'),
        },
        {
          name: 'webhook-signature',
          in: 'header',
          ...header('`v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`, keyed with the secret (after `whsec_`).'),
        },
        {
          name: 'museum-event-type',
          in: 'header',
          required: true,
          description: 'What happened to the event.',
          schema: {
            type: 'string',
            enum: ['special-event.created', 'special-event.updated', 'special-event.deleted'],
          },
        },
      ],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              anyOf: [
                { $ref: '#/components/schemas/SpecialEventResponse' },
                {
                  type: 'object',
                  required: ['eventId'],
                  properties: { eventId: { type: 'string', format: 'uuid' } },
                  description: 'After a delete.',
                },
              ],
            },
          },
        },
      },
      responses: {
        '202': { description: 'Data accepted (any 2xx acknowledges the delivery; anything else is retried).' },
      },
    },
  },
};
