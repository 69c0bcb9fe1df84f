import { QueryFailedError, type Repository } from 'typeorm';
import { describe, expect, it } from 'vitest';
import type { SpecialEvent } from './special-event.entity.js';
import { MYSQL_INSERT_BATCH, MysqlSpecialEventsStore } from './special-events.store.js';

const event = (eventId: string): SpecialEvent => ({
  eventId,
  name: `Event ${eventId}`,
  location: 'Hall',
  eventDescription: 'Description',
  dates: [],
  price: 1,
});

function duplicate(): QueryFailedError {
  return new QueryFailedError(
    'INSERT ...',
    [],
    Object.assign(new Error('Duplicate entry'), { code: 'ER_DUP_ENTRY', errno: 1062 }),
  );
}

/**
 * A repository over a Set of ids, recording each insert call. Like InnoDB, an insert statement is
 * atomic: when one of its rows collides nothing of it is stored.
 */
function fakeRepository(stored = new Set<string>(), failWith?: (ids: string[]) => Error | undefined) {
  const calls: string[][] = [];
  const repository = {
    insert: (rows: SpecialEvent | SpecialEvent[]) => {
      const ids = (Array.isArray(rows) ? rows : [rows]).map((row) => row.eventId);
      calls.push(ids);
      const forced = failWith?.(ids);
      if (forced) return Promise.reject(forced);
      if (ids.some((id, i) => stored.has(id) || ids.indexOf(id) !== i)) return Promise.reject(duplicate());
      for (const id of ids) stored.add(id);
      return Promise.resolve({});
    },
  };
  return { repository: repository as unknown as Repository<SpecialEvent>, calls, stored };
}

describe('MysqlSpecialEventsStore', () => {
  it('creates that arrive together go out as one multi-row INSERT', async () => {
    const { repository, calls, stored } = fakeRepository();
    const store = new MysqlSpecialEventsStore(repository);
    const results = await Promise.all(['a', 'b', 'c'].map((id) => store.insert(event(id))));
    expect(results).toEqual([true, true, true]);
    expect(calls).toEqual([['a', 'b', 'c']]);
    expect([...stored]).toEqual(['a', 'b', 'c']);
  });

  it('a lone create is a plain single-row INSERT', async () => {
    const { repository, calls } = fakeRepository();
    await expect(new MysqlSpecialEventsStore(repository).insert(event('a'))).resolves.toBe(true);
    expect(calls).toEqual([['a']]);
  });

  it('when the batch fails on a duplicate, each event is inserted on its own and answered on its own', async () => {
    const { repository, calls, stored } = fakeRepository(new Set(['taken']));
    const store = new MysqlSpecialEventsStore(repository);
    const results = await Promise.all(['a', 'taken', 'b', 'b'].map((id) => store.insert(event(id))));
    expect(calls[0]).toEqual(['a', 'taken', 'b', 'b']);
    expect(results.slice(0, 2)).toEqual([true, false]);
    // The same id twice: exactly one of them is stored.
    expect(results.slice(2).sort((a, b) => Number(a) - Number(b))).toEqual([false, true]);
    expect([...stored].sort()).toEqual(['a', 'b', 'taken']);
  });

  it('any other failure of the batch is retried row by row: only the rows that fail again fail', async () => {
    const broken = new Error('Data too long for column');
    const { repository } = fakeRepository(new Set(), (ids) =>
      ids.length > 1 || ids[0] === 'bad' ? broken : undefined,
    );
    const store = new MysqlSpecialEventsStore(repository);
    const outcomes = await Promise.allSettled(['a', 'bad', 'b'].map((id) => store.insert(event(id))));
    expect(outcomes).toEqual([
      { status: 'fulfilled', value: true },
      { status: 'rejected', reason: broken },
      { status: 'fulfilled', value: true },
    ]);
  });

  it(`splits more than ${MYSQL_INSERT_BATCH} waiting creates into statements of at most ${MYSQL_INSERT_BATCH} rows`, async () => {
    const { repository, calls } = fakeRepository();
    const store = new MysqlSpecialEventsStore(repository);
    const ids = Array.from({ length: MYSQL_INSERT_BATCH * 2 + 1 }, (_, i) => `id-${i}`);
    await Promise.all(ids.map((id) => store.insert(event(id))));
    expect(calls.map((call) => call.length)).toEqual([MYSQL_INSERT_BATCH, MYSQL_INSERT_BATCH, 1]);
    expect(calls.flat()).toEqual(ids);
  });
});
