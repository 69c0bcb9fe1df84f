import { Logger } from '@nestjs/common';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isUniqueViolation } from './database-errors.js';
import { MIGRATIONS } from '../features.js';
import { buildDataSourceOptions, DEFAULT_POOL } from './database-options.js';
import { sqliteConnectionOf } from './driver-handles.js';
import { SQLITE_FAIL_FAST_MS } from './sqlite-availability.js';
import { Sql } from './sql.js';
import { WriteHealth } from './write-health.js';

/** Sql on a SQLite file with every migration: each kind of write reports to WriteHealth. */
describe('Sql: every write reports to WriteHealth', () => {
  let dir: string;
  let dataSource: DataSource;
  let health: WriteHealth;
  let sql: Sql;

  beforeAll(async () => {
    for (const level of ['log', 'debug', 'verbose'] as const) {
      vi.spyOn(Logger.prototype, level).mockImplementation(() => undefined);
    }
    dir = mkdtempSync(join(tmpdir(), 'museum-sql-'));
    dataSource = new DataSource(
      buildDataSourceOptions({ type: 'sqlite', path: join(dir, 'db.sqlite') }, true, DEFAULT_POOL, MIGRATIONS),
    );
    await dataSource.initialize();
    health = new WriteHealth();
    sql = new Sql(dataSource, health);
  });

  afterAll(async () => {
    if (dataSource?.isInitialized) await dataSource.destroy();
    rmSync(dir, { recursive: true, force: true });
    vi.restoreAllMocks();
  });

  const insertToken = (id: string) =>
    sql.execute('INSERT INTO calendar_tokens (token_id, token_hash, description, created_at) VALUES (?, ?, ?, ?)', [
      id,
      id.padEnd(64, '0'),
      'd',
      1,
    ]);

  it('a write refused for its content (a duplicate key) leaves the service ready', async () => {
    await expect(insertToken('a')).resolves.toBe(1);
    await expect(insertToken('a')).rejects.toSatisfy(isUniqueViolation);
    expect(health.failingRecently()).toBe(false);
  });

  it('execute, transaction and transactionIf that fail for want of a database each make it unready; a write that works makes it ready', async () => {
    const db = sqliteConnectionOf(dataSource);
    if (db === undefined) throw new Error('no SQLite connection');
    const writes = [
      () => insertToken('b'),
      () => sql.transaction([{ sql: 'DELETE FROM calendar_tokens WHERE token_id = ?', parameters: ['a'] }]),
      () =>
        sql.transactionIf({ sql: 'DELETE FROM calendar_tokens WHERE token_id = ?', parameters: ['a'] }, [
          { sql: 'DELETE FROM calendar_event_stamps', parameters: [] },
        ]),
    ];
    for (const write of writes) {
      db.pragma('query_only = 1');
      await expect(write()).rejects.toMatchObject({ code: 'SQLITE_READONLY' });
      expect(health.failingRecently()).toBe(true);
      db.pragma('query_only = 0');
      // Past the fail-fast window that follows a failed SQLite write.
      await new Promise((resolve) => setTimeout(resolve, SQLITE_FAIL_FAST_MS + 50));
      await expect(sql.execute('DELETE FROM calendar_tokens WHERE token_id = ?', ['none'])).resolves.toBe(0);
      expect(health.failingRecently()).toBe(false);
    }
  });

  it('transactionIf with several guards: a later one that changes no row undoes the earlier ones, alone', async () => {
    await sql.execute('CREATE TABLE guard_scratch (id varchar(8) PRIMARY KEY, n integer NOT NULL)', []);
    await sql.execute("INSERT INTO guard_scratch (id, n) VALUES ('a', 0), ('b', 0)", []);
    const bump = (id: string) => ({ sql: 'UPDATE guard_scratch SET n = n + 1 WHERE id = ?', parameters: [id] });
    const mark = (id: string) => ({ sql: 'INSERT INTO guard_scratch (id, n) VALUES (?, 0)', parameters: [id] });
    const counts = async () =>
      Object.fromEntries(
        (await sql.select<{ id: string; n: number }>('SELECT id, n FROM guard_scratch ORDER BY id')).map((row) => [
          row.id,
          row.n,
        ]),
      );
    // In one group commit: the refused one (its first guard's change undone, `then` never run)
    // beside one whose guards both change their rows.
    const [refused, taken] = await Promise.all([
      sql.transactionIf([bump('a'), bump('missing')], [mark('c')]),
      sql.transactionIf([bump('b'), bump('a')], [mark('d')]),
    ]);
    expect(refused).toBeNull();
    expect(taken).toEqual([1]);
    expect(await counts()).toEqual({ a: 1, b: 1, d: 0 });
    // The first guard changing nothing: null at once, as with one guard.
    await expect(sql.transactionIf([bump('missing'), bump('a')], [mark('e')])).resolves.toBeNull();
    expect(await counts()).toEqual({ a: 1, b: 1, d: 0 });
    expect(health.failingRecently()).toBe(false);
  });

  it('guardedTransaction names the guard that changed no row, and keeps nothing of the transaction', async () => {
    await sql.execute('CREATE TABLE guarded_scratch (id varchar(8) PRIMARY KEY, n integer NOT NULL)', []);
    await sql.execute("INSERT INTO guarded_scratch (id, n) VALUES ('a', 0), ('b', 5)", []);
    const takeUpTo = (id: string, count: number, limit: number) => ({
      sql: 'UPDATE guarded_scratch SET n = n + ? WHERE id = ? AND n + ? <= ?',
      parameters: [count, id, count, limit],
    });
    const mark = { sql: "INSERT INTO guarded_scratch (id, n) VALUES ('c', 0)", parameters: [] };
    const counts = async () =>
      (await sql.select<{ id: string; n: number }>('SELECT id, n FROM guarded_scratch ORDER BY id')).map(
        (row) => `${row.id}=${row.n}`,
      );
    await expect(
      sql.guardedTransaction([takeUpTo('a', 2, 10), takeUpTo('b', 2, 10), takeUpTo('b', 4, 10)], [mark]),
    ).resolves.toEqual({ refusedBy: 2 });
    await expect(sql.guardedTransaction([takeUpTo('a', 11, 10), takeUpTo('b', 1, 10)], [mark])).resolves.toEqual({
      refusedBy: 0,
    });
    expect(await counts()).toEqual(['a=0', 'b=5']);
    await expect(sql.guardedTransaction([takeUpTo('a', 2, 10), takeUpTo('b', 5, 10)], [mark])).resolves.toEqual({
      changed: [1],
    });
    expect(await counts()).toEqual(['a=2', 'b=10', 'c=0']);
  });
});

