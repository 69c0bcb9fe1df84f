/**
 * `npm run bench`: how fast the service is, next to a bare Express server doing the least any
 * implementation must do (parse the JSON body, make a UUIDv7, answer), a bare NestJS app doing the
 * same (the floor: how much of the gap to Express is Nest itself) and, on each database, the
 * mandated stack's floor (servers/mandated-floor.ts: a target it misses too is out of reach on that
 * stack). Anyone can run it:
 *
 *   npm run bench                    # full run (about an hour on 2 cores, ~35 minutes with --skip-large)
 *   npm run bench -- --quick         # the harness end to end in about five minutes
 *   npm run bench -- --help          # every option
 *
 * What it does, in one process that stops everything it started (also on Ctrl-C; README.md names
 * the parts):
 * - compiles the service (tsc, into .test-build/service-<run>, with the e2e tests' helper) and starts it as
 *   `node main.js`, like production, with its JSON log lines going to a file in a temp dir;
 * - pins itself (autocannon runs in-process) to core 0 and every server to core 1 (taskset);
 * - start-to-ready (spawn to the first 200 of GET /health/ready; restarts with and without
 *   ADMIN_USERNAME/ADMIN_PASSWORD, which cost a scrypt check at start), and the password hashes that
 *   50 concurrent first requests and 10 repeated wrong ones cost (auth_password_checks_total);
 * - on SQLite, and on MySQL/MariaDB when MYSQL_TEST_URL (default mysql://root@127.0.0.1:3306)
 *   answers, in databases created for the run and dropped at the end, starts every server at once
 *   and runs each workload of workloads/ (create, delete, auth-fail, get, list, update,
 *   museum-hours; 50 connections) on the servers it names, their runs alternating: a discarded
 *   warm-up of each, then run 1 of each, run 2 of each… Medians of req/s, p50 and p99 are reported
 *   with the server's peak RSS (VmRSS every 100 ms) and its idle RSS (read once, 1 s after it was
 *   ready, before any load); ratios are medians of run-by-run ratios, each between two runs made
 *   seconds apart on a machine whose speed drifts;
 * - then on each service the alternations of workloads/ (buy-ticket against create; creates with a
 *   new Idempotency-Key, and with three webhook subscribers, against plain creates): a share of
 *   the plain side's req/s, run by run;
 * - the soak (measure/soak.ts): on each database a service alone under a mixed load (create, get,
 *   update, list, delete) for --soak seconds (300), its heap read after a full collection once warm
 *   and every ~30 s to the end;
 * - again with 1,000,000 stored events (--events), in alternation with a second service on an
 *   empty table of the same kind (the control), to compare latency run by run: the workloads marked
 *   largeTable (list-deep: the page 50 `next` links deep); the list's query plans on the large
 *   table are printed and judged (test/helpers/query-plan.ts).
 *
 * It prints a markdown table and the issue's targets (PASS/FAIL) to standard output, progress to
 * standard error, and writes everything to bench/results/<timestamp>.json and latest.json.
 * Exit code: 0 when the benchmark completed, whatever the targets; 1 when something broke (a
 * server did not start, unexpected statuses, errors or timeouts); 2 for a bad option.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildService } from '../test/helpers/built-service.js';
import { ROOT } from '../test/helpers/service-process.js';
import { measureAlternation } from './measure/alternate.js';
import { measureInterleaved } from './measure/interleave.js';
import { HELP, parseOptions, UsageError, type BenchOptions } from './measure/options.js';
import { listPlans } from './measure/plans.js';
import { IDLE_RSS_AFTER_MS, idleRssMiB } from './measure/rss.js';
import { measureSingleFlight } from './measure/single-flight.js';
import { measureSoak } from './measure/soak.js';
import { measureStartup } from './measure/startup.js';
import { renderReport } from './report/markdown.js';
import { newReport, writeJson, type BenchReport } from './report/report.js';
import { compareFloor, evaluateTargets } from './report/targets.js';
import { cleanUpOnSignals, onCleanup, runCleanup } from './servers/cleanup.js';
import {
  MYSQL_TEST_URL,
  mysqlDatabase,
  mysqlProblem,
  sqliteDatabase,
  type BenchDatabase,
} from './servers/databases.js';
import { errorText } from './servers/http.js';
import { pinSelf, waitReady, type Pinning, type ServerProcess } from './servers/process.js';
import { roleOf, startServer, stackOf, titleOf, type ServerLabel } from './servers/start.js';
import { ALTERNATIONS, WORKLOADS, type WorkloadName } from './workloads/index.js';
import { countEvents, progressEvery100k, seedEvents } from './workloads/seed.js';
import type { Subject, Workload } from './workloads/workload.js';

const RESULTS_DIR = join(ROOT, 'bench', 'results');

interface Context {
  readonly options: BenchOptions;
  readonly pinning: Pinning;
  /** Temp dir: SQLite files and server logs, removed at the end. */
  readonly dir: string;
  readonly report: BenchReport;
  /** The compiled service's main.js. */
  readonly entry: string;
}

