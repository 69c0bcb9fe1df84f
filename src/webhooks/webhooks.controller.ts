import { Body, Controller, Delete, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { RequiresRole } from '../auth/roles.js';
import { ApiProblemResponses } from '../common/problem/api-problem-responses.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { CreateWebhookDto } from './dto/create-webhook.dto.js';
import { WebhookIdParams } from './dto/webhook-id-params.dto.js';
import { CreatedWebhookResponse, WebhookResponse } from './dto/webhook-response.dto.js';
import { WEBHOOK_PROBLEMS } from './webhooks.problems.js';
import { WebhooksService } from './webhooks.service.js';

@ApiTags('Webhooks')
@Controller('webhooks')
@RequiresRole('admin')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @HttpCode(201)
  // Above @Idempotent(), so that they replace its 409 and 422 (decorators apply bottom-up) with this
  // operation's words, which name both causes of each.
  @ApiProblemResponses(
    {
      status: 409,
      description:
        'WEBHOOK_SUBSCRIPTIONS_MAX subscriptions exist already (`urn:museum:problem:webhook-subscriptions-full`): ' +
        'delete one first. Or a request with the same Idempotency-Key is still being processed: retry shortly.',
      detail: 'There are already 100 webhook subscriptions, the most this service keeps; delete one first.',
    },
    {
      status: 422,
      description:
        'The URL breaks the address rules (`urn:museum:problem:webhook-url-refused`): plain http to a host not in ' +
        'WEBHOOK_ALLOWED_HOSTS, an address that is not global unicast (loopback, private, link-local or metadata, ' +
        'or an IPv6 form that carries an IPv4 address), or a name that resolves to one (or does not resolve). Or ' +
        'this Idempotency-Key was already used by this user for a different request.',
      detail:
        'This webhook URL is not allowed: localhost resolves to 127.0.0.1 is a loopback, private, link-local or otherwise internal address.',
    },
  )
  @Idempotent()
  @ApiOperation({
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
  })
  @ApiConsumes('application/json')
  @ApiBody({ type: CreateWebhookDto })
  @ApiCreatedResponse({
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
  })
  @ApiProblemResponses(400, 401, 413, 415, 429, 503)
  async create(
    @Body() body: CreateWebhookDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<CreatedWebhookResponse> {
    const outcome = await this.webhooks.create(body.url, body.description);
    switch (outcome.kind) {
      case 'url-refused':
        throw WEBHOOK_PROBLEMS.problem('url-refused', { reason: outcome.reason });
      case 'limit-reached':
        throw WEBHOOK_PROBLEMS.problem('limit-reached', { max: outcome.max });
      case 'created':
        response.setHeader('Location', `/webhooks/${outcome.subscription.webhookId}`);
        return outcome.subscription;
    }
  }

  @Get()
  @ApiOperation({
    operationId: 'listWebhooks',
    summary: 'List webhook subscriptions with their delivery health',
    description: 'Oldest first. Secrets are never listed.',
  })
  @ApiOkResponse({ description: 'The subscriptions.', type: WebhookResponse, isArray: true })
  @ApiProblemResponses(401, 429, 503)
  list(): Promise<WebhookResponse[]> {
    return this.webhooks.list();
  }

  @Delete(':webhookId')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteWebhook',
    summary: 'Remove a webhook subscription',
    description: 'Its pending deliveries are dropped with it; a delivery already being sent may still arrive.',
  })
  @ApiNoContentResponse({ description: 'Removed; no body.' })
  @ApiProblemResponses(400, 401, 404, 429, 503)
  async delete(@Param() { webhookId }: WebhookIdParams): Promise<void> {
    await this.webhooks.delete(webhookId);
  }

  @Post(':webhookId/enable')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'enableWebhook',
    summary: 'Resume deliveries to a disabled subscription',
    description:
      'Its pending deliveries (kept while it was disabled) are due at once, in order, with a fresh retry period. ' +
      'Enabling an enabled subscription changes nothing.',
  })
  @ApiOkResponse({ description: 'The subscription, enabled.', type: WebhookResponse })
  @ApiProblemResponses(400, 401, 404, 429, 503)
  enable(@Param() { webhookId }: WebhookIdParams): Promise<WebhookResponse> {
    return this.webhooks.enable(webhookId);
  }
}
