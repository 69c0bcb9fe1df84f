import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';

export type TestDatabaseKind = 'sqlite' | 'mysql';

/** Which database the e2e suite runs on; vitest.config.ts sets it per project. */
export const TEST_DATABASE: TestDatabaseKind = process.env.TEST_DATABASE === 'mysql' ? 'mysql' : 'sqlite';

/** A MySQL/MariaDB server the tests may create databases on; `off` runs no MySQL test. */
export const MYSQL_TEST_URL = (process.env.MYSQL_TEST_URL ?? 'mysql://root@127.0.0.1:3306').replace(/\/+$/, '');

/** The start of every database name the tests create (and drop) on that server. */
export const MYSQL_TEST_DB_PREFIX = process.env.MYSQL_TEST_DB_PREFIX ?? 'museum_test_';

export interface TestDatabase {
  readonly kind: TestDatabaseKind;
  /** A DATABASE_URL for the service. */
  readonly url: string;
  /** MySQL only: the database's name on the server. */
  readonly name?: string;
  drop(): Promise<void>;
}

/**
 * A fresh, empty database: a SQLite file in a new temp folder, or a MySQL database with a random
 * name. MySQL databases are created with the latin1 default charset on purpose: the migrations
 * must give every table utf8mb4 whatever the database default is.
 */
export async function createTestDatabase(kind: TestDatabaseKind = TEST_DATABASE): Promise<TestDatabase> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'museum-db-'));
    return {
      kind,
      url: `sqlite:${join(dir, 'events.sqlite')}`,
      drop: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
    };
  }
  const name = `${MYSQL_TEST_DB_PREFIX}${randomBytes(6).toString('hex')}`;
  await onMysqlServer(`CREATE DATABASE \`${name}\` CHARACTER SET latin1 COLLATE latin1_swedish_ci`);
  return {
    kind,
    name,
    url: `${MYSQL_TEST_URL}/${name}`,
    drop: () => onMysqlServer(`DROP DATABASE IF EXISTS \`${name}\``),
  };
}

/**
 * A fresh database made before all tests of the calling describe and dropped after all, for a
 * test that hands its URL to an app or a process of its own. Registered before what uses it, it
 * is dropped after that has stopped (vitest runs afterAll hooks in reverse). Its url and name are
 * there once its beforeAll has run. The hooks are vitest's globals, not imported: vitest.config.ts
 * imports this file too, outside any test run.
 */
export function useTestDatabase(kind: TestDatabaseKind = TEST_DATABASE): TestDatabase {
  let created: TestDatabase | undefined;
  const database = (): TestDatabase => {
    if (created === undefined) throw new Error('useTestDatabase: no database yet (read it in a test or a later hook)');
    return created;
  };
  beforeAll(async () => {
    created = await createTestDatabase(kind);
  });
  afterAll(async () => {
    const dropping = created;
    created = undefined;
    await dropping?.drop();
  });
  return {
    kind,
    get url() {
      return database().url;
    },
    get name() {
      return database().name;
    },
    drop: () => database().drop(),
  };
}

/** Runs one statement on the MySQL server at MYSQL_TEST_URL (no database selected). */
export async function onMysqlServer(sql: string): Promise<void> {
  const connection = await createConnection({ uri: MYSQL_TEST_URL, connectTimeout: 3000 });
  try {
    await connection.query(sql);
  } finally {
    await connection.end();
  }
}

/** Null when a MySQL server answers at MYSQL_TEST_URL, else why not. */
export async function probeMysql(): Promise<string | null> {
  if (MYSQL_TEST_URL === 'off') return 'MYSQL_TEST_URL=off';
  if (!/^[A-Za-z0-9_]{1,40}$/.test(MYSQL_TEST_DB_PREFIX))
    return `MYSQL_TEST_DB_PREFIX must be 1-40 letters, digits or _`;
  try {
    const connection = await createConnection({ uri: MYSQL_TEST_URL, connectTimeout: 3000 });
    await connection.query('SELECT 1');
    await connection.end();
    return null;
  } catch (error) {
    const code = (error as { code?: string }).code;
    return `${code ?? 'error'}: ${error instanceof Error ? error.message : String(error)}`;
  }
}
