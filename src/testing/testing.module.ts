import { Module } from '@nestjs/common';
import { ResetRegistry } from '../database/reset-registry.js';
import { ClockSync } from './clock-sync.js';
import { TestingController } from './testing.controller.js';
import { TestingRepository } from './testing.repository.js';
import { TestingService } from './testing.service.js';

/**
 * Test mode (TEST_MODE=true, docs/testing.md): the museum's clock shared through `museum_clock`
 * and the reset every feature module registers its tables for. src/features.ts loads this module
 * only in test mode, so without it no /testing/ route exists (404) or is documented.
 */
@Module({
  controllers: [TestingController],
  providers: [TestingService, TestingRepository, ClockSync],
})
export class TestingModule {
  constructor(reset: ResetRegistry) {
    // The clock is what a suite set: a reset of the data leaves it (DELETE /testing/clock ends it).
    reset.keeps('testing', ['museum_clock']);
  }
}
