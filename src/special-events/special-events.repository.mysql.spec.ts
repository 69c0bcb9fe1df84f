import { type DataSource, QueryFailedError } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { WriteDeadlineError } from '../database/database-errors.js';
import { Sql } from '../database/sql.js';
import { MYSQL_BATCH } from '../database/turn-batcher.js';
import { WriteHealth } from '../database/write-health.js';
import type { SpecialEvent } from './special-event.entity.js';
import { MysqlSpecialEventsRepository } from './special-events.repository.mysql.js';
import { withDerivedColumns } from './special-events.service.js';
import { eventValues } from './special-events.sql.js';

const DEADLINE_MS = 60_000;

const event = (eventId: string): SpecialEvent =>
  withDerivedColumns(
    { eventId, name: `Event ${eventId}`, location: 'Hall', eventDescription: 'Description', dates: [], price: 1 },
    1,
  );

/** An error as mysql2 reports one the server sent for the statement (it then changed nothing). */
function refusedByServer(code: string, errno: number, message: string): QueryFailedError {
  return new QueryFailedError('INSERT ...', [], Object.assign(new Error(message), { code, errno, sqlState: '23000' }));
}

function duplicate(): QueryFailedError {
  return refusedByServer('ER_DUP_ENTRY', 1062, 'Duplicate entry');
}

/** mysql2's own query timeout: the statement may still be running, and may still commit. */
function timedOut(): QueryFailedError {
  return new QueryFailedError(
    'INSERT ...',
    [],
    Object.assign(new Error('Query inactivity timeout'), { code: 'PROTOCOL_SEQUENCE_TIMEOUT' }),
  );
}

interface FakeOptions {
  readonly failWith?: (ids: string[]) => Error | undefined;
  /** Stores the statement's rows, then fails it anyway: a commit its caller never heard of. */
  readonly storeThenFailWith?: (ids: string[]) => Error | undefined;
  /** The statement never answers. */
  readonly hangOn?: (ids: string[]) => boolean;
  readonly failDeleteIn?: Error;
  readonly failCommit?: Error;
}

/** An event's row has this many values (eventValues), its eventId first. */
const VALUES_PER_EVENT = eventValues(event('x')).length;

/**
 * A MySQL DataSource over a Set of ids, as Sql reaches it (query runners), recording each
 * statement. Like InnoDB, an insert statement is atomic (when one of its rows collides nothing of
 * it is stored), and a `DELETE … IN` takes effect on commit only.
 */
