import { type DataSource, QueryFailedError } from 'typeorm';
import { describe, expect, it } from 'vitest';
import {
  type AllOrNone,
  allOrNoneWrites,
  type BatchedWrite,
  type EachOrNone,
  eachOrNoneWrites,
  GUARDED_BATCHES_IN_FLIGHT,
  type GuardedBatchedWrite,
  type Together,
} from './batched-writes.js';
import { WriteDeadlineError } from './database-errors.js';
import { Sql } from './sql.js';
import { WriteHealth } from './write-health.js';

const DEADLINE_MS = 60_000;

/** A write of ids: together, one statement naming them all; alone, true unless the id is in `missing`. */
function idWrites(missing: ReadonlySet<string> = new Set()) {
  const alone: string[] = [];
  const write: BatchedWrite<string> = {
    alone: (id) => {
      alone.push(id);
      return Promise.resolve(!missing.has(id));
    },
    together: (ids) =>
      new Set(ids).size === ids.length ? { statements: [{ sql: 'WRITE IN', parameters: ids }] } : null,
  };
  return { write, alone };
}

/** An AllOrNone that records what it was given and answers `outcome` (a boolean, or an error to throw). */
function recordingAllOrNone(outcome: boolean | Error) {
  const runs: { ids: unknown[]; rows: number }[] = [];
  const run: AllOrNone = (together: Together, rows: number) => {
    runs.push({ ids: [...together.statements[0].parameters], rows });
    return outcome instanceof Error ? Promise.reject(outcome) : Promise.resolve(outcome);
  };
  return { run, runs };
}

describe('allOrNoneWrites (MySQL group commit)', () => {
  it('the items of one turn go out together, once, and each is answered by its commit', async () => {
    const { write, alone } = idWrites();
    const { run, runs } = recordingAllOrNone(true);
    const writes = allOrNoneWrites(write, run, DEADLINE_MS);
    await expect(Promise.all(['a', 'b', 'c'].map((id) => writes.add(id)))).resolves.toEqual([true, true, true]);
    expect(runs).toEqual([{ ids: ['a', 'b', 'c'], rows: 3 }]);
    expect(alone).toEqual([]);
  });

  it('items of different turns are different batches; a lone item goes alone', async () => {
    const { write, alone } = idWrites();
    const { run, runs } = recordingAllOrNone(true);
    const writes = allOrNoneWrites(write, run, DEADLINE_MS);
    await writes.add('a');
    await Promise.all(['b', 'c'].map((id) => writes.add(id)));
    expect(alone).toEqual(['a']);
    expect(runs).toEqual([{ ids: ['b', 'c'], rows: 2 }]);
  });

  it('together not committed (a row missing, refused, rolled back): each item alone, with its own answer', async () => {
    const { write, alone } = idWrites(new Set(['missing']));
    const { run, runs } = recordingAllOrNone(false);
    const writes = allOrNoneWrites(write, run, DEADLINE_MS);
    await expect(Promise.all(['a', 'missing', 'b'].map((id) => writes.add(id)))).resolves.toEqual([true, false, true]);
    expect(runs).toHaveLength(1);
    expect(alone).toEqual(['a', 'missing', 'b']);
  });

  it('items that cannot go together (one key twice): each alone, nothing together', async () => {
    const { write, alone } = idWrites();
    const { run, runs } = recordingAllOrNone(true);
    const writes = allOrNoneWrites(write, run, DEADLINE_MS);
    await Promise.all(['a', 'a'].map((id) => writes.add(id)));
    expect(runs).toEqual([]);
    expect(alone).toEqual(['a', 'a']);
  });

  it('together of unknown fate: every item gets its error, none goes alone', async () => {
    const lost = Object.assign(new Error('Connection lost'), { code: 'PROTOCOL_CONNECTION_LOST' });
    const { write, alone } = idWrites();
    const { run } = recordingAllOrNone(lost);
    const writes = allOrNoneWrites(write, run, DEADLINE_MS);
    const outcomes = await Promise.allSettled(['a', 'b'].map((id) => writes.add(id)));
    expect(outcomes).toEqual([
      { status: 'rejected', reason: lost },
      { status: 'rejected', reason: lost },
    ]);
    expect(alone).toEqual([]);
  });
});

