import { describe, expect, it } from 'vitest';
import type { Sql, SqlStatement } from '../database/sql.js';
import { Capacity } from './capacity.js';
import type { CapacityPool } from './capacity-pool.js';

const pool = (turns: boolean): CapacityPool => ({
  name: 'rooms',
  table: 'rooms',
  key: 'room_id',
  taken: 'booked',
  limits: [{ limit: 'beds', when: 'open = ?' }],
  turns,
});

/** Sql whose guarded transactions wait to be released, one by one, recording what ran. */
function fakeSql(isMysql: boolean) {
  const ran: { guard: SqlStatement; joined: readonly SqlStatement[] }[] = [];
  const waiting: (() => void)[] = [];
  const sql = {
    isMysql,
    transactionIf: (guard: SqlStatement, then: readonly SqlStatement[]) =>
      new Promise<number[] | null>((resolve) => {
        ran.push({ guard, joined: then });
        waiting.push(() => resolve(guard.parameters[0] === 'full' ? null : then.map(() => 1)));
      }),
  } as unknown as Sql;
  const settle = async () => {
    for (let turn = 0; turn < 10; turn++) await Promise.resolve();
  };
  return { sql, ran, release: () => waiting.shift()?.(), settle };
}

describe('Capacity.take', () => {
  it('runs the pool’s conditional UPDATE with the row’s key first, and the joined statements with it', async () => {
    const { sql, ran, release, settle } = fakeSql(false);
    const joined = [{ sql: 'INSERT INTO stays VALUES (?)', parameters: ['s1'] }];
    const taken = new Capacity(sql).take({ pool: pool(false), key: 'r1', parameters: [1] }, joined);
    await settle();
    release();
    await expect(taken).resolves.toBe(true);
    expect(ran).toEqual([
      {
        guard: {
          sql: 'UPDATE rooms SET booked = booked + 1 WHERE room_id = ? AND ((beds IS NULL OR booked < beds) AND open = ?)',
          parameters: ['r1', 1],
        },
        joined,
      },
    ]);
  });

  it('runs `together` alone in place of the pool’s UPDATE and `also`, and is false when it takes nothing', async () => {
    const { sql, ran, release, settle } = fakeSql(true);
    const joined = [{ sql: 'INSERT INTO stays VALUES (?)', parameters: ['s1'] }];
    const also = [{ sql: 'UPDATE wings SET booked = booked + 1 WHERE wing = ?', parameters: ['w1'] }];
    const together = (key: string) => ({ sql: 'UPDATE rooms JOIN wings SET ...', parameters: [key, 'w1'] });
    const capacity = new Capacity(sql);
    const taken = capacity.take(
      { pool: pool(false), key: 'r1', parameters: [1], also, together: together('r1') },
      joined,
    );
    await settle();
    release();
    await expect(taken).resolves.toBe(true);
    const refused = capacity.take(
      { pool: pool(false), key: 'full', parameters: [1], also, together: together('full') },
      joined,
    );
    await settle();
    release();
    await expect(refused).resolves.toBe(false);
    expect(ran).toEqual([
      { guard: together('r1'), joined },
      { guard: together('full'), joined },
    ]);
  });

  it('is false when the UPDATE takes nothing, and refuses a row full as read without a transaction', async () => {
    const { sql, ran, release, settle } = fakeSql(false);
    const capacity = new Capacity(sql);
    const refused = capacity.take({ pool: pool(false), key: 'full', parameters: [1] }, []);
    await settle();
    release();
    await expect(refused).resolves.toBe(false);
    await expect(
      capacity.take({ pool: pool(false), key: 'r1', parameters: [1], asRead: { limit: 3, taken: 3 } }, []),
    ).resolves.toBe(false);
    expect(ran).toHaveLength(1);
  });

  it('on MySQL takes a pool-with-turns row’s places one at a time, other rows and SQLite at once', async () => {
    const mysql = fakeSql(true);
    const capacity = new Capacity(mysql.sql);
    const takes = [
      capacity.take({ pool: pool(true), key: 'r1', parameters: [1] }, []),
      capacity.take({ pool: pool(true), key: 'r1', parameters: [1] }, []),
      capacity.take({ pool: pool(true), key: 'r2', parameters: [1] }, []),
    ];
    await mysql.settle();
    // r1's second take waits for its first; r2 does not wait for r1.
    expect(mysql.ran.map(({ guard }) => guard.parameters[0])).toEqual(['r1', 'r2']);
    mysql.release();
    await mysql.settle();
    expect(mysql.ran.map(({ guard }) => guard.parameters[0])).toEqual(['r1', 'r2', 'r1']);
    mysql.release();
    mysql.release();
    await expect(Promise.all(takes)).resolves.toEqual([true, true, true]);

    const sqlite = fakeSql(false);
    const atOnce = new Capacity(sqlite.sql);
    const both = [1, 2].map(() => atOnce.take({ pool: pool(true), key: 'r1', parameters: [1] }, []));
    await sqlite.settle();
    expect(sqlite.ran).toHaveLength(2);
    sqlite.release();
    sqlite.release();
    await expect(Promise.all(both)).resolves.toEqual([true, true]);
  });
});

describe('Capacity.giveBack', () => {
  it('gives a place back only in the guard’s transaction, never below 0, and in the row’s turn on MySQL', async () => {
    const mysql = fakeSql(true);
    const capacity = new Capacity(mysql.sql);
    const cancel = { sql: 'UPDATE stays SET cancelled = 1 WHERE stay_id = ? AND cancelled = 0', parameters: ['s1'] };
    const take = capacity.take({ pool: pool(true), key: 'r1', parameters: [1] }, []);
    const given = capacity.giveBack(pool(true), 'r1', cancel);
    await mysql.settle();
    // The give-back waits for the row's take before it, as a take would.
    expect(mysql.ran).toHaveLength(1);
    mysql.release();
    await mysql.settle();
    expect(mysql.ran[1]).toEqual({
      guard: cancel,
      joined: [{ sql: 'UPDATE rooms SET booked = booked - 1 WHERE room_id = ? AND booked > 0', parameters: ['r1'] }],
    });
    mysql.release();
    await expect(Promise.all([take, given])).resolves.toEqual([true, true]);
  });

  it('is false when the guard changed nothing (nothing given back)', async () => {
    const { sql, release, settle } = fakeSql(false);
    const given = new Capacity(sql).giveBack(pool(false), 'r1', {
      sql: 'UPDATE stays SET x = 1',
      parameters: ['full'],
    });
    await settle();
    release();
    await expect(given).resolves.toBe(false);
  });
});
