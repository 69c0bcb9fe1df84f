import { HashGate, HashGateBusyError } from './hash-gate.js';

/** A task that runs until `finish()` is called, recording the order tasks started in. */
function task(started: string[], name: string): { run: () => Promise<string>; finish: () => void } {
  let finish = (): void => undefined;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    run: async () => {
      started.push(name);
      await done;
      return name;
    },
    finish: () => finish(),
  };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('HashGate', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs at most `concurrency` tasks at once and returns each result', async () => {
    const gate = new HashGate({ concurrency: 2, maxWaitMs: 60_000 });
    const started: string[] = [];
    const tasks = ['a', 'b', 'c', 'd'].map((name) => task(started, name));
    const results = tasks.map((t) => gate.run('192.0.2.1', t.run));
    await tick();
    expect(started).toEqual(['a', 'b']);
    expect(gate.active).toBe(2);
    tasks[0].finish();
    await tick();
    expect(started).toEqual(['a', 'b', 'c']);
    expect(gate.active).toBe(2);
    for (const t of tasks) t.finish();
    await expect(Promise.all(results)).resolves.toEqual(['a', 'b', 'c', 'd']);
    expect(gate.active).toBe(0);
  });

  it('frees the slot of a task that fails', async () => {
    const gate = new HashGate({ concurrency: 1, maxWaitMs: 60_000 });
    await expect(gate.run('192.0.2.1', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(gate.run('192.0.2.1', () => Promise.resolve('next'))).resolves.toBe('next');
    expect(gate.active).toBe(0);
  });

  it('serves waiting addresses in turn: many waiting from one address do not keep another out', async () => {
    const gate = new HashGate({ concurrency: 1, maxWaitMs: 60_000 });
    const started: string[] = [];
    const first = task(started, 'flood-0');
    const flood = Array.from({ length: 5 }, (_, i) => task(started, `flood-${i + 1}`));
    const other = task(started, 'other');
    const runs = [first, ...flood].map((t) => gate.run('192.0.2.1', t.run));
    runs.push(gate.run('192.0.2.2', other.run));
    await tick();
    first.finish();
    await tick();
    flood[0].finish();
    await tick();
    // flood-1 took the freed slot (first in line); then it was 192.0.2.2's turn.
    expect(started).toEqual(['flood-0', 'flood-1', 'other']);
    other.finish();
    for (const t of flood) t.finish();
    await Promise.all(runs);
    expect(started).toEqual(['flood-0', 'flood-1', 'other', 'flood-2', 'flood-3', 'flood-4', 'flood-5']);
  });

  it('a task that cannot start within maxWaitMs fails with HashGateBusyError and never runs', async () => {
    vi.useFakeTimers();
    const gate = new HashGate({ concurrency: 1, maxWaitMs: 1_000 });
    const started: string[] = [];
    const running = task(started, 'running');
    const first = gate.run('192.0.2.1', running.run);
    const late = gate.run('192.0.2.2', task(started, 'late').run);
    const outcome = late.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await outcome).toBeInstanceOf(HashGateBusyError);
    running.finish();
    await first;
    expect(started).toEqual(['running']);
    expect(gate.active).toBe(0);
    await expect(gate.run('192.0.2.2', () => Promise.resolve('free again'))).resolves.toBe('free again');
  });
});
