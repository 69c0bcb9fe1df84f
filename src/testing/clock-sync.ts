import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { MuseumClock, type MuseumClockSetting } from '../domain/museum-clock.js';
import { TestingRepository } from './testing.repository.js';

/** How often each instance in test mode reads the shared clock: a change is in force everywhere within about this. */
export const CLOCK_POLL_MS = 250;

/** The instants the museum clock may be set to: far enough from the edges of 4-digit years. */
export const CLOCK_MIN = Date.parse('2000-01-01T00:00:00Z');
export const CLOCK_MAX = Date.parse('8999-12-31T23:59:59.999Z');

/**
 * Keeps this instance's MuseumClock on the setting stored in `museum_clock`, so that instances on
 * one database agree on the museum's time within a poll of a change (only in test mode: this
 * module is not loaded otherwise, and the clock then never reads the database). A change made
 * here is applied at once; a poll that began before it is dropped, so it cannot undo it.
 */
@Injectable()
export class ClockSync implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ClockSync.name);
  private timer: NodeJS.Timeout | undefined;
  private reading = false;
  private failing = false;
  /** Bumped by every change made here: a read begun before one is stale. */
  private changes = 0;

  constructor(
    private readonly clock: MuseumClock,
    private readonly repository: TestingRepository,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.poll();
    this.timer = setInterval(() => void this.poll(), CLOCK_POLL_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** The setting as stored now (a change elsewhere included), applied here too. */
  async refresh(): Promise<MuseumClockSetting | undefined> {
    this.changes++;
    return this.clock.apply(await this.repository.clock());
  }

  /** Stores a setting (undefined: the real clock) for every instance, and applies it here. */
  async store(setting: MuseumClockSetting | undefined): Promise<void> {
    this.changes++;
    await this.repository.storeClock(setting);
    this.changes++;
    this.clock.apply(setting);
  }

  private async poll(): Promise<void> {
    if (this.reading) return;
    this.reading = true;
    const changes = this.changes;
    try {
      const setting = await this.repository.clock();
      if (changes === this.changes) this.clock.apply(setting);
      if (this.failing) this.logger.log({ msg: 'Museum clock read again' });
      this.failing = false;
    } catch (error) {
      if (!this.failing) {
        this.logger.warn({
          msg: 'Museum clock not read: a change made by another instance waits',
          error: error instanceof Error ? error.message : String(error),
        });
      }
      this.failing = true;
    } finally {
      this.reading = false;
    }
  }
}
