import { freshText, reachableHeapBytes } from '../../test/helpers/retained-heap.js';
import { FailureLimiter, type FailureLimiterOptions } from './failure-limiter.js';

const WINDOW = 60_000;
const A = '192.0.2.1';
const B = '192.0.2.2';

function clock(start = 5_000_000): { now: () => number; advance: (ms: number) => void } {
  let time = start;
  return { now: () => time, advance: (ms) => (time += ms) };
}

function limiter(options: Partial<FailureLimiterOptions> & { now: () => number }): FailureLimiter {
  return new FailureLimiter({ limit: 3, addressLimit: 10, windowMs: WINDOW, ...options });
}

/** `times` attempts that each turned out wrong. */
function fail(target: FailureLimiter, address: string, username: string, times: number): void {
  for (let i = 0; i < times; i++) target.begin(address, username);
}

describe('FailureLimiter', () => {
  it('does not block a pair it never saw', () => {
    expect(limiter({ now: clock().now }).retryAfterSeconds(A, 'alice')).toBe(0);
  });

  it('blocks an address and user name on reaching the limit until the end of the window, rounding up', () => {
    const time = clock();
    const target = limiter({ now: time.now });
    target.begin(A, 'alice');
    time.advance(10_000);
    fail(target, A, 'alice', 1);
    expect(target.retryAfterSeconds(A, 'alice')).toBe(0);
    fail(target, A, 'alice', 1);
    // The window started with the first failure: 50 s left.
    expect(target.retryAfterSeconds(A, 'alice')).toBe(50);
    time.advance(1_500);
    expect(target.retryAfterSeconds(A, 'alice')).toBe(49); // 48.5 s left
    time.advance(48_499);
    expect(target.retryAfterSeconds(A, 'alice')).toBe(1); // 1 ms left
    time.advance(1);
    expect(target.retryAfterSeconds(A, 'alice')).toBe(0);
  });

  it('blocks only that user name at that address: other names there and that name elsewhere go on', () => {
    const target = limiter({ now: clock().now });
    fail(target, A, 'alice', 3);
    expect(target.retryAfterSeconds(A, 'alice')).toBe(60);
    expect(target.retryAfterSeconds(A, 'bob')).toBe(0);
    expect(target.retryAfterSeconds(B, 'alice')).toBe(0);
  });

  it('a withdrawn attempt (it was right, or could not be checked) does not count', () => {
    const target = limiter({ now: clock().now });
    for (let i = 0; i < 10; i++) {
      target.begin(A, 'alice');
      target.withdraw(A, 'alice');
    }
    fail(target, A, 'alice', 2);
    expect(target.retryAfterSeconds(A, 'alice')).toBe(0);
  });

  it('attempts in flight count at once: the limit-th begun attempt blocks the next before any ends', () => {
    const target = limiter({ now: clock().now });
    fail(target, A, 'alice', 3);
    expect(target.retryAfterSeconds(A, 'alice')).toBe(60);
    // One of them turns out right: the pair is below the limit again.
    target.withdraw(A, 'alice');
    expect(target.retryAfterSeconds(A, 'alice')).toBe(0);
  });

  it('keeps the window fixed: more failures do not extend it', () => {
    const time = clock();
    const target = limiter({ limit: 2, now: time.now });
    fail(target, A, 'alice', 2);
    time.advance(30_000);
    fail(target, A, 'alice', 5);
    expect(target.retryAfterSeconds(A, 'alice')).toBe(30);
  });

  it('starts counting from zero after the window, and a withdrawal from an ended window takes nothing', () => {
    const time = clock();
    const target = limiter({ now: time.now });
    fail(target, A, 'alice', 2);
    time.advance(WINDOW);
    target.withdraw(A, 'alice');
    fail(target, A, 'alice', 2);
    expect(target.retryAfterSeconds(A, 'alice')).toBe(0);
    target.begin(A, 'alice');
    expect(target.retryAfterSeconds(A, 'alice')).toBe(60);
  });

  it('caps an address across user names at addressLimit', () => {
    const target = limiter({ limit: 3, addressLimit: 5, now: clock().now });
    for (let i = 0; i < 5; i++) target.begin(A, `guess-${i}`);
    expect(target.retryAfterSeconds(A, 'someone-new')).toBe(60);
    expect(target.retryAfterSeconds(A, 'guess-0')).toBe(60);
    expect(target.retryAfterSeconds(B, 'someone-new')).toBe(0);
  });

  it('a user name that succeeded from the address within the window is exempt from the address cap, not from its own limit', () => {
    const time = clock();
    const target = limiter({ limit: 3, addressLimit: 5, now: time.now });
    target.succeeded(A, 'alice');
    for (let i = 0; i < 5; i++) target.begin(A, `guess-${i}`);
    expect(target.retryAfterSeconds(A, 'alice')).toBe(0);
    expect(target.retryAfterSeconds(A, 'bob')).toBe(60);
    fail(target, A, 'alice', 3);
    expect(target.retryAfterSeconds(A, 'alice')).toBe(60);
  });

  it('the exemption lapses a window after the last success', () => {
    const time = clock();
    const target = limiter({ limit: 3, addressLimit: 5, windowMs: WINDOW, now: time.now });
    target.succeeded(A, 'alice');
    time.advance(WINDOW - 1_000);
    for (let i = 0; i < 5; i++) target.begin(A, `guess-${i}`);
    expect(target.retryAfterSeconds(A, 'alice')).toBe(0);
    time.advance(1_000);
    expect(target.retryAfterSeconds(A, 'alice')).toBe(59);
  });

  it('tracks at most maxEntries counters, forgetting the oldest window first', () => {
    const target = limiter({ limit: 1, addressLimit: 100, maxEntries: 2, now: clock().now });
    target.begin(A, 'alice');
    target.begin(A, 'bob');
    expect(target.retryAfterSeconds(A, 'alice')).toBe(60);
    target.begin(A, 'carol');
    expect(target.retryAfterSeconds(A, 'alice')).toBe(0);
    expect(target.retryAfterSeconds(A, 'bob')).toBe(60);
    expect(target.retryAfterSeconds(A, 'carol')).toBe(60);
  });
});

