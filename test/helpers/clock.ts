import { vi } from 'vitest';
import { MuseumClock } from '../../src/domain/museum-clock.js';
import type { TestApp } from './test-app.js';

export interface FrozenClock {
  /** Moves the frozen time forward. */
  advance(ms: number): void;
}

/**
 * Stops this process's `Date.now()` where it is (the app under test runs in this process and
 * reads its clocks through Date.now), so that a test of a time bound neither waits for the wall
 * clock nor depends on how fast the machine is: time moves only by `advance`. Timers still run.
 * `vi.restoreAllMocks()` (after each test of useTestApp) puts the real clock back.
 */
export function freezeClock(): FrozenClock {
  let now = Date.now();
  vi.spyOn(Date, 'now').mockImplementation(() => now);
  return {
    advance(ms) {
      now += ms;
    },
  };
}

/**
 * Sets the museum's clock of the app under test (MuseumClock, what "today" is for hours, sales,
 * check-in, the feed and public reads) to `instant`, an ISO 8601 instant with its offset: frozen
 * there by default, or running on from it. Real elapsed time (rate limits, TTLs) is untouched.
 */
export function setMuseumClock(t: TestApp, instant: string, frozen = true): void {
  const ms = Date.parse(instant);
  if (Number.isNaN(ms)) throw new Error(`setMuseumClock: not an instant: ${instant}`);
  t.app.get(MuseumClock).set(ms, frozen);
}
