import { FeedTurns } from './feed-turns.js';

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('FeedTurns', () => {
  it('lets `size` in at once, the others in arrival order as turns are released', async () => {
    const turns = new FeedTurns(2);
    const signal = new AbortController().signal;
    const order: string[] = [];
    const first = await turns.take(signal);
    const second = await turns.take(signal);
    const third = turns.take(signal).then((release) => (order.push('third'), release));
    const fourth = turns.take(signal).then((release) => (order.push('fourth'), release));
    await tick();
    expect(order).toEqual([]);
    first?.();
    first?.();
    await tick();
    expect(order).toEqual(['third']);
    second?.();
    await tick();
    expect(order).toEqual(['third', 'fourth']);
    (await third)?.();
    (await fourth)?.();
    // All given back: two more get in at once.
    expect(await turns.take(signal)).toBeDefined();
    expect(await turns.take(signal)).toBeDefined();
  });

  it('drops a waiter whose client went away, and passes its place on', async () => {
    const turns = new FeedTurns(1);
    const release = await turns.take(new AbortController().signal);
    const gone = new AbortController();
    const waiting = turns.take(gone.signal);
    const after = turns.take(new AbortController().signal);
    gone.abort();
    expect(await waiting).toBeUndefined();
    release?.();
    expect(await after).toBeDefined();
    const aborted = new AbortController();
    aborted.abort();
    expect(await new FeedTurns(1).take(aborted.signal)).toBeUndefined();
  });
});
