import { describe, expect, it } from 'vitest';
import { POOL_ACQUIRE_TIMEOUT } from './pool-acquire-timeout.js';
import { WriteSlots } from './write-slots.js';

describe('WriteSlots', () => {
  it('keeps a quarter of the pool (at least one connection) for reads, unless the pool has one', () => {
    expect([1, 2, 4, 10, 20].map((size) => WriteSlots.forPool(size))).toEqual([1, 1, 3, 8, 15]);
  });

  it('runs at most `size` writes at once; the next starts as one ends', async () => {
    const slots = new WriteSlots(2, 1000);
    let running = 0;
    let most = 0;
    const ends: (() => void)[] = [];
    const writes = Array.from({ length: 5 }, () =>
      slots.run(async () => {
        running++;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => ends.push(resolve));
        running--;
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(running).toBe(2);
    while (ends.length > 0) {
      ends.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(writes);
    expect(most).toBe(2);
  });

  it('refuses a write that waited the acquire timeout for a slot, coded as a pool timeout (503)', async () => {
    const slots = new WriteSlots(1, 50);
    let release: () => void = () => undefined;
    const holding = slots.run(() => new Promise<void>((resolve) => (release = resolve)));
    await expect(slots.run(() => Promise.resolve('ran'))).rejects.toMatchObject({ code: POOL_ACQUIRE_TIMEOUT });
    release();
    await holding;
    await expect(slots.run(() => Promise.resolve('ran'))).resolves.toBe('ran');
  });
});
