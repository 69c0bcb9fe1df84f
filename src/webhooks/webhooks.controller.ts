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
import { CreateWebhookDto } from './dto/create-webhook.dto.js';
import { WebhookIdParams } from './dto/webhook-id-params.dto.js';
import { CreatedWebhookResponse, WebhookResponse } from './dto/webhook-response.dto.js';
import { WebhooksService } from './webhooks.service.js';

@ApiTags('Webhooks')
@Controller('webhooks')
@RequiresRole('admin')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createWebhook',
    summary: 'Subscribe a URL to publishNewEvent',
    description:
      'Every create, update and delete of a special event is then POSTed to `url`, signed as Standard Webhooks ' +
      'specify (`webhook-id`, `webhook-timestamp`, `webhook-signature`), with the event exactly as GET returns it ' +
      '(`{"eventId"}` for a delete) and a `museum-event-type` header saying which. Any 2xx acknowledges a delivery; ' +
      'others are retried with backoff, in order per event, for WEBHOOK_RETRY_SECONDS (24 h), then the subscription ' +
      'is disabled. The answer holds the signing secret, shown only here.',
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
    },
  })
  @ApiProblemResponses(
    400,
    401,
    {
      status: 422,
      description:
        'The URL breaks the address rules: plain http to a host not in WEBHOOK_ALLOWED_HOSTS, a loopback, private, ' +
        'link-local or metadata address, or a name that resolves to one (or does not resolve).',
      detail:
        'This webhook URL is not allowed: localhost resolves to 127.0.0.1 is a loopback, private, link-local or otherwise internal address.',
    },
    413,
    415,
    429,
    503,
  )
  async create(
    @Body() body: CreateWebhookDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<CreatedWebhookResponse> {
    const created = await this.webhooks.create(body.url, body.description);
    response.setHeader('Location', `/webhooks/${created.webhookId}`);
    return created;
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
