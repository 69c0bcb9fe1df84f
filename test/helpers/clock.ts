import { beforeAll, vi } from 'vitest';
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

/**
 * The instant a test's museum clock is frozen at when it needs "today" and nothing in particular:
 * Wednesday 2031-03-05, 10:00 UTC (11:00 in Paris). Dates a test sells or lists are derived from
 * it (`suiteDate`), never from the machine's clock.
 */
export const SUITE_NOW = '2031-03-05T10:00:00Z';

/** The date `days` after SUITE_NOW's (`YYYY-MM-DD`, the same in every zone from UTC-10 to UTC+13). */
export function suiteDate(days: number): string {
  return new Date(Date.parse(SUITE_NOW) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Registered after useTestApp: freezes the app's museum clock at `instant` before its tests. */
export function useMuseumClock(t: TestApp, instant: string = SUITE_NOW): void {
  beforeAll(() => {
    setMuseumClock(t, instant);
  });
}
