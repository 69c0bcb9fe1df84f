import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { ProblemTranslators } from '../common/problem/problem-translators.js';
import { ResetRegistry } from '../database/reset-registry.js';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { TicketsModule } from '../tickets/tickets.module.js';
import { OrdersController } from './orders.controller.js';
import { ORDERS_PROBLEMS } from './orders.problems.js';
import { OrdersRepository } from './orders.repository.js';
import { OrdersService } from './orders.service.js';

/**
 * Orders (issue 49): several tickets bought together, all or nothing, and cancelled together, in
 * a table of their own (`orders`). The tickets are sold and cancelled through what the tickets
 * module exports (TicketBatchService: one transaction for every line's places, the tickets and the
 * order's row), never its tables; tickets name their order (`order_id`), and nothing else knows
 * of orders.
 */
@Module({
  imports: [TicketsModule, AuthModule, IdempotencyModule],
  controllers: [OrdersController],
  providers: [OrdersService, OrdersRepository],
})
export class OrdersModule {
  constructor(problems: ProblemTranslators, reset: ResetRegistry) {
    reset.empties('orders', ['orders']);
    problems.add(ORDERS_PROBLEMS.translate);
  }
}