function fakeDatabase(stored = new Set<string>(), options: FakeOptions = {}) {
  const calls: string[][] = [];
  const log: string[] = [];
  const insert = (ids: string[]) => {
    calls.push(ids);
    if (options.hangOn?.(ids)) return new Promise<never>(() => undefined);
    const forced = options.failWith?.(ids);
    if (forced) return Promise.reject(forced);
    if (ids.some((id, i) => stored.has(id) || ids.indexOf(id) !== i)) return Promise.reject(duplicate());
    for (const id of ids) stored.add(id);
    const late = options.storeThenFailWith?.(ids);
    return late ? Promise.reject(late) : Promise.resolve({ affected: ids.length });
  };
  // One pooled connection; its session's isolation level is what SET SESSION made it.
  const connection = { level: 'REPEATABLE READ', levelsSet: 0 };
  const createQueryRunner = () => {
    let staged: string[] = [];
    let level = '';
    const runner = {
      isTransactionActive: false,
      connect: () => Promise.resolve(connection),
      startTransaction: (isolation?: string) => {
        level = isolation ?? connection.level;
        log.push(`begin ${level}`);
        runner.isTransactionActive = true;
        return Promise.resolve();
      },
      query: (sql: string, parameters: string[]) => {
        const set = /^SET SESSION TRANSACTION ISOLATION LEVEL (.+)$/.exec(sql);
        if (set) {
          connection.level = set[1];
          connection.levelsSet++;
          return Promise.resolve({ affected: 0 });
        }
        if (sql.startsWith('INSERT INTO special_events ')) {
          return insert(parameters.filter((_, i) => i % VALUES_PER_EVENT === 0));
        }
        if (sql.startsWith('DELETE FROM special_events WHERE event_id IN')) {
          log.push(`delete in ${parameters.join(',')}`);
          if (options.failDeleteIn) return Promise.reject(options.failDeleteIn);
          staged = parameters.filter((id) => stored.has(id));
          return Promise.resolve({ affected: staged.length });
        }
        if (sql.startsWith('DELETE FROM special_event_dates WHERE event_id IN')) {
          log.push(`delete dates in ${parameters.join(',')}`);
          return Promise.resolve({ affected: 0 });
        }
        // The sessions' seat rows go with the date rows; no case here has any, so none is logged.
        if (sql.startsWith('DELETE FROM special_event_sessions WHERE event_id IN')) {
          return Promise.resolve({ affected: 0 });
        }
        if (sql.startsWith('DELETE FROM special_events WHERE event_id = ?')) {
          log.push(`delete ${parameters[0]} (${level})`);
          return Promise.resolve({ affected: stored.delete(parameters[0]) ? 1 : 0 });
        }
        if (sql.startsWith('DELETE FROM special_event_dates WHERE event_id = ?')) {
          log.push(`delete dates ${parameters[0]}`);
          return Promise.resolve({ affected: 0 });
        }
        return Promise.reject(new Error(`unexpected statement: ${sql}`));
      },
      commitTransaction: () => {
        log.push('commit');
        runner.isTransactionActive = false;
        if (options.failCommit) return Promise.reject(options.failCommit);
        for (const id of staged) stored.delete(id);
        return Promise.resolve();
      },
      rollbackTransaction: () => {
        log.push('rollback');
        runner.isTransactionActive = false;
        staged = [];
        return Promise.resolve();
      },
      release: () => {
        if (level !== '') log.push('release');
        return Promise.resolve();
      },
    };
    return runner;
  };
  const dataSource = { options: { type: 'mysql' }, createQueryRunner };
  return { dataSource: dataSource as unknown as DataSource, calls, stored, log, connection };
}

/** The repository on Sql over the fake database; a batch's callers wait at most `deadlineMs`. */
function repositoryOn(dataSource: DataSource, deadlineMs = DEADLINE_MS): MysqlSpecialEventsRepository {
  return new MysqlSpecialEventsRepository(new Sql(dataSource, new WriteHealth(), { batchDeadlineMs: deadlineMs }));
}

