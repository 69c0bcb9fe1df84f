/**
 * The databases the service runs on during the benchmark, and the service's environment: SQLite
 * files in the run's temp dir, MySQL databases with random names dropped at the end.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { MYSQL_TEST_URL, onMysqlServer, probeMysql } from '../../test/helpers/test-database.js';
import { onCleanup } from './cleanup.js';
import { basicAuth } from './http.js';

export type DatabaseKind = 'sqlite' | 'mysql';

export const ADMIN_USERNAME = 'bench';
/** 16+ characters, new each run. */
export const ADMIN_PASSWORD = `bench-${randomBytes(15).toString('base64url')}`;
export const VALID_AUTHORIZATION = basicAuth(ADMIN_USERNAME, ADMIN_PASSWORD);
/** The same wrong credentials on every auth-fail request. */
export const WRONG_AUTHORIZATION = basicAuth(ADMIN_USERNAME, 'not-the-bench-password');

/**
 * The issue asked for AUTH_FAILURE_LIMIT=100000000, above the maximum the service's configuration
 * accepts (1000000, src/config/app-config.ts): the benchmark uses that maximum per 1-second window,
 * more failures than one address can produce here, so auth-fail measures 401s, never the 429 limiter.
 */
export const AUTH_FAILURE_LIMIT = '1000000';
/** The cap across user names from one address (default 50), out of reach in the same way. */
export const AUTH_FAILURE_ADDRESS_LIMIT = '1000000';
export const AUTH_FAILURE_WINDOW_SECONDS = '1';

export function serviceEnv(databaseUrl: string, extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  return {
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_URL: databaseUrl,
    ADMIN_USERNAME,
    ADMIN_PASSWORD,
    LOG_LEVEL: 'info',
    AUTH_FAILURE_LIMIT,
    AUTH_FAILURE_ADDRESS_LIMIT,
    AUTH_FAILURE_WINDOW_SECONDS,
    // The webhook workload's receiver listens here.
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    // For the anonymous workloads (public-read.ts); a request with credentials is served as
    // without it. One client address sends them all: the limit is set out of reach.
    PUBLIC_READ: 'true',
    PUBLIC_RATE_LIMIT: '1000000',
    ...extra,
  };
}

/**
 * The same environment without ADMIN_USERNAME/ADMIN_PASSWORD (childEnv scrubs them from the
 * benchmark's own environment too): a restart on a database that already has users then hashes
 * nothing at start, where with them set it checks the admin's password with scrypt.
 */
export function withoutAdmin(env: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter(([name]) => name !== 'ADMIN_USERNAME' && name !== 'ADMIN_PASSWORD'),
  );
}

export interface BenchDatabase {
  readonly kind: DatabaseKind;
  /** DATABASE_URL of the service and of the seeder. */
  readonly url: string;
  /** Extra environment of the service on it. */
  readonly env: Readonly<Record<string, string>>;
  drop(): Promise<void>;
}

/** A new SQLite file (created and migrated by the service's first start) in `dir`. */
export function sqliteDatabase(dir: string, file: string): BenchDatabase {
  return { kind: 'sqlite', url: `sqlite:${join(dir, file)}`, env: {}, drop: () => Promise.resolve() };
}

/** mysqlProblem(): null when the MySQL server at MYSQL_TEST_URL answers, else why not. */
export { MYSQL_TEST_URL, probeMysql as mysqlProblem };

/** `CREATE DATABASE bench_<random> CHARACTER SET utf8mb4`, dropped by drop() or at clean-up. */
export async function mysqlDatabase(): Promise<BenchDatabase> {
  const name = `bench_${randomBytes(6).toString('hex')}`;
  await onMysqlServer(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`);
  const drop = onCleanup(`drop MySQL database ${name}`, () => onMysqlServer(`DROP DATABASE IF EXISTS \`${name}\``));
  return { kind: 'mysql', url: `${MYSQL_TEST_URL}/${name}`, env: { DB_MIGRATIONS_RUN: 'true' }, drop };
}
