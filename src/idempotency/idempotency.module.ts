import { Module } from '@nestjs/common';
import { IdempotencyGuard } from './idempotency.guard.js';
import { IdempotencyRepository } from './idempotency.repository.js';
import { IdempotencyStore } from './idempotency.store.js';
import { ResetRegistry } from '../database/reset-registry.js';

/** Idempotency-Key support; a module whose controllers use @Idempotent() imports this. */
@Module({
  providers: [IdempotencyRepository, IdempotencyStore, IdempotencyGuard],
  exports: [IdempotencyStore, IdempotencyGuard],
})
export class IdempotencyModule {
  constructor(reset: ResetRegistry) {
    reset.empties('idempotency', ['idempotency_keys']);
  }
}
