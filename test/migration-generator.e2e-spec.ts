import { Logger } from '@nestjs/common';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource, EntitySchema, type EntitySchemaColumnOptions, type MigrationInterface } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDatabaseUrl } from '../src/config/app-config.js';
import { buildDataSourceOptions } from '../src/database/database-options.js';
import { migrationSource } from '../src/database/migration-files.js';
import {
  type DriverChanges,
  type Entities,
  formatted,
  mysqlChanges,
  sqliteChanges,
} from '../src/database/migration-generator.js';
import type { DriverMigrations, MigrationClass } from '../src/database/migration-history.js';
import { childEnv, ROOT } from './helpers/service-process.js';
import { createTestDatabase, MYSQL_TEST_URL, TEST_DATABASE } from './helpers/test-database.js';

/**
 * npm run migration:generate's comparison and statements, on this project's database (SQLite or
 * MySQL): for each kind of change, a table made by a generated migration, rows written, the
 * entity changed, the generated migration written as the command writes it and run, the rows
 * read back. A change no statement makes safely is refused, naming what to write by hand.
 */

const dir = mkdtempSync(join(tmpdir(), 'museum-generator-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// TypeORM's log of every query of every scratch database, at verbose level: errors only.
beforeAll(() => Logger.overrideLogger(['error']));

/** The migration every history here starts with: the runner needs one, the table comes after. */
class Start1000000000000 implements MigrationInterface {
  name = 'Start1000000000000';
  async up(): Promise<void> {}
  async down(): Promise<void> {}
}

type Columns = Record<string, EntitySchemaColumnOptions>;
const BASE: Columns = {
  id: { type: 'int', primary: true },
  label: { type: 'varchar', length: 500, nullable: true },
  qty: { type: 'int', default: 0 },
};

function probe(columns: Columns, indexed = false): Entities {
  return [
    new EntitySchema({
      name: 'Probe',
      tableName: 'generator_probe',
      columns,
      indices: indexed ? [{ name: 'IDX_generator_probe_label', columns: ['label'] }] : [],
    }),
  ];
}

async function generate(entities: Entities, history: readonly MigrationClass[]): Promise<DriverChanges> {
  const migrations: DriverMigrations = { sqlite: history, mysql: history };
  if (TEST_DATABASE === 'sqlite') return sqliteChanges(entities, migrations);
  const outcome = await mysqlChanges(MYSQL_TEST_URL, entities, migrations);
  if (outcome.kind === 'unreachable') throw new Error(outcome.reason);
  return outcome;
}

let written = 0;
/** The migration as the command writes it (formatted), imported from its file. */
async function load(name: string, timestamp: number, changes: DriverChanges): Promise<MigrationClass> {
  expect(changes.refusals).toEqual([]);
  const path = join(dir, `${timestamp}-${name}-${written++}.ts`);
  writeFileSync(path, formatted(migrationSource(name, timestamp, changes.queries), join(dir, 'x.ts')));
  const module = (await import(path)) as Record<string, MigrationClass>;
  return module[`${name}${timestamp}`];
}

type Row = Record<string, unknown>;

/**
 * A database built by `before`'s migrations holding `rows`, then migrated by `after`'s: the rows
 * then, or the error of the migration and the rows as they are after it.
 */
async function migrate(
  before: readonly MigrationClass[],
  after: readonly MigrationClass[],
  rows: readonly Row[],
  read: string,
): Promise<{ rows: Row[]; error?: string }> {
  const database = await createTestDatabase();
  const config = parseDatabaseUrl(database.url);
  const open = async (history: readonly MigrationClass[]): Promise<DataSource> =>
    new DataSource(buildDataSourceOptions(config, true, undefined, { sqlite: history, mysql: history })).initialize();
  try {
    const first = await open(before);
    for (const row of rows) {
      const names = Object.keys(row);
      await first.query(
        `INSERT INTO generator_probe (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
        Object.values(row),
      );
    }
    await first.destroy();
    let error: string | undefined;
    try {
      await (await open(after)).destroy();
    } catch (failure) {
      error = failure instanceof Error ? failure.message : String(failure);
    }
    const reader = new DataSource(buildDataSourceOptions(config));
    await reader.initialize();
    try {
      return { rows: (await reader.query(read)) as Row[], error };
    } finally {
      await reader.destroy();
    }
  } finally {
    await database.drop();
  }
}

/** The table as BASE makes it, by a generated migration. */
async function baseTable(): Promise<MigrationClass> {
  return load('Probe', 1000000000001, await generate(probe(BASE), [Start1000000000000]));
}

const mysqlOnly = (changes: DriverChanges): string[] =>
  TEST_DATABASE === 'mysql' ? changes.queries.up.filter((step): step is string => typeof step === 'string') : [];

describe(`migration:generate keeps every value (${TEST_DATABASE})`, () => {
  it('widens a column in place: varchar(500) to 600', async () => {
    const base = await baseTable();
    const changes = await generate(probe({ ...BASE, label: { ...BASE.label, length: 600 } }), [
      Start1000000000000,
      base,
    ]);
    expect(mysqlOnly(changes).filter((query) => /DROP COLUMN/.test(query))).toEqual([]);
    const widen = await load('Widen', 1000000000002, changes);
    const rows = [
      { id: 1, label: 'é'.repeat(500) },
      { id: 2, label: null },
    ];
    const result = await migrate(
      [Start1000000000000, base],
      [Start1000000000000, base, widen],
      rows,
      'SELECT id, label FROM generator_probe ORDER BY id',
    );
    expect(result).toEqual({ rows, error: undefined });
  });

  it('narrows a column when every value fits, and refuses to run when one does not', async () => {
    const base = await baseTable();
    const changes = await generate(probe({ ...BASE, label: { ...BASE.label, length: 100 } }), [
      Start1000000000000,
      base,
    ]);
    const narrow = await load('Narrow', 1000000000002, changes);
    const fitting = [
      { id: 1, label: 'x'.repeat(100) },
      { id: 2, label: null },
    ];
    const read = 'SELECT id, label FROM generator_probe ORDER BY id';
    const history = [Start1000000000000, base];
    expect(await migrate(history, [...history, narrow], fitting, read)).toEqual({ rows: fitting, error: undefined });
    const tooLong = [...fitting, { id: 3, label: 'y'.repeat(101) }];
    const refused = await migrate(history, [...history, narrow], tooLong, read);
    expect(refused.error).toMatch(/1 row\(s\) stop this migration: generator_probe.label narrows to 100 characters/);
    expect(refused.rows).toEqual(tooLong);
  });

  it('makes a column NOT NULL with a default: NULLs take the default, other values stay', async () => {
    const base = await baseTable();
    const changes = await generate(
      probe({ ...BASE, label: { type: 'varchar', length: 500, nullable: false, default: 'none' } }),
      [Start1000000000000, base],
    );
    const notNull = await load('NotNull', 1000000000002, changes);
    const result = await migrate(
      [Start1000000000000, base],
      [Start1000000000000, base, notNull],
      [
        { id: 1, label: 'kept' },
        { id: 2, label: null },
      ],
      'SELECT id, label FROM generator_probe ORDER BY id',
    );
    expect(result).toEqual({
      rows: [
        { id: 1, label: 'kept' },
        { id: 2, label: 'none' },
      ],
      error: undefined,
    });
  });

  it('changes int to bigint in place', async () => {
    const base = await baseTable();
    const changes = await generate(probe({ ...BASE, qty: { type: 'bigint', default: 0 } }), [Start1000000000000, base]);
    expect(mysqlOnly(changes).filter((query) => /DROP COLUMN/.test(query))).toEqual([]);
    const bigger = await load('Bigger', 1000000000002, changes);
    const result = await migrate(
      [Start1000000000000, base],
      [Start1000000000000, base, bigger],
      [
        { id: 1, qty: 2147483647 },
        { id: 2, qty: -5 },
      ],
      'SELECT id, qty FROM generator_probe ORDER BY id',
    );
    expect(result.rows.map((row) => ({ id: row.id, qty: Number(row.qty) }))).toEqual([
      { id: 1, qty: 2147483647 },
      { id: 2, qty: -5 },
    ]);
    expect(result.error).toBeUndefined();
  });

  it('adds an index, the rows untouched', async () => {
    const base = await baseTable();
    const changes = await generate(probe(BASE, true), [Start1000000000000, base]);
    expect(changes.queries.up.some((step) => typeof step === 'string' && /CREATE INDEX/.test(step))).toBe(true);
    const indexed = await load('Indexed', 1000000000002, changes);
    const rows = [
      { id: 1, label: 'a' },
      { id: 2, label: null },
    ];
    const result = await migrate(
      [Start1000000000000, base],
      [Start1000000000000, base, indexed],
      rows,
      'SELECT id, label FROM generator_probe ORDER BY id',
    );
    expect(result).toEqual({ rows, error: undefined });
  });

  it('refuses a rename, naming the statement to write by hand, which then keeps the values', async () => {
    const base = await baseTable();
    const { label, ...rest } = BASE;
    const renamed = probe({ ...rest, title: label });
    const refused = await generate(renamed, [Start1000000000000, base]);
    expect(refused.refusals).toEqual([
      'generator_probe.label is gone and generator_probe.title is new: a rename cannot be told from a drop and an add ' +
        '(which loses the values). Write a migration by hand for each driver: ALTER TABLE generator_probe RENAME ' +
        'COLUMN label TO <new name>.',
    ]);
    // The step the refusal names, written by hand: the same statement on both databases.
    class Rename1000000000002 implements MigrationInterface {
      name = 'Rename1000000000002';
      async up(queryRunner: { query(sql: string): Promise<unknown> }): Promise<void> {
        await queryRunner.query('ALTER TABLE generator_probe RENAME COLUMN label TO title');
      }
      async down(queryRunner: { query(sql: string): Promise<unknown> }): Promise<void> {
        await queryRunner.query('ALTER TABLE generator_probe RENAME COLUMN title TO label');
      }
    }
    const result = await migrate(
      [Start1000000000000, base],
      [Start1000000000000, base, Rename1000000000002],
      [
        { id: 1, label: 'kept' },
        { id: 2, label: null },
      ],
      'SELECT id, title FROM generator_probe ORDER BY id',
    );
    expect(result).toEqual({
      rows: [
        { id: 1, title: 'kept' },
        { id: 2, title: null },
      ],
      error: undefined,
    });
    // And the entities then match what the migrations build.
    const after = await generate(renamed, [Start1000000000000, base, Rename1000000000002]);
    expect(after.queries.up).toEqual([]);
  });

  it('refuses a dropped column, a narrower integer, another type change and NOT NULL without a default', async () => {
    const base = await baseTable();
    const history = [Start1000000000000, base];
    const { label: _label, ...withoutLabel } = BASE;
    expect((await generate(probe(withoutLabel), history)).refusals).toEqual([
      'generator_probe.label would be dropped with its values: write that migration by hand ' +
        '(ALTER TABLE generator_probe DROP COLUMN label) once nothing needs them.',
    ]);
    expect((await generate(probe({ ...BASE, qty: { type: 'smallint', default: 0 } }), history)).refusals).toEqual([
      expect.stringMatching(/^generator_probe.qty narrows from (int|integer) to smallint, which would cut values/),
    ]);
    expect((await generate(probe({ ...BASE, label: { type: 'int', nullable: true } }), history)).refusals).toEqual([
      expect.stringMatching(/^generator_probe.label changes type from varchar to (int|integer), which the generator/),
    ]);
    expect(
      (await generate(probe({ ...BASE, label: { type: 'varchar', length: 500, nullable: false } }), history)).refusals,
    ).toEqual([expect.stringMatching(/^generator_probe.label becomes NOT NULL without a default/)]);
  });
});

describe.runIf(TEST_DATABASE === 'sqlite')('without a MySQL server', () => {
  it('npm run migration:generate says so in one line: no stack trace, nothing written', async () => {
    const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        'npm',
        ['run', '-s', 'migration:generate', '--', 'tickets', 'Nothing'],
        { cwd: ROOT, env: childEnv({ MIGRATION_MYSQL_URL: 'mysql://root@127.0.0.1:1' }), timeout: 60_000 },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
    expect(result).toEqual({
      code: 0,
      stdout: expect.stringMatching(
        /^No changes on SQLite; MySQL not compared \(no server at mysql:\/\/root@127\.0\.0\.1:1: [^\n]*ECONNREFUSED[^\n]*\)\. Nothing written\.\n$/,
      ) as unknown,
      stderr: '',
    });
  });

  it('answers why in one line, with no stack trace', async () => {
    const outcome = await mysqlChanges('mysql://root@127.0.0.1:1', probe(BASE), {
      sqlite: [Start1000000000000],
      mysql: [Start1000000000000],
    });
    expect(outcome).toEqual({ kind: 'unreachable', reason: expect.stringMatching(/ECONNREFUSED/) });
    expect((outcome as { reason: string }).reason).not.toMatch(/\n/);
  });
});