/**
 * MySQL: a pooled connection's session is set to a transaction's isolation level only when it is
 * not there already, and set back to the server's default before a write that asks for none: a
 * fake pool of one connection that records what it is sent and at which level each write ran.
 */
describe('Sql on MySQL: the isolation level set once per session, not per transaction', () => {
  function onePooledConnection() {
    const session = { level: 'REPEATABLE READ' };
    const sent: string[] = [];
    const ranAt: string[] = [];
    const createQueryRunner = () => {
      let inTransaction = false;
      const runner = {
        isTransactionActive: false,
        connect: () => Promise.resolve(session),
        startTransaction: (isolation?: string) => {
          sent.push(isolation === undefined ? 'START TRANSACTION' : `SET TRANSACTION ${isolation}`);
          inTransaction = runner.isTransactionActive = true;
          return Promise.resolve();
        },
        query: (sql: string) => {
          sent.push(sql);
          if (sql.startsWith('SHOW GLOBAL VARIABLES')) return Promise.resolve([{ Value: 'REPEATABLE-READ' }]);
          const set = /^SET SESSION TRANSACTION ISOLATION LEVEL (.+)$/.exec(sql);
          if (set) session.level = set[1];
          else ranAt.push(`${sql} ${inTransaction ? 'in transaction' : 'alone'} at ${session.level}`);
          return Promise.resolve({ affected: 1 });
        },
        commitTransaction: () => {
          sent.push('COMMIT');
          inTransaction = runner.isTransactionActive = false;
          return Promise.resolve();
        },
        rollbackTransaction: () => Promise.resolve(),
        release: () => Promise.resolve(),
      };
      return runner;
    };
    const dataSource = { options: { type: 'mysql' }, createQueryRunner } as unknown as DataSource;
    return { sql: new Sql(dataSource, new WriteHealth()), sent, ranAt };
  }

  it('READ COMMITTED transactions in a row set the session once; a default write sets it back first', async () => {
    const { sql, sent, ranAt } = onePooledConnection();
    const committed = { isolation: 'READ COMMITTED' } as const;
    await sql.transaction([{ sql: 'W1', parameters: [] }], committed);
    await sql.transactionIf({ sql: 'W2', parameters: [] }, [], committed);
    await sql.transaction([{ sql: 'W3', parameters: [] }]);
    await sql.execute('W4');
    await sql.transaction([{ sql: 'W5', parameters: [] }], committed);
    expect(ranAt).toEqual([
      'W1 in transaction at READ COMMITTED',
      'W2 in transaction at READ COMMITTED',
      'W3 in transaction at REPEATABLE READ',
      'W4 alone at REPEATABLE READ',
      'W5 in transaction at READ COMMITTED',
    ]);
    // No SET TRANSACTION per transaction; a SET SESSION only where the level changes.
    expect(sent).toEqual([
      'SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED',
      'START TRANSACTION',
      'W1',
      'COMMIT',
      'START TRANSACTION',
      'W2',
      'COMMIT',
      "SHOW GLOBAL VARIABLES WHERE Variable_name IN ('transaction_isolation', 'tx_isolation')",
      'SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ',
      'START TRANSACTION',
      'W3',
      'COMMIT',
      'W4',
      'SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED',
      'START TRANSACTION',
      'W5',
      'COMMIT',
    ]);
  });
});
