import type { Feature } from '../../src/features.js';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { createApp } from '../../src/app.setup.js';
import { loadConfig, type AppConfig } from '../../src/config/app-config.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

export const TEST_USER = 'tester';
export const TEST_PASSWORD = 'correct horse: battery staple';

export function basicHeader(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
}

export const AUTH = basicHeader(TEST_USER, TEST_PASSWORD);

export interface TestApp {
  readonly app: NestExpressApplication;
  readonly config: AppConfig;
  /** http://127.0.0.1:<port>, the app listening on an OS-chosen port. */
  readonly baseUrl: string;
  /** Every log line the app wrote, parsed (LOG_LEVEL defaults to trace here). */
  readonly logs: Record<string, unknown>[];
  /** The raw log output, for greps. */
  logText(): string;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Features added to the service's own, as a line in src/features.ts would add them (throwaway-module). */
  readonly features?: readonly Feature[];
  /**
   * 'production': passwords hashed at the service's own cost (OWASP's scrypt, 0.3 s of CPU each),
   * for tests of the hashing itself: the stored parameters, the cost an unknown user pays, and
   * checks that must still be running when other requests arrive (one hash shared by concurrent
   * requests, the bound on concurrent hashes, failures counted while in flight). By default a
   * test app hashes at a cost of about a millisecond (scrypt N=2^10): rate limits, the credential
   * cache's rules and everything else pay no hash worth the name.
   */
  readonly hashing?: 'production' | 'cheap';
}

/** For a describe whose tests are about hashing: `useTestApp(env, PRODUCTION_HASHING)`. */
export const PRODUCTION_HASHING: TestAppOptions = { hashing: 'production' };

/** scrypt at N=2^10, r=8, p=1: 1 MiB and about a millisecond, for tests that do not test hashing. */
export const CHEAP_HASHING = { logN: 10, r: 8, p: 1 } as const;

/** Environment variables for the app; a function when they are known only in beforeAll. */
export type TestAppEnv = Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);

/**
 * Starts the service exactly as main.ts does (createApp: same module, pipeline, body handling and
 * OpenAPI), on a fresh database with the real migrations (SQLite, or MySQL in the e2e-mysql
 * project: see test-database.ts), listening on port 0, with `options.features` added to the
 * service's own. Pass environment variables to override;
 * with a DATABASE_URL of your own, the database is yours to clean up. Only one app per test
 * file should be open at a time: @nestjs/passport registers strategies in passport's
 * process-wide registry.
 */
export async function createTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const database: TestDatabase | undefined = env.DATABASE_URL ? undefined : await createTestDatabase();
  const loaded = loadConfig({
    DATABASE_URL: database?.url ?? '',
    DB_MIGRATIONS_RUN: 'true',
    ADMIN_USERNAME: TEST_USER,
    ADMIN_PASSWORD: TEST_PASSWORD,
    LOG_LEVEL: 'trace',
    // High enough that tests which send many bad credentials do not trip the 429.
    AUTH_FAILURE_LIMIT: '100000',
    AUTH_FAILURE_ADDRESS_LIMIT: '100000',
    // The suite runs in any museum zone (CI runs the date-sensitive files in Paris on a DST day);
    // a test that needs one sets it.
    ...(process.env.MUSEUM_TIME_ZONE === undefined ? {} : { MUSEUM_TIME_ZONE: process.env.MUSEUM_TIME_ZONE }),
    // Test mode on MySQL asks for the database's name a second time: this one is the test's own.
    ...(database?.name === undefined ? {} : { TEST_MODE_DATABASE: database.name }),
    ...env,
  });
  const config =
    options.hashing === 'production' ? loaded : { ...loaded, auth: { ...loaded.auth, passwordHashing: CHEAP_HASHING } };
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      callback();
    },
  });
  let app: NestExpressApplication;
  try {
    app = await createApp(config, { logDestination: sink, features: options.features });
  } catch (error) {
    await database?.drop();
    throw error;
  }
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return {
    app,
    config,
    baseUrl: `http://127.0.0.1:${port}`,
    get logs() {
      return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    logText: () => lines.join('\n'),
    async close() {
      await app.close();
      await database?.drop();
    },
  };
}

/**
 * The set-up every e2e describe needs, registered in the calling describe (or file): the app of
 * createTestApp(env, options) before all its tests, spies restored after each test (a spy one
 * test sets never reaches the next), the app closed after all. `env` may be a function, called in
 * beforeAll, for what only an earlier hook knows (a database, a proxy's port). The handle's
 * properties read the app of the moment, so they may be used in tests and hooks but not while
 * the describe is collected. Hooks registered after this call run after the app has started, and
 * their afterAll before it closes (vitest's default sequence.hooks, 'stack').
 */
export function useTestApp(env: TestAppEnv = {}, options: TestAppOptions = {}): TestApp {
  let started: TestApp | undefined;
  const app = (): TestApp => {
    if (started === undefined) throw new Error('useTestApp: no app yet (read it in a test or a later hook)');
    return started;
  };
  beforeAll(async () => {
    started = await createTestApp(typeof env === 'function' ? await env() : env, options);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  const close = async (): Promise<void> => {
    const closing = started;
    started = undefined;
    await closing?.close();
  };
  afterAll(close);
  return {
    get app() {
      return app().app;
    },
    get config() {
      return app().config;
    },
    get baseUrl() {
      return app().baseUrl;
    },
    get logs() {
      return app().logs;
    },
    logText: () => app().logText(),
    close,
  };
}
