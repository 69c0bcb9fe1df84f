import { WindowCounts } from './public-read-limit.js';

describe('WindowCounts', () => {
  it('blocks past the limit until the window ends, saying how many seconds are left', async () => {
    let now = 1_000_000;
    const counts = new WindowCounts({ now: () => now });
    for (let hit = 1; hit <= 3; hit++) {
      expect(await counts.increment('a', 60_000, 3)).toEqual({
        totalHits: hit,
        timeToExpire: 60,
        isBlocked: false,
        timeToBlockExpire: 0,
      });
    }
    now += 20_500;
    expect(await counts.increment('a', 60_000, 3)).toMatchObject({ isBlocked: true, timeToBlockExpire: 40 });
    // Another key has its own window.
    expect(await counts.increment('b', 60_000, 3)).toMatchObject({ totalHits: 1, isBlocked: false });
    now += 39_500;
    expect(await counts.increment('a', 60_000, 3)).toMatchObject({ totalHits: 1, isBlocked: false });
  });

  it('keeps at most maxEntries keys, forgetting the oldest window first', async () => {
    const counts = new WindowCounts({ maxEntries: 2, now: () => 0 });
    await counts.increment('a', 60_000, 1);
    await counts.increment('a', 60_000, 1);
    expect(await counts.increment('a', 60_000, 1)).toMatchObject({ isBlocked: true });
    await counts.increment('b', 60_000, 1);
    await counts.increment('c', 60_000, 1);
    expect(await counts.increment('a', 60_000, 1)).toMatchObject({ totalHits: 1, isBlocked: false });
  });
});