describe('FailureLimiter.attemptsLeft', () => {
  it('counts down to 0 with failures, by name and by address, and is back to the limit after the window', () => {
    const time = clock();
    const target = limiter({ now: time.now, addressLimit: 4 });
    expect(target.attemptsLeft(A, 'alice')).toBe(3);
    fail(target, A, 'alice', 2);
    expect(target.attemptsLeft(A, 'alice')).toBe(1);
    fail(target, A, 'bob', 1);
    expect(target.attemptsLeft(A, 'alice')).toBe(1);
    expect(target.attemptsLeft(A, 'carol')).toBe(1); // the address has 1 of 4 left
    fail(target, A, 'alice', 1);
    expect(target.attemptsLeft(A, 'alice')).toBe(0);
    expect(target.retryAfterSeconds(A, 'alice')).toBeGreaterThan(0);
    expect(target.attemptsLeft(B, 'alice')).toBe(3);
    time.advance(WINDOW);
    expect(target.attemptsLeft(A, 'alice')).toBe(3);
  });
});

describe('FailureLimiter memory', () => {
  it('keeps fixed-size entries: long user names from many addresses pin none of their bytes', () => {
    const target = limiter({ limit: 5, addressLimit: 5, maxEntries: 4_000, now: clock().now });
    const before = reachableHeapBytes();
    // 4,000 addresses, each with its own 12,000-character name, as 4,000 requests parse them.
    for (let i = 0; i < 4_000; i++) {
      const address = `198.18.${i >> 8}.${i & 255}`;
      target.begin(address, freshText(12_000, i));
      target.succeeded(address, freshText(12_000, i));
    }
    const kept = reachableHeapBytes() - before;
    expect(target.entries).toBe(12_000);
    // The names alone are 48 MB; three small entries per address are well under 4 MB.
    expect(kept).toBeLessThan(4 * 2 ** 20);
  });

  it('forgets the oldest entries beyond maxEntries, whatever the addresses and names', () => {
    const target = limiter({ maxEntries: 100, now: clock().now });
    for (let i = 0; i < 1_000; i++) target.begin(`198.18.0.${i}`, freshText(100, i));
    expect(target.entries).toBeLessThanOrEqual(200);
  });
});