describe('Sql.batched', () => {
  it('on SQLite an item goes alone at once, into the group commit', async () => {
    const dataSource = { options: { type: 'better-sqlite3' } } as unknown as DataSource;
    const { write, alone } = idWrites();
    const batched = new Sql(dataSource, new WriteHealth()).batched(write);
    await expect(Promise.all(['a', 'b'].map((id) => batched(id)))).resolves.toEqual([true, true]);
    expect(alone).toEqual(['a', 'b']);
  });

  it('on MySQL a batch that fails for want of a database makes the service unready; one that commits makes it ready', async () => {
    let down = true;
    const unavailable = new QueryFailedError(
      'WRITE IN',
      [],
      Object.assign(new Error('Lock wait timeout exceeded'), { code: 'ER_LOCK_WAIT_TIMEOUT', sqlState: 'HY000' }),
    );
    const runner = {
      isTransactionActive: false,
      connect: () => Promise.resolve(runner),
      startTransaction: () => {
        runner.isTransactionActive = true;
        return Promise.resolve();
      },
      query: (_sql: string, parameters: unknown[] = []) =>
        down ? Promise.reject(unavailable) : Promise.resolve({ affected: parameters.length }),
      commitTransaction: () => {
        runner.isTransactionActive = false;
        return Promise.resolve();
      },
      rollbackTransaction: () => {
        runner.isTransactionActive = false;
        return Promise.resolve();
      },
      release: () => Promise.resolve(),
    };
    const dataSource = { options: { type: 'mysql' }, createQueryRunner: () => runner } as unknown as DataSource;
    const health = new WriteHealth();
    const { write, alone } = idWrites();
    const batched = new Sql(dataSource, health, { batchDeadlineMs: DEADLINE_MS }).batched(write);

    const outcomes = await Promise.allSettled(['a', 'b'].map((id) => batched(id)));
    expect(outcomes.map(({ status }) => status)).toEqual(['rejected', 'rejected']);
    expect(health.failingRecently()).toBe(true);
    expect(alone).toEqual([]);

    down = false;
    await expect(Promise.all(['c', 'd'].map((id) => batched(id)))).resolves.toEqual([true, true]);
    expect(health.failingRecently()).toBe(false);
  });
});

/** Guarded writes of ids: a guard passes unless its id is in `refused`; alone, the same answer. */
function guardedIdWrites(refused: ReadonlySet<string> = new Set()) {
  const alone: string[] = [];
  const thenOf: string[][] = [];
  const write: GuardedBatchedWrite<string> = {
    alone: (id) => {
      alone.push(id);
      return Promise.resolve(!refused.has(id));
    },
    guards: (ids) =>
      new Set(ids).size === ids.length ? ids.map((id) => ({ sql: 'UPDATE IF', parameters: [id] })) : null,
    follow: (passed) => {
      thenOf.push([...passed]);
      return [{ sql: 'ALSO', parameters: passed }];
    },
  };
  return { write, alone, thenOf };
}

/** An EachOrNone over `refused` ids (or that answers null, or throws), recording each run's guards and statements. */
function recordingEachOrNone(refused: ReadonlySet<string>, outcome: 'run' | null | Error = 'run') {
  const runs: { guards: unknown[]; followed: unknown[][] }[] = [];
  const run: EachOrNone = (guards, follow) => {
    if (outcome instanceof Error) return Promise.reject(outcome);
    if (outcome === null) return Promise.resolve(null);
    const passed = guards.map(({ parameters }) => !refused.has(parameters[0] as string));
    runs.push({
      guards: guards.map(({ parameters }) => parameters[0]),
      followed: follow(passed).map((s) => [...s.parameters]),
    });
    return Promise.resolve(passed);
  };
  return { run, runs };
}