function say(text: string): void {
  process.stderr.write(`${text}\n`);
}

/** The registry's workloads that --only selected, in its order. */
function selected(context: Context): typeof WORKLOADS {
  return WORKLOADS.filter((workload) => context.options.only.includes(workload.name));
}

/** Several servers' runs of one workload in turn (measureInterleaved), their results recorded. */
async function interleave(
  context: Context,
  subjects: readonly Subject[],
  workload: Workload<WorkloadName>,
): Promise<void> {
  for (const result of await measureInterleaved(subjects, workload, context.options)) {
    context.report.results.push(result);
    context.report.problems.push(...result.problems);
  }
}

/** A server of the regular runs, started, with its idle RSS recorded before any load. */
async function startRegular(context: Context, label: ServerLabel, database?: BenchDatabase): Promise<Subject> {
  say(`\n# Starting ${titleOf(label)}`);
  const server = await startServer(context, label, database);
  const mib = await idleRssMiB(server);
  context.report.idleRss.push({ server: label, ...(mib === undefined ? {} : { mib }), afterIdleMs: IDLE_RSS_AFTER_MS });
  say(`  idle RSS after ${IDLE_RSS_AFTER_MS} ms: ${mib === undefined ? 'unreadable' : `${mib.toFixed(1)} MiB`}`);
  return { label, server, ...(database ? { database } : {}), seeding: context.report.seeding };
}

/**
 * The regular runs: the references, and the service and the mandated stack's floor on every
 * database, all started at once (idle between their turns) and measured in alternation, workload
 * by workload (measureInterleaved); then the alternations on each service (measureAlternation).
 * Single-flight is measured on the SQLite service first, while nothing has authenticated.
 */
async function runRegular(context: Context, mysql: BenchDatabase | undefined): Promise<void> {
  const subjects: Subject[] = [];
  const stackMysql = mysql ? await mysqlDatabase() : undefined;
  try {
    for (const label of ['baseline', 'nest-floor'] as const) subjects.push(await startRegular(context, label));
    const databases: [BenchDatabase, BenchDatabase][] = [
      [sqliteDatabase(context.dir, 'bench.sqlite'), sqliteDatabase(context.dir, 'stack.sqlite')],
    ];
    if (mysql && stackMysql) databases.push([mysql, stackMysql]);
    for (const [database, stackDatabase] of databases) {
      const service = await startRegular(context, database.kind, database);
      if (database.kind === 'sqlite') {
        const { result, problems } = await measureSingleFlight(service.server);
        context.report.singleFlight = result;
        say(
          `  single-flight: ${result.concurrentDelta} password check(s) for ${result.concurrentRequests} concurrent requests, ` +
            `${result.wrongDelta} for ${result.wrongRequests} repeated wrong ones`,
        );
        context.report.problems.push(...problems);
      }
      subjects.push(service);
      subjects.push(await startRegular(context, stackOf(database.kind), stackDatabase));
    }
    for (const workload of selected(context)) {
      const running = subjects.filter((subject) => workload.servers.includes(roleOf(subject.label)));
      if (running.length === 0) continue;
      say(`\n# ${workload.name}: ${running.map((subject) => subject.label).join(', ')}, in alternation`);
      await interleave(context, running, workload);
    }
    for (const workload of selected(context)) {
      for (const service of subjects.filter((subject) => roleOf(subject.label) === 'service')) {
        for (const alternation of ALTERNATIONS.filter((a) => a.when === workload)) {
          say(
            `\n# ${alternation.variant} against ${alternation.plain} on the service (${service.label}), in alternation`,
          );
          const { result, problems } = await measureAlternation(service, alternation, context.options);
          say(`  ${result.variant} ÷ ${result.plain}: ${result.ratio.toFixed(2)} of the req/s`);
          context.report.createCosts.push(result);
          context.report.problems.push(...problems);
        }
      }
    }
  } finally {
    for (const subject of subjects) await subject.server.stop();
    await stackMysql?.drop();
  }
}

