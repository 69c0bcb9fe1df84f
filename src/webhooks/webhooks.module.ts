import { Module, type OnModuleInit } from '@nestjs/common';
import { ProblemTranslators } from '../common/problem/problem-translators.js';
import { Registry } from 'prom-client';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { EventWriteParticipants } from '../special-events/event-write-participants.js';
import { SpecialEventsModule } from '../special-events/special-events.module.js';
import { AddressPolicy } from './address-policy.js';
import { WebhookDispatcher } from './webhook-dispatcher.js';
import { WebhookSender } from './webhook-sender.js';
import { WebhooksController } from './webhooks.controller.js';
import { WebhooksMetrics } from './webhooks.metrics.js';
import { enqueueAllStatement, enqueueStatement, WebhookOutbox, WebhookSubscriptions } from './webhooks.repository.js';
import { WebhooksService } from './webhooks.service.js';
import { WEBHOOK_PROBLEMS } from './webhooks.problems.js';
import { ResetRegistry } from '../database/reset-registry.js';

/**
 * `publishNewEvent` webhooks: admins subscribe URLs; every create, update and delete of a special
 * event writes one delivery per enabled subscriber into the outbox, inside the event's own
 * transaction (EventWriteParticipants), and the dispatcher sends them off the request path.
 * special-events knows nothing of this module.
 */
@Module({
  imports: [SpecialEventsModule, IdempotencyModule],
  controllers: [WebhooksController],
  providers: [
    WebhooksService,
    WebhookSubscriptions,
    WebhookOutbox,
    {
      provide: AddressPolicy,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new AddressPolicy(config.webhooks.allowedHosts),
    },
    {
      provide: WebhookSender,
      inject: [AddressPolicy],
      useFactory: (policy: AddressPolicy) => new WebhookSender(policy),
    },
    {
      provide: WebhooksMetrics,
      inject: [Registry, WebhookOutbox],
      useFactory: (registry: Registry, outbox: WebhookOutbox) => new WebhooksMetrics(registry, outbox),
    },
    {
      provide: WebhookDispatcher,
      inject: [WebhookOutbox, WebhookSender, APP_CONFIG, WebhooksMetrics],
      useFactory: (outbox: WebhookOutbox, sender: WebhookSender, config: AppConfig, metrics: WebhooksMetrics) =>
        new WebhookDispatcher(outbox, sender, config.webhooks, metrics),
    },
  ],
})
export class WebhooksModule implements OnModuleInit {
  constructor(
    private readonly participants: EventWriteParticipants,
    private readonly dispatcher: WebhookDispatcher,
    problems: ProblemTranslators,
    reset: ResetRegistry,
  ) {
    reset.empties('webhooks', ['webhook_subscriptions', 'webhook_deliveries']);
    problems.add(WEBHOOK_PROBLEMS.translate);
  }

  onModuleInit(): void {
    this.participants.join({
      statementsFor: (change) => {
        this.dispatcher.nudge();
        return [enqueueStatement(change)];
      },
      statementsForAll: (changes) => {
        this.dispatcher.nudge();
        return [enqueueAllStatement(changes)];
      },
    });
  }
}
