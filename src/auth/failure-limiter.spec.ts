import { FailureLimiter } from './failure-limiter.js';

const WINDOW = 60_000;

function clock(start = 5_000_000): { now: () => number; advance: (ms: number) => void } {
  let time = start;
  return { now: () => time, advance: (ms) => (time += ms) };
}

function fail(limiter: FailureLimiter, address: string, times: number): void {
  for (let i = 0; i < times; i++) limiter.recordFailure(address);
}

describe('FailureLimiter', () => {
  it('does not block an address it never saw', () => {
    const limiter = new FailureLimiter({ limit: 3, windowMs: WINDOW, now: clock().now });
    expect(limiter.retryAfterSeconds('192.0.2.1')).toBe(0);
  });

  it('does not block below the limit', () => {
    const limiter = new FailureLimiter({ limit: 3, windowMs: WINDOW, now: clock().now });
    fail(limiter, '192.0.2.1', 2);
    expect(limiter.retryAfterSeconds('192.0.2.1')).toBe(0);
  });

  it('blocks on reaching the limit until the end of the window, rounding up to whole seconds', () => {
    const time = clock();
    const limiter = new FailureLimiter({ limit: 3, windowMs: WINDOW, now: time.now });
    limiter.recordFailure('192.0.2.1');
    time.advance(10_000);
    fail(limiter, '192.0.2.1', 2);
    // The window started with the first failure: 50 s left.
    expect(limiter.retryAfterSeconds('192.0.2.1')).toBe(50);
    time.advance(1_500);
    expect(limiter.retryAfterSeconds('192.0.2.1')).toBe(49); // 48.5 s left
    time.advance(48_499);
    expect(limiter.retryAfterSeconds('192.0.2.1')).toBe(1); // 1 ms left
  });

  it('keeps the window fixed: more failures do not extend it', () => {
    const time = clock();
    const limiter = new FailureLimiter({ limit: 2, windowMs: WINDOW, now: time.now });
    fail(limiter, '192.0.2.1', 2);
    time.advance(30_000);
    fail(limiter, '192.0.2.1', 5);
    expect(limiter.retryAfterSeconds('192.0.2.1')).toBe(30);
  });

  it('unblocks at the end of the window and starts counting from zero again', () => {
    const time = clock();
    const limiter = new FailureLimiter({ limit: 3, windowMs: WINDOW, now: time.now });
    fail(limiter, '192.0.2.1', 3);
    time.advance(WINDOW);
    expect(limiter.retryAfterSeconds('192.0.2.1')).toBe(0);
    fail(limiter, '192.0.2.1', 2);
    expect(limiter.retryAfterSeconds('192.0.2.1')).toBe(0);
    limiter.recordFailure('192.0.2.1');
    expect(limiter.retryAfterSeconds('192.0.2.1')).toBe(60);
  });

  it('resets the count when a failure arrives after the window, even without a check in between', () => {
    const time = clock();
    const limiter = new FailureLimiter({ limit: 3, windowMs: WINDOW, now: time.now });
    fail(limiter, '192.0.2.1', 2);
    time.advance(WINDOW);
    fail(limiter, '192.0.2.1', 2);
    expect(limiter.retryAfterSeconds('192.0.2.1')).toBe(0);
  });

  it('counts each address on its own', () => {
    const limiter = new FailureLimiter({ limit: 2, windowMs: WINDOW, now: clock().now });
    fail(limiter, '192.0.2.1', 2);
    limiter.recordFailure('192.0.2.2');
    expect(limiter.retryAfterSeconds('192.0.2.1')).toBe(60);
    expect(limiter.retryAfterSeconds('192.0.2.2')).toBe(0);
    expect(limiter.retryAfterSeconds('2001:db8::1')).toBe(0);
  });

  it('blocks from the first failure with limit 1', () => {
    const limiter = new FailureLimiter({ limit: 1, windowMs: WINDOW, now: clock().now });
    limiter.recordFailure('192.0.2.1');
    expect(limiter.retryAfterSeconds('192.0.2.1')).toBe(60);
  });

  it('tracks at most maxAddresses, forgetting the oldest window first', () => {
    const limiter = new FailureLimiter({ limit: 1, windowMs: WINDOW, maxAddresses: 2, now: clock().now });
    limiter.recordFailure('192.0.2.1');
    limiter.recordFailure('192.0.2.2');
    expect(limiter.retryAfterSeconds('192.0.2.1')).toBe(60);
    limiter.recordFailure('192.0.2.3');
    expect(limiter.retryAfterSeconds('192.0.2.1')).toBe(0);
    expect(limiter.retryAfterSeconds('192.0.2.2')).toBe(60);
    expect(limiter.retryAfterSeconds('192.0.2.3')).toBe(60);
  });

  it('does not forget anyone when a known address fails again at the bound', () => {
    const limiter = new FailureLimiter({ limit: 2, windowMs: WINDOW, maxAddresses: 2, now: clock().now });
    limiter.recordFailure('192.0.2.1');
    limiter.recordFailure('192.0.2.2');
    limiter.recordFailure('192.0.2.1');
    limiter.recordFailure('192.0.2.2');
    expect(limiter.retryAfterSeconds('192.0.2.1')).toBe(60);
    expect(limiter.retryAfterSeconds('192.0.2.2')).toBe(60);
  });
});