/**
 * The large-table workloads on a table seeded with options.events events, against a control: the
 * service on a fresh empty table of the same kind, started beside it and measured in alternation
 * with it (both also hold the read set the reads find, seeded before the first of them).
 */
async function runLargeTable(context: Context, large: BenchDatabase, control: BenchDatabase): Promise<void> {
  const workloads = selected(context).filter((workload) => workload.largeTable);
  if (workloads.length === 0) return;
  const events = context.options.events;
  say(`\n# Service on ${large.kind} with ${events} stored events, against one on an empty table`);
  const servers: ServerProcess[] = [];
  try {
    const largeServer = await startServer(context, large.kind, large, `service-${large.kind}-large`);
    servers.push(largeServer);
    const controlServer = await startServer(context, control.kind, control, `service-${control.kind}-control`);
    servers.push(controlServer);
    const onProgress = progressEvery100k(events, `seeding ${large.kind}: `);
    const seed = await seedEvents(large.url, events, { onProgress });
    context.report.seeding.push({ database: large.kind, purpose: 'large table', count: events, ms: seed.ms });
    say(
      `  seeded ${events} events in ${(seed.ms / 1000).toFixed(1)} s; the table holds ${await countEvents(large.url)}`,
    );
    for (const plan of await listPlans(large.url, events)) {
      context.report.plans.push(plan);
      say(
        `  plan, ${plan.name}:\n    ${plan.lines.join('\n    ')}${plan.problems.length > 0 ? `\n  !!! ${plan.problems.join('; ')}` : ''}`,
      );
    }
    await waitReady(largeServer.port, 10_000);
    const seeding = context.report.seeding;
    const subjects: Subject[] = [
      { label: control.kind, server: controlServer, database: control, seeding, table: 'control' },
      { label: large.kind, server: largeServer, database: large, seeding, table: 'large', storedEvents: events },
    ];
    for (const workload of workloads) await interleave(context, subjects, workload);
  } finally {
    for (const server of servers) await server.stop();
  }
}

/**
 * The soak (issue 27): a service alone on a new database under a mixed load for --soak seconds,
 * its heap read after a full collection once warm and at the end.
 */
async function runSoak(context: Context, database: BenchDatabase): Promise<void> {
  const { soakSec, warmupSec, connections } = context.options;
  if (soakSec === 0) return;
  const warm = Math.max(warmupSec, Math.min(30, Math.ceil(soakSec / 10)));
  say(`\n# Soak on ${database.kind}: ${warm} s of warm-up, then ${soakSec} s of create, get, update, list, delete`);
  const result = await measureSoak({
    database,
    entry: context.entry,
    dir: context.dir,
    pinning: context.pinning,
    warmupSec: warm,
    durationSec: soakSec,
    samples: Math.min(10, Math.max(2, Math.round(soakSec / 30))),
    connections,
  });
  context.report.soak.push(result);
  say(
    `  heap after warm-up ${result.samples[0]?.heapUsedMiB.toFixed(1)} MiB, at the end ${result.samples.at(-1)?.heapUsedMiB.toFixed(1)} MiB ` +
      `(${result.endOverWarm.toFixed(3)}×); ${result.requests} requests, ${result.unexpected} unexpected statuses, ${result.errors} errors`,
  );
  if (result.unexpected > 0 || result.errors > 0)
    context.report.problems.push(
      `soak ${database.kind}: ${result.unexpected} unexpected statuses, ${result.errors} connection errors`,
    );
}

