import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource, type EntitySchema, type MixedList } from 'typeorm';
import { ConfigError, type DatabaseConfig, parseDatabaseUrl } from '../config/app-config.js';
import { buildDataSourceOptions, DEFAULT_POOL } from './database-options.js';
import { withMysqlCharset } from './migration-files.js';
import type { DriverMigrations } from './migration-history.js';
import {
  type ColumnChange,
  type ColumnShape,
  type Driver,
  droppingStatements,
  type GeneratedQueries,
  keepingValues,
  refusalsOf,
  type TableDiff,
} from './migration-plan.js';

/** Entity classes or glob paths, as TypeORM takes them. */
// oxlint-disable-next-line typescript/no-unsafe-function-type -- TypeORM's own type for an entity class
export type Entities = MixedList<Function | string | EntitySchema>;

/** What one driver's comparison found. */
export interface DriverChanges {
  readonly queries: GeneratedQueries;
  /** Why a migration cannot be generated without losing data; empty when it can. */
  readonly refusals: readonly string[];
}

/** The migration a driver's database needs, or why it could not be asked. */
export type DriverOutcome =
  ({ readonly kind: 'changes' } & DriverChanges) | { readonly kind: 'unreachable'; readonly reason: string };

/** An existing table compared with its entity, in the driver's terms. */
async function tableDiffs(dataSource: DataSource): Promise<TableDiff[]> {
  const runner = dataSource.createQueryRunner();
  try {
    const diffs: TableDiff[] = [];
    for (const metadata of dataSource.entityMetadatas) {
      const table = await runner.getTable(metadata.tablePath);
      if (table === undefined) continue;
      const wanted = metadata.columns;
      const changed: ColumnChange[] = dataSource.driver
        .findChangedColumns(table.columns, wanted)
        .flatMap((column): ColumnChange[] => {
          const old = table.columns.find((existing) => existing.name === column.databaseName);
          if (old === undefined) return [];
          const to: ColumnShape = {
            type: dataSource.driver.normalizeType(column),
            length: dataSource.driver.getColumnLength(column),
            nullable: column.isNullable,
            default: dataSource.driver.normalizeDefault(column),
          };
          return [
            {
              column: old.name,
              from: {
                type: old.type,
                length: old.length,
                nullable: old.isNullable,
                default: old.default as string | undefined,
              },
              to,
            },
          ];
        });
      diffs.push({
        table: table.name,
        dropped: table.columns.filter((c) => !wanted.some((w) => w.databaseName === c.name)).map((c) => c.name),
        added: wanted.filter((w) => !table.columns.some((c) => c.name === w.databaseName)).map((w) => w.databaseName),
        changed,
      });
    }
    return diffs;
  } finally {
    await runner.release();
  }
}

/**
 * The statements that bring a database built by `migrations` up to `entities`, made to keep every
 * value (migration-plan.ts), or the refusals. On a MariaDB server TypeORM must be told so: it reads
 * MariaDB's column defaults (a nullable column's is the text NULL) only under its `mariadb` type,
 * and otherwise proposes to change every such column.
 */
async function driverChanges(
  database: DatabaseConfig,
  entities: Entities,
  migrations: DriverMigrations,
  mariadb = false,
): Promise<DriverChanges> {
  const options = buildDataSourceOptions(database, true, DEFAULT_POOL, migrations);
  const dataSource = new DataSource(
    mariadb && options.type === 'mysql' ? { ...options, type: 'mariadb', entities } : { ...options, entities },
  );
  await dataSource.initialize();
  try {
    const driver: Driver = database.type;
    const diffs = await tableDiffs(dataSource);
    const { upQueries, downQueries } = await dataSource.driver.createSchemaBuilder().log();
    const generated: GeneratedQueries = {
      up: upQueries.map((query) => (driver === 'mysql' ? withMysqlCharset(query.query) : query.query)),
      down: downQueries.reverse().map((query) => query.query),
    };
    const refusals = refusalsOf(diffs);
    if (refusals.length > 0) return { queries: generated, refusals };
    const queries = keepingValues(driver, generated, diffs);
    const dropping = droppingStatements(driver, queries.up);
    return {
      queries,
      refusals: dropping.map((statement) => `this statement would lose data, write it by hand: ${statement}`),
    };
  } finally {
    await dataSource.destroy();
  }
}

/** On a scratch SQLite file, removed afterwards. */
export async function sqliteChanges(entities: Entities, migrations: DriverMigrations): Promise<DriverChanges> {
  const dir = mkdtempSync(join(tmpdir(), 'museum-migration-'));
  try {
    return await driverChanges({ type: 'sqlite', path: join(dir, 'scratch.sqlite') }, entities, migrations);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * On a scratch database of the MySQL server at `serverUrl`, dropped afterwards; 'unreachable'
 * with the driver's reason when the server cannot be reached (no stack trace for a missing server).
 */
export async function mysqlChanges(
  serverUrl: string,
  entities: Entities,
  migrations: DriverMigrations,
): Promise<DriverOutcome> {
  const name = `museum_migration_${randomBytes(4).toString('hex')}`;
  const server = parseDatabaseUrl(`${serverUrl.replace(/\/+$/, '')}/${name}`, 'MIGRATION_MYSQL_URL');
  if (server.type !== 'mysql') throw new ConfigError('MIGRATION_MYSQL_URL', 'must be a mysql:// URL');
  const admin = new DataSource({ ...buildDataSourceOptions({ ...server, database: 'mysql' }), logging: false });
  try {
    await admin.initialize();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const message = error instanceof Error ? error.message : String(error);
    return {
      kind: 'unreachable',
      reason: typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message,
    };
  }
  try {
    await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
    const [{ version }] = (await admin.query('SELECT VERSION() AS version')) as { version: string }[];
    return { kind: 'changes', ...(await driverChanges(server, entities, migrations, /mariadb/i.test(version))) };
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await admin.destroy();
  }
}

/**
 * `source` as Prettier writes it with the project's settings for `path` (the files the generator
 * writes pass the format check). Prettier runs as its command, from the project's dev
 * dependencies: the compiled service imports nothing a production install leaves out.
 */
export function formatted(source: string, path: string): string {
  const prettier = join(import.meta.dirname, '..', '..', 'node_modules', '.bin', 'prettier');
  return execFileSync(prettier, ['--stdin-filepath', path], { input: source, encoding: 'utf8' });
}
