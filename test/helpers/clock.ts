import { vi } from 'vitest';

const realNow = Date.now.bind(Date);

/**
 * Moves this process's `Date.now()` forward by `ms` from now on (the app under test runs in this
 * process and reads its clocks through Date.now), so that a test of a time bound waits for no
 * wall clock. Calling it again moves further; `vi.restoreAllMocks()` (after each test of
 * useTestApp) puts the real clock back.
 */
export function advanceClock(ms: number): void {
  const offset = Date.now() - realNow() + ms;
  vi.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
}