describe('eachOrNoneWrites (MySQL: guarded writes of one turn in one transaction)', () => {
  it('each item is answered by its own guard; what follows is written for those that passed only', async () => {
    const refused = new Set(['stale']);
    const { write, alone, thenOf } = guardedIdWrites(refused);
    const { run, runs } = recordingEachOrNone(refused);
    const writes = eachOrNoneWrites(write, run, DEADLINE_MS);
    await expect(Promise.all(['a', 'stale', 'b'].map((id) => writes.add(id)))).resolves.toEqual([true, false, true]);
    expect(runs).toEqual([{ guards: ['a', 'stale', 'b'], followed: [['a', 'b']] }]);
    expect(thenOf).toEqual([['a', 'b']]);
    expect(alone).toEqual([]);
  });

  it('a lone item, or an id twice in one turn, goes alone', async () => {
    const { write, alone } = guardedIdWrites();
    const { run, runs } = recordingEachOrNone(new Set());
    const writes = eachOrNoneWrites(write, run, DEADLINE_MS);
    await expect(writes.add('a')).resolves.toBe(true);
    await expect(Promise.all(['b', 'b'].map((id) => writes.add(id)))).resolves.toEqual([true, true]);
    expect(runs).toEqual([]);
    expect(alone).toEqual(['a', 'b', 'b']);
  });

  it('refused or rolled back whole (null): each item alone, with its own answer', async () => {
    const refused = new Set(['stale']);
    const { write, alone } = guardedIdWrites(refused);
    const { run } = recordingEachOrNone(refused, null);
    const writes = eachOrNoneWrites(write, run, DEADLINE_MS);
    await expect(Promise.all(['a', 'stale'].map((id) => writes.add(id)))).resolves.toEqual([true, false]);
    expect(alone).toEqual(['a', 'stale']);
  });

  it('fate unknown (a failed COMMIT): every item gets the error, none goes alone', async () => {
    const { write, alone } = guardedIdWrites();
    const lost = new Error('Connection lost');
    const { run } = recordingEachOrNone(new Set(), lost);
    const writes = eachOrNoneWrites(write, run, DEADLINE_MS);
    const outcomes = await Promise.allSettled(['a', 'b'].map((id) => writes.add(id)));
    expect(outcomes).toEqual([
      { status: 'rejected', reason: lost },
      { status: 'rejected', reason: lost },
    ]);
    expect(alone).toEqual([]);
  });
});

/** An EachOrNone whose runs end when the test says so (`end(i)`, or never), each guard passing. */
function heldEachOrNone() {
  const runs: unknown[][] = [];
  const ends: (() => void)[] = [];
  const run: EachOrNone = (guards) => {
    runs.push(guards.map(({ parameters }) => parameters[0]));
    return new Promise((resolve) => ends.push(() => resolve(guards.map(() => true))));
  };
  return { run, runs, end: (i: number) => ends[i]() };
}

/** Lets the event loop run a few turns (the batcher flushes on setImmediate). */
async function turns(count = 3): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('eachOrNoneWrites: the items arriving while batches are in flight (group commit)', () => {
  it('wait while GUARDED_BATCHES_IN_FLIGHT batches run, then go out together in one', async () => {
    expect(GUARDED_BATCHES_IN_FLIGHT).toBe(2);
    const { write, alone } = guardedIdWrites();
    const { run, runs, end } = heldEachOrNone();
    const writes = eachOrNoneWrites(write, run, DEADLINE_MS);
    const first = Promise.all(['a', 'b'].map((id) => writes.add(id)));
    await turns();
    const second = Promise.all(['c', 'd'].map((id) => writes.add(id)));
    await turns();
    // Two in flight: these arrive in different turns and wait.
    const waiting = [writes.add('e')];
    await turns();
    waiting.push(writes.add('f'));
    await turns();
    waiting.push(writes.add('g'));
    await turns();
    expect(runs).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    end(0);
    await expect(first).resolves.toEqual([true, true]);
    await turns();
    // The three of three turns, in one batch.
    expect(runs).toEqual([
      ['a', 'b'],
      ['c', 'd'],
      ['e', 'f', 'g'],
    ]);
    end(1);
    end(2);
    await expect(second).resolves.toEqual([true, true]);
    await expect(Promise.all(waiting)).resolves.toEqual([true, true, true]);
    expect(alone).toEqual([]);
  });

  it('a batch that never ends holds the others up to its deadline; a wait counts against the deadline', async () => {
    const { write } = guardedIdWrites();
    const { run, runs } = heldEachOrNone();
    const deadlineMs = 100;
    const writes = eachOrNoneWrites(write, run, deadlineMs, 1);
    const hung = Promise.allSettled(['a', 'b'].map((id) => writes.add(id)));
    await new Promise((resolve) => setTimeout(resolve, 40));
    const started = Date.now();
    // Waits behind the batch that never answers, then runs once that batch's deadline gives up its place.
    const behind = Promise.allSettled(['c', 'd'].map((id) => writes.add(id)));
    const outcomes = await hung;
    expect(outcomes.map((outcome) => outcome.status === 'rejected' && outcome.reason)).toEqual([
      expect.any(WriteDeadlineError),
      expect.any(WriteDeadlineError),
    ]);
    await turns();
    expect(runs).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    // That batch never answers either: its 503s come within the deadline of their own call, not one later.
    const after = await behind;
    expect(after.map((outcome) => outcome.status === 'rejected' && outcome.reason)).toEqual([
      expect.any(WriteDeadlineError),
      expect.any(WriteDeadlineError),
    ]);
    expect(Date.now() - started).toBeLessThan(deadlineMs + 80);
  });
});
