import { describe, expect, it } from 'vitest';
import { MAX_RETRY_DELAY_MS, retryDelayMs } from './retry-delay.js';

describe('retryDelayMs', () => {
  it('starts at about a second and doubles, drawn between half and all of the step', () => {
    expect([1, 2, 3, 4].map((attempts) => retryDelayMs(attempts, () => 0))).toEqual([500, 1000, 2000, 4000]);
    expect([1, 2, 3, 4].map((attempts) => retryDelayMs(attempts, () => 1))).toEqual([1000, 2000, 4000, 8000]);
  });

  it('never waits longer than MAX_RETRY_DELAY_MS, however many attempts failed', () => {
    expect(retryDelayMs(40, () => 1)).toBe(MAX_RETRY_DELAY_MS);
    expect(retryDelayMs(10_000, () => 0.5)).toBeLessThanOrEqual(MAX_RETRY_DELAY_MS);
  });

  it('retries for 24 h take a few hundred attempts at most', () => {
    let elapsed = 0;
    let attempts = 0;
    while (elapsed < 86_400_000) elapsed += retryDelayMs(++attempts, () => 0);
    expect(attempts).toBeLessThan(600);
  });
});
