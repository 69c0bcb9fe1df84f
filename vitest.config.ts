import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { galeraProblem } from './test/helpers/galera-cluster.js';
import { MYSQL_TEST_URL, probeMysql } from './test/helpers/test-database.js';

/**
 * E2E specs that run as they are on every database (they never assume one): the shared ones at
 * the top of test/, and each feature's in its folder (but MYSQL_ONLY_E2E). test/mysql/ and
 * test/galera/ belong to their own databases, and test/skipped/ stands in for a database that is
 * not there.
 */
const SHARED_E2E = ['test/*.e2e-spec.ts', 'test/!(mysql|galera|skipped|helpers|fixtures)/*.e2e-spec.ts'];
/**
 * E2E specs of the HTTP surface, whose outcome no database changes (the contract's table, the
 * generated clients, the browser, problem details, logging, roles, the security headers): they
 * run once, on SQLite. What differs per database (SQL, pools, migrations, outages) lives in the
 * other files, which run on both.
 */
const DATABASE_AGNOSTIC_E2E = [
  'test/openapi-contract.e2e-spec.ts',
  'test/openapi-examples.e2e-spec.ts',
  'test/*/openapi-examples.e2e-spec.ts',
  'test/browser.e2e-spec.ts',
  'test/door/door.e2e-spec.ts',
  'test/website-example.e2e-spec.ts',
  'test/security.e2e-spec.ts',
  'test/errors.e2e-spec.ts',
  'test/logging.e2e-spec.ts',
  'test/roles.e2e-spec.ts',
  'test/museum-client.e2e-spec.ts',
  'test/typed-client.e2e-spec.ts',
  'test/*/typed-client.e2e-spec.ts',
  'test/readme-walkthrough.e2e-spec.ts',
];
/**
 * E2E specs of a feature that need MySQL (several instances on one database server): with
 * test/mysql/, they run on MySQL only.
 */
const MYSQL_ONLY_E2E = [
  'test/webhooks/two-instances.e2e-spec.ts',
  'test/calendar/two-instances.e2e-spec.ts',
  'test/testing/two-instances.e2e-spec.ts',
  'test/orders/two-instances.e2e-spec.ts',
];
/** E2E specs about the SQLite default path: the README's commands, files, processes. */
const SQLITE_ONLY_E2E = [
  // The example suite of examples/e2e-suite: the service in test mode on in-memory SQLite.
  'examples/e2e-suite/*.e2e-spec.ts',
  'test/service-process.e2e-spec.ts',
  'test/users-cli.e2e-spec.ts',
  'test/deployment.e2e-spec.ts',
  'test/durability.e2e-spec.ts',
  'test/shutdown.e2e-spec.ts',
  'test/sqlite-database-loss.e2e-spec.ts',
  'test/backup.e2e-spec.ts',
  'test/sqlite-power-loss.e2e-spec.ts',
];

export default defineConfig(async () => {
  // Names this run for the files that share one compiled service (test/helpers/built-service.ts).
  process.env.TEST_RUN_ID ??= `${Date.now().toString(36)}-${process.pid}`;
  removeOldBuilds();
  const mysqlProblem = await probeMysql();
  const mysqlSkipped =
    mysqlProblem === 'MYSQL_TEST_URL=off'
      ? 'MYSQL_TEST_URL=off'
      : `no MySQL server answers at ${MYSQL_TEST_URL} (${mysqlProblem})`;
  if (mysqlProblem !== null) {
    if (process.env.MYSQL_TEST_REQUIRED === '1') throw new Error(`MYSQL_TEST_REQUIRED=1 but ${mysqlSkipped}`);
    process.stderr.write(
      `\n[e2e-mysql] SKIPPED: ${mysqlSkipped}.\n` +
        '            Set MYSQL_TEST_URL=mysql://user:pass@host:port to run the e2e suite on MySQL too.\n\n',
    );
  }
  const galeraMissing = galeraProblem();
  if (galeraMissing !== null) {
    if (process.env.GALERA_TEST_REQUIRED === '1') {
      throw new Error(`GALERA_TEST_REQUIRED=1 but this machine cannot run a Galera cluster: ${galeraMissing}`);
    }
    process.stderr.write(`\n[e2e-galera] SKIPPED: this machine cannot run a Galera cluster: ${galeraMissing}.\n\n`);
  }
  const common = { globals: true, testTimeout: 60_000, hookTimeout: 120_000 };
  return {
    test: {
      // One worker more than the cores: much of an e2e file's time waits on sockets, databases and
      // child processes, which a third file fills: on a 2-core machine the whole suite passed with 3
      // workers in about 400 s. Test apps hash cheaply unless they test hashing, so the CPU-bound
      // files no longer time out beside each other.
      maxWorkers: availableParallelism() + 1,
      projects: [
        { test: { ...common, name: 'unit', include: ['src/**/*.spec.ts', 'bench/**/*.spec.ts'] } },
        {
          test: {
            ...common,
            name: 'e2e-sqlite',
            include: [...SHARED_E2E, 'examples/e2e-suite/*.e2e-spec.ts'],
            exclude: MYSQL_ONLY_E2E,
            env: { TEST_DATABASE: 'sqlite' },
          },
        },
        mysqlProblem === null
          ? {
              test: {
                ...common,
                name: 'e2e-mysql',
                include: [...SHARED_E2E, 'test/mysql/*.e2e-spec.ts', ...MYSQL_ONLY_E2E],
                exclude: [...SQLITE_ONLY_E2E, ...DATABASE_AGNOSTIC_E2E],
                env: { TEST_DATABASE: 'mysql' },
              },
            }
          : {
              test: {
                ...common,
                name: 'e2e-mysql',
                include: ['test/skipped/mysql.e2e-spec.ts'],
                env: { MYSQL_SKIP_REASON: mysqlSkipped },
              },
            },
        galeraMissing === null
          ? {
              // Three database servers and three service processes: one file, nothing beside it. It
              // runs after every other project (groupOrder): its on-sale cases hold 64 buyers in
              // flight against a request deadline of 7 s, and beside the rest of the suite (load
              // average ~25 on 2 cores) 10 of 6,000 buyers waited past it and got 503; alone, p99 is
              // 1.1-2.9 s.
              test: {
                ...common,
                name: 'e2e-galera',
                sequence: { groupOrder: 1 },
                include: ['test/galera/*.e2e-spec.ts'],
                env: { TEST_DATABASE: 'mysql' },
              },
            }
          : {
              test: {
                ...common,
                name: 'e2e-galera',
                include: ['test/skipped/galera.e2e-spec.ts'],
                env: { GALERA_SKIP_REASON: galeraMissing },
              },
            },
      ],
    },
  };
});

/** Shared builds of earlier runs (an hour old or more: a run beside this one keeps its own). */
function removeOldBuilds(): void {
  // Under libfaketime (.ci/run's date leg) every build's age is wrong: one made a minute ago may
  // look a year old.
  if (process.env.FAKETIME !== undefined) return;
  const dir = join(import.meta.dirname, '.test-build');
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(dir, name);
    if (name.startsWith('service-') && Date.now() - statSync(path).mtimeMs > 3_600_000)
      rmSync(path, { recursive: true, force: true });
  }
}