describe('MysqlSpecialEventsRepository', () => {
  it('creates that arrive together go out as one multi-row INSERT', async () => {
    const { dataSource, calls, stored } = fakeDatabase();
    const store = repositoryOn(dataSource);
    const results = await Promise.all(['a', 'b', 'c'].map((id) => store.insert(event(id))));
    expect(results).toEqual([true, true, true]);
    expect(calls).toEqual([['a', 'b', 'c']]);
    expect([...stored]).toEqual(['a', 'b', 'c']);
  });

  it('a lone create is a plain single-row INSERT', async () => {
    const { dataSource, calls } = fakeDatabase();
    await expect(repositoryOn(dataSource).insert(event('a'))).resolves.toBe(true);
    expect(calls).toEqual([['a']]);
  });

  it('when the batch fails on a duplicate, each event is inserted on its own and answered on its own', async () => {
    const { dataSource, calls, stored } = fakeDatabase(new Set(['taken']));
    const store = repositoryOn(dataSource);
    const results = await Promise.all(['a', 'taken', 'b', 'b'].map((id) => store.insert(event(id))));
    expect(calls[0]).toEqual(['a', 'taken', 'b', 'b']);
    expect(results.slice(0, 2)).toEqual([true, false]);
    // The same id twice: exactly one of them is stored.
    expect(results.slice(2).sort((a, b) => Number(a) - Number(b))).toEqual([false, true]);
    expect([...stored].sort()).toEqual(['a', 'b', 'taken']);
  });

  it('any other refusal by the server is retried row by row: only the rows that fail again fail', async () => {
    const broken = refusedByServer('ER_DATA_TOO_LONG', 1406, 'Data too long for column');
    const { dataSource } = fakeDatabase(new Set(), {
      failWith: (ids) => (ids.length > 1 || ids[0] === 'bad' ? broken : undefined),
    });
    const store = repositoryOn(dataSource);
    const outcomes = await Promise.allSettled(['a', 'bad', 'b'].map((id) => store.insert(event(id))));
    expect(outcomes).toEqual([
      { status: 'fulfilled', value: true },
      { status: 'rejected', reason: broken },
      { status: 'fulfilled', value: true },
    ]);
  });

  it('a batch whose fate is unknown (timed out, committed later): every caller gets the error, none is retried', async () => {
    const lost = timedOut();
    const { dataSource, calls, stored } = fakeDatabase(new Set(), {
      storeThenFailWith: (ids) => (ids.length > 1 ? lost : undefined),
    });
    const store = repositoryOn(dataSource);
    const outcomes = await Promise.allSettled(['a', 'b', 'c'].map((id) => store.insert(event(id))));
    // Retried row by row, each would meet its own stored row and be answered false (409).
    expect(outcomes).toEqual([
      { status: 'rejected', reason: lost },
      { status: 'rejected', reason: lost },
      { status: 'rejected', reason: lost },
    ]);
    expect(calls).toEqual([['a', 'b', 'c']]);
    expect([...stored]).toEqual(['a', 'b', 'c']);
  });

  it('a batch whose server is unavailable (a lock wait timed out) is not retried row by row', async () => {
    const busy = refusedByServer('ER_LOCK_WAIT_TIMEOUT', 1205, 'Lock wait timeout exceeded');
    const { dataSource, calls } = fakeDatabase(new Set(), { failWith: () => busy });
    const store = repositoryOn(dataSource);
    const outcomes = await Promise.allSettled(['a', 'b'].map((id) => store.insert(event(id))));
    expect(outcomes).toEqual([
      { status: 'rejected', reason: busy },
      { status: 'rejected', reason: busy },
    ]);
    expect(calls).toEqual([['a', 'b']]);
  });

  it('a statement that never answers: every caller of the batch gets a WriteDeadlineError at the deadline', async () => {
    const { dataSource } = fakeDatabase(new Set(), { hangOn: () => true });
    const store = repositoryOn(dataSource, 20);
    const outcomes = await Promise.allSettled(['a', 'b'].map((id) => store.insert(event(id))));
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(WriteDeadlineError);
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({ code: 'WRITE_DEADLINE' });
    }
  });

  it('a batch that lost a deadlock (on Galera: a certification conflict) was rolled back: each create goes again on its own', async () => {
    const deadlock = new QueryFailedError(
      'INSERT ...',
      [],
      Object.assign(new Error('Deadlock found when trying to get lock'), { code: 'ER_LOCK_DEADLOCK', errno: 1213 }),
    );
    const { dataSource, calls, stored } = fakeDatabase(new Set(), {
      failWith: (ids) => (ids.length > 1 ? deadlock : undefined),
    });
    const store = repositoryOn(dataSource);
    await expect(Promise.all(['a', 'b'].map((id) => store.insert(event(id))))).resolves.toEqual([true, true]);
    expect(calls).toEqual([['a', 'b'], ['a'], ['b']]);
    expect([...stored]).toEqual(['a', 'b']);
  });

  it(`splits more than ${MYSQL_BATCH} waiting creates into statements of at most ${MYSQL_BATCH} rows`, async () => {
    const { dataSource, calls } = fakeDatabase();
    const store = repositoryOn(dataSource);
    const ids = Array.from({ length: MYSQL_BATCH * 2 + 1 }, (_, i) => `id-${i}`);
    await Promise.all(ids.map((id) => store.insert(event(id))));
    expect(calls.map((call) => call.length)).toEqual([MYSQL_BATCH, MYSQL_BATCH, 1]);
    expect(calls.flat()).toEqual(ids);
  });

  it('deletes that arrive together, all of existing events: one DELETE … IN in one committed transaction', async () => {
    const { dataSource, stored, log } = fakeDatabase(new Set(['a', 'b', 'c', 'kept']));
    const store = repositoryOn(dataSource);
    await expect(Promise.all(['a', 'b', 'c'].map((id) => store.delete(id)))).resolves.toEqual([true, true, true]);
    expect(log).toEqual(['begin READ COMMITTED', 'delete in a,b,c', 'delete dates in a,b,c', 'commit', 'release']);
    expect([...stored]).toEqual(['kept']);
  });

  it('when one id does not exist, the batch is rolled back and each delete answers on its own', async () => {
    const { dataSource, stored, log, connection } = fakeDatabase(new Set(['a', 'b']));
    const store = repositoryOn(dataSource);
    await expect(Promise.all(['a', 'missing', 'b'].map((id) => store.delete(id)))).resolves.toEqual([
      true,
      false,
      true,
    ]);
    expect(log).toEqual([
      'begin READ COMMITTED',
      'delete in a,missing,b',
      'rollback',
      'release',
      // Then each delete in a transaction of its own, the three at once.
      'begin READ COMMITTED',
      'begin READ COMMITTED',
      'begin READ COMMITTED',
      'delete a (READ COMMITTED)',
      'delete missing (READ COMMITTED)',
      'delete b (READ COMMITTED)',
      'delete dates a',
      'delete dates b',
      'commit',
      'release',
      'commit',
      'commit',
      'release',
      'release',
    ]);
    expect([...stored]).toEqual([]);
    // The connection's session was set to READ COMMITTED once, for the four transactions.
    expect(connection.levelsSet).toBe(1);
  });

  it('the same id twice in one go: no batch, exactly one of the two deletes it', async () => {
    const { dataSource, log } = fakeDatabase(new Set(['a']));
    const store = repositoryOn(dataSource);
    const results = await Promise.all(['a', 'a'].map((id) => store.delete(id)));
    expect(results.sort((x, y) => Number(x) - Number(y))).toEqual([false, true]);
    expect(log.filter((line) => !line.startsWith('delete dates'))).toEqual([
      'begin READ COMMITTED',
      'begin READ COMMITTED',
      'delete a (READ COMMITTED)',
      'delete a (READ COMMITTED)',
      'commit',
      'release',
      'commit',
      'release',
    ]);
  });

  it('a failed COMMIT may have happened: every delete of the batch gets the error, none is retried', async () => {
    const lost = Object.assign(new Error('Connection lost'), { code: 'PROTOCOL_CONNECTION_LOST' });
    const { dataSource, log } = fakeDatabase(new Set(['a', 'b']), { failCommit: lost });
    const store = repositoryOn(dataSource);
    const outcomes = await Promise.allSettled(['a', 'b'].map((id) => store.delete(id)));
    expect(outcomes).toEqual([
      { status: 'rejected', reason: lost },
      { status: 'rejected', reason: lost },
    ]);
    expect(log).toEqual(['begin READ COMMITTED', 'delete in a,b', 'delete dates in a,b', 'commit', 'release']);
  });

  it('a DELETE … IN that timed out: every delete of the batch gets the error, none is retried on its own', async () => {
    const lost = timedOut();
    const { dataSource, log, stored } = fakeDatabase(new Set(['a', 'b']), { failDeleteIn: lost });
    const store = repositoryOn(dataSource);
    const outcomes = await Promise.allSettled(['a', 'b'].map((id) => store.delete(id)));
    expect(outcomes).toEqual([
      { status: 'rejected', reason: lost },
      { status: 'rejected', reason: lost },
    ]);
    expect(log).toEqual(['begin READ COMMITTED', 'delete in a,b', 'rollback', 'release']);
    expect([...stored]).toEqual(['a', 'b']);
  });
});