/** A database of its own on MYSQL_TEST_URL, or undefined (and why, in the report) when there is none. */
async function mysqlForRun(context: Context): Promise<BenchDatabase | undefined> {
  if (!context.options.mysql) {
    context.report.mysql = { ran: false, reason: 'skipped with --no-mysql' };
    return undefined;
  }
  const problem = await mysqlProblem();
  if (problem !== null) {
    const reason = `no MySQL server answers at ${MYSQL_TEST_URL} (${problem}); set MYSQL_TEST_URL=mysql://user:pass@host:port to include it`;
    context.report.mysql = { ran: false, reason };
    say(`\n# MySQL SKIPPED: ${reason}`);
    return undefined;
  }
  context.report.mysql = { ran: true };
  return mysqlDatabase();
}

async function benchmark(setup: Omit<Context, 'entry'>): Promise<void> {
  say('# Building the service (tsc -p tsconfig.build.json into .test-build)');
  const context: Context = { ...setup, entry: buildService() };
  say('\n# Start-to-ready (SQLite)');
  if (process.env.BENCH_SKIP_STARTUP === undefined)
    context.report.startup = await measureStartup(context.entry, context.dir, context.pinning);
  const mysql = await mysqlForRun(context);
  try {
    await runRegular(context, mysql);
  } finally {
    await mysql?.drop();
  }
  await runSoak(context, sqliteDatabase(context.dir, 'soak.sqlite'));
  if (mysql) {
    const soakMysql = await mysqlDatabase();
    try {
      await runSoak(context, soakMysql);
    } finally {
      await soakMysql.drop();
    }
  }
  if (context.options.skipLarge) return;
  await runLargeTable(
    context,
    sqliteDatabase(context.dir, 'large.sqlite'),
    sqliteDatabase(context.dir, 'control.sqlite'),
  );
  if (!mysql) return;
  const [large, control] = [await mysqlDatabase(), await mysqlDatabase()];
  try {
    await runLargeTable(context, large, control);
  } finally {
    await large.drop();
    await control.drop();
  }
}

async function main(): Promise<number> {
  let options: BenchOptions | null;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n\n${HELP}`);
    return 2;
  }
  if (options === null) {
    process.stdout.write(HELP);
    return 0;
  }

  const pinning = pinSelf();
  const dir = mkdtempSync(join(tmpdir(), 'museum-bench-'));
  onCleanup('remove the temp dir', () => rmSync(dir, { recursive: true, force: true }));
  const report = newReport(options, pinning);
  say(`# ${pinning.note}`);
  cleanUpOnSignals();

  try {
    await benchmark({ options, pinning, dir, report });
  } catch (error) {
    report.problems.push(`FATAL: ${errorText(error)}`);
    say(`\n!!! The benchmark broke: ${errorText(error)}`);
  } finally {
    await runCleanup();
  }

  report.finishedAt = new Date().toISOString();
  report.targets = evaluateTargets(report);
  report.floor = compareFloor(report);
  const file = writeJson(report, RESULTS_DIR);
  process.stdout.write(`\n${renderReport(report)}\nJSON: ${file} (and bench/results/latest.json)\n`);
  if (report.problems.length > 0) {
    say(`\n!!! ${report.problems.length} problem(s): see "PROBLEMS" above; exit code 1`);
    return 1;
  }
  return 0;
}

process.exitCode = await main();
// Everything was stopped; should a handle still be open, do not hang on it.
setTimeout(() => {
  say('a handle kept the process alive after the benchmark: exiting');
  process.exit();
}, 5000).unref();
