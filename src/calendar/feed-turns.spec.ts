import { FeedTurns, LoopShare } from './feed-turns.js';

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

describe('LoopShare', () => {
  it('gives the feeds built at once one share of each turn of the loop together, and each of them work in turn', async () => {
    let clock = 0;
    const share = new LoopShare(10, () => clock);
    // What each of four builders did in each turn of the loop, a step of work costing 3 ms.
    const turns: string[][] = [[]];
    let stop = false;
    const ticker = (async () => {
      while (!stop) {
        await tick();
        turns.push([]);
      }
    })();
    const builder = async (name: string, steps: number): Promise<void> => {
      for (let step = 0; step < steps; step++) {
        clock += 3;
        turns.at(-1)?.push(name);
        await share.pause();
      }
    };
    await Promise.all(['a', 'b', 'c', 'd'].map((name) => builder(name, 20)));
    stop = true;
    await ticker;
    const busy = turns.filter((turn) => turn.length > 0);
    // 10 ms a turn for all four: four steps of 3 ms pass the share, then each of the three others
    // already told to go on takes one more step. A share of 10 ms each would let 16 steps in a turn.
    expect(Math.max(...busy.map((turn) => turn.length))).toBe(7);
    expect(busy.flat()).toHaveLength(80);
    // Every builder finished, none left waiting for a turn that never came.
    expect(new Set(busy.flat())).toEqual(new Set(['a', 'b', 'c', 'd']));
  });
});
