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
