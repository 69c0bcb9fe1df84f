import type { Pool, PoolConnection } from 'mysql2';
import { describe, expect, it } from 'vitest';
import { discardUnsafeConnections } from './unsafe-connections.js';

type OnResult = (error: unknown, ...results: unknown[]) => unknown;

/** A command as mysql2 runs one: its result callback is called as its method. */
class FakeCommand {
  constructor(public onResult: OnResult) {}
  finish(error: unknown, ...results: unknown[]): unknown {
    return this.onResult(error, ...results);
  }
}

/** A connection that records what is done to it, and a pool that hands it out. */
function fakePool() {
  const connection = {
    destroyed: 0,
    streamDestroyed: 0,
    added: [] as FakeCommand[],
    addCommand(command: FakeCommand): FakeCommand {
      connection.added.push(command);
      return command;
    },
    destroy(): void {
      connection.destroyed++;
    },
    stream: {
      destroy(): void {
        connection.streamDestroyed++;
      },
    },
  };
  const pool = {
    getConnection(callback: (error: null, connection: PoolConnection) => void): void {
      callback(null, connection as unknown as PoolConnection);
    },
  };
  discardUnsafeConnections(pool as unknown as Pool);
  const acquire = (): typeof connection => {
    let acquired: typeof connection | undefined;
    pool.getConnection((_, got) => {
      acquired = got as unknown as typeof connection;
    });
    return acquired as typeof connection;
  };
  return { acquire };
}

describe('discardUnsafeConnections', () => {
  it("destroys a connection whose command failed fatally, then calls the command's own callback", () => {
    const connection = fakePool().acquire();
    const calls: unknown[][] = [];
    const command = new FakeCommand(function (this: unknown, ...args: unknown[]) {
      calls.push([this, ...args]);
      return 'answered';
    });
    connection.addCommand(command);
    const fatal = Object.assign(new Error('gone'), { fatal: true });
    expect(command.finish(fatal)).toBe('answered');
    expect(connection.destroyed).toBe(1);
    expect(connection.streamDestroyed).toBe(1);
    expect(calls).toEqual([[command, fatal]]);
  });

  it('keeps a connection whose command succeeded or failed harmlessly, passing the results on', () => {
    const connection = fakePool().acquire();
    const calls: unknown[][] = [];
    const ok = new FakeCommand((...args) => calls.push(args));
    const refused = new FakeCommand((...args) => calls.push(args));
    connection.addCommand(ok);
    connection.addCommand(refused);
    ok.finish(null, [['row']], ['field']);
    refused.finish(Object.assign(new Error('duplicate'), { code: 'ER_DUP_ENTRY' }));
    expect(connection.destroyed).toBe(0);
    expect(calls[0]).toEqual([null, [['row']], ['field']]);
    expect(calls).toHaveLength(2);
  });

  it('gives every command the same result callback, not a closure of its own', () => {
    // A closure made per command kept every result's rows alive through the young generation's
    // collections: a CSV export of 100,000 tickets on MySQL grew RSS by 107 MiB instead of 20.
    const connection = fakePool().acquire();
    const first = new FakeCommand(() => undefined);
    const second = new FakeCommand(() => undefined);
    connection.addCommand(first);
    connection.addCommand(second);
    expect(first.onResult).toBe(second.onResult);
  });
});
