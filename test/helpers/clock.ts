import { vi } from 'vitest';

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
