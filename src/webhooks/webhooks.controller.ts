import { Body, Controller, Delete, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { RequiresRole } from '../auth/roles.js';
import { CachePolicy } from '../common/http/cache-policy.js';
import { ApiDocumentExtension } from '../common/http/document-extension.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { CreateWebhookDto } from './dto/create-webhook.dto.js';
import { WebhookIdParams } from './dto/webhook-id-params.dto.js';
import { CreatedWebhookResponse, WebhookResponse } from './dto/webhook-response.dto.js';
import { WEBHOOK_PROBLEMS } from './webhooks.problems.js';
import { toCreatedResponse, toResponse } from './webhooks.responses.js';
import { WebhooksService } from './webhooks.service.js';
import {
  ApiCreateWebhook,
  ApiDeleteWebhook,
  ApiEnableWebhook,
  ApiListWebhooks,
  X_WEBHOOKS,
} from './webhooks.openapi.js';

@ApiTags('Webhooks')
@ApiDocumentExtension('x-webhooks', X_WEBHOOKS)
@Controller('webhooks')
@RequiresRole('admin')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @HttpCode(201)
  // The answer holds the signing secret. The Basic guard sets the policy before any other guard
  // runs, so a replayed answer (Idempotency-Key), sent by the idempotency guard, carries it too.
  @CachePolicy('no-store')
  // Above @Idempotent(), so that they replace its 409 and 422 (decorators apply bottom-up) with this
  // operation's words, which name both causes of each.
  @ApiCreateWebhook()
  @Idempotent()
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
        return toCreatedResponse(outcome.subscription);
    }
  }

  @Get()
  @ApiListWebhooks()
  async list(): Promise<WebhookResponse[]> {
    return (await this.webhooks.list()).map(toResponse);
  }

  @Delete(':webhookId')
  @HttpCode(204)
  @ApiDeleteWebhook()
  async delete(@Param() { webhookId }: WebhookIdParams): Promise<void> {
    await this.webhooks.delete(webhookId);
  }

  @Post(':webhookId/enable')
  @HttpCode(200)
  @ApiEnableWebhook()
  async enable(@Param() { webhookId }: WebhookIdParams): Promise<WebhookResponse> {
    return toResponse(await this.webhooks.enable(webhookId));
  }
}
