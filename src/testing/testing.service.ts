import { Injectable } from '@nestjs/common';
import { MuseumClock } from '../domain/museum-clock.js';
import { ResetRegistry } from '../database/reset-registry.js';
import { CLOCK_MAX, ClockSync } from './clock-sync.js';
import { TestingRepository } from './testing.repository.js';

/** What the clock routes answer. */
export interface ClockView {
  readonly now: string;
  readonly frozen: boolean;
  readonly museumDate: string;
  readonly timeZone: string;
}

/** The outcome of an advance: the clock as moved, or past the last instant it may show. */
export type AdvanceOutcome = { readonly kind: 'moved'; readonly clock: ClockView } | { readonly kind: 'too-far' };

/** Test mode: the shared museum clock, and the reset of every feature's data. */
@Injectable()
export class TestingService {
  constructor(
    private readonly clock: MuseumClock,
    private readonly sync: ClockSync,
    private readonly repository: TestingRepository,
    private readonly registry: ResetRegistry,
  ) {}

  view(): ClockView {
    const now = this.clock.now();
    return {
      now: new Date(now).toISOString(),
      frozen: this.clock.frozen,
      museumDate: this.clock.dateOf(now),
      timeZone: this.clock.timeZone,
    };
  }

  async set(now: number, frozen: boolean): Promise<ClockView> {
    await this.sync.store({ now, frozen, setAt: Date.now() });
    return this.view();
  }

  /** Forward from the stored setting (another instance's latest change included). */
  async advance(seconds: number): Promise<AdvanceOutcome> {
    await this.sync.refresh();
    const now = this.clock.now() + seconds * 1000;
    if (now > CLOCK_MAX) return { kind: 'too-far' };
    await this.sync.store({ now, frozen: this.clock.frozen, setAt: Date.now() });
    return { kind: 'moved', clock: this.view() };
  }

  async realTime(): Promise<void> {
    await this.sync.store(undefined);
  }

  /** Empties every table a module registered, in one transaction. */
  async reset(): Promise<void> {
    await this.repository.empty(this.registry.tablesToEmpty());
  }
}
