import { BufferPool } from './buffer-pool.js';

describe('BufferPool', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('hands back what it was given, keeps at most `most` of its size, and lets all go once idle', () => {
    vi.useFakeTimers();
    const pool = new BufferPool(8, 2, 1000);
    const [a, b, c] = [pool.take(), pool.take(), pool.take()];
    expect([a, b, c].map((buffer) => buffer.length)).toEqual([8, 8, 8]);
    pool.give([a, b, c, Buffer.alloc(16)]);
    expect(pool.kept).toBe(2);
    const again = [pool.take(), pool.take()];
    expect(again.every((buffer) => buffer === a || buffer === b)).toBe(true);
    expect(pool.take()).not.toBe(c);
    pool.give(again);
    vi.advanceTimersByTime(999);
    // A give restarts the idle time.
    pool.give([]);
    vi.advanceTimersByTime(999);
    expect(pool.kept).toBe(2);
    vi.advanceTimersByTime(1);
    expect(pool.kept).toBe(0);
  });
});
