/**
 * `npm run bench`: how fast the service is, next to a bare Express server doing the least any
 * implementation must do (parse the JSON body, make a UUIDv7, answer), and next to a bare NestJS
 * app doing the same (the floor: how much of the gap to Express is Nest itself). Anyone can run it:
 *
 *   npm run bench                    # full run (~10 minutes on 2 cores)
 *   npm run bench -- --quick         # the harness end to end in under two minutes
 *   npm run bench -- --help          # every option
 *
 * What it does, in one process that stops everything it started (also on Ctrl-C):
 * - compiles the service (tsc, into .test-build/bench, with the e2e tests' helper) and starts it as `node main.js`, like
 *   production, with its JSON log lines going to a file in a temp dir;
 * - pins itself (autocannon runs in-process) to core 0 and every server to core 1 (taskset);
 * - drives workloads with autocannon (50 connections): `create` (POST, valid Basic
 *   credentials, 201), `delete` (DELETE of events seeded straight into the database before each
 *   run, 204), `auth-fail` (POST with a wrong password, 401; the baseline and the floor have
 *   no auth: 201), and on the baseline, the service and (but `update`) the mandated stack's floor
 *   `get`, `list` (a first page of 20 in a date range) and `update` (PATCH of a price), on events
 *   seeded once per server with the body
 *   the baseline answers with (servers/bodies.ts); each a discarded warm-up, then measured runs whose medians are reported
 *   (req/s, p50, p99), with the server's peak RSS (VmRSS every 100 ms) and its idle RSS (VmRSS
 *   read once, 1 s after it was ready, before any load). Every server is started first and their
 *   runs alternate (run 1 of each, then run 2 of each…): ratios are the medians of run-by-run
 *   ratios, each between two runs made seconds apart on a machine whose speed drifts;
 * - on SQLite, and on MySQL/MariaDB when MYSQL_TEST_URL (default mysql://root@127.0.0.1:3306)
 *   answers, in a database created for the run and dropped at the end;
 * - beside the service on each database, the mandated stack's floor (servers/mandated-floor.ts: the
 *   design card's Nest + Passport + class-validator + TypeORM doing the contract's minimum, on a
 *   database of its own): a target it misses too is out of reach on that stack;
 * - again with 1,000,000 stored events (--events), in alternation with a second service on an
 *   empty table of the same kind (the control), to compare latency run by run: create, delete,
 *   get, list, update and `list-deep` (the page 50 `next` links deep); the list's query plans on
 *   the large table are printed and judged (test/helpers/query-plan.ts);
 * - on the service on each database, `buy-ticket` (POST /tickets, an event ticket for one of 100
 *   events without a capacity) in alternation with `create`: the purchase's share of a create's req/s;
 * - start-to-ready (spawn to the first 200 of GET /health/ready; restarts with and without
 *   ADMIN_USERNAME/ADMIN_PASSWORD, which cost a scrypt check at start), and the password hashes that
 *   50 concurrent first requests and 10 repeated wrong ones cost (auth_password_checks_total).
 *
 * It prints a markdown table and the issue's targets (PASS/FAIL) to standard output, progress to
 * standard error, and writes everything to bench/results/<timestamp>.json and latest.json.
 * Exit code: 0 when the benchmark completed, whatever the targets; 1 when something broke (a
 * server did not start, unexpected statuses, errors or timeouts); 2 for a bad option.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, release, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildService } from '../test/helpers/built-service.js';
import { ROOT } from '../test/helpers/service-process.js';
import { onCleanup, runCleanup } from './servers/cleanup.js';
import {
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  AUTH_FAILURE_ADDRESS_LIMIT,
  AUTH_FAILURE_LIMIT,
  AUTH_FAILURE_WINDOW_SECONDS,
  MYSQL_TEST_URL,
  mysqlDatabase,
  mysqlProblem,
  serviceEnv,
  sqliteDatabase,
  VALID_AUTHORIZATION,
  WRONG_AUTHORIZATION,
  type BenchDatabase,
} from './servers/databases.js';
import {
  measureIdempotencyCost,
  measureSingleFlight,
  measureStartup,
  measureTicketCost,
  measureWebhookCost,
} from './measure/service.js';
import { measureInterleaved, runsWorkload, type Plan, type Subject } from './measure/interleave.js';
import { HELP, parseOptions, UsageError, type BenchOptions } from './measure/options.js';
import {
  compareFloor,
  evaluateTargets,
  renderReport,
  stackOf,
  writeJson,
  type BenchReport,
  type ReferenceLabel,
  type ServerLabel,
} from './report/report.js';
import { listPlans } from './measure/plans.js';
import { countEvents, seedEvents } from './workloads/seed.js';
import {
  IDLE_RSS_AFTER_MS,
  idleRssMiB,
  pinSelf,
  ServerProcess,
  waitReady,
  type Pinning,
  type StartedServer,
} from './servers/process.js';
import { LARGE_TABLE_ONLY, LARGE_TABLE_WORKLOADS, SERVICE_ONLY } from './measure/load.js';

const RESULTS_DIR = join(ROOT, 'bench', 'results');

interface Setup {
  readonly options: BenchOptions;
  readonly plan: Plan;
  readonly pinning: Pinning;
  /** Temp dir: SQLite files and server logs, removed at the end. */
  readonly dir: string;
  readonly report: BenchReport;
}

interface Context extends Setup {
  /** The compiled service's main.js. */
  readonly entry: string;
}

function say(text: string): void {
  process.stderr.write(`${text}\n`);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function gitDescription(): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: ROOT, encoding: 'utf8' }).trim() !== '';
    return `${commit}${dirty ? '+dirty' : ''}`;
  } catch (error) {
    return `unknown (${errorText(error)})`;
  }
}

function cpuModel(): string {
  try {
    return (
      /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ??
      cpus()[0]?.model ??
      'unknown'
    );
  } catch {
    return cpus()[0]?.model ?? 'unknown';
  }
}

function subjectOf(
  context: Context,
  label: Subject['label'],
  server: StartedServer,
  database?: BenchDatabase,
): Subject {
  return {
    label,
    server,
    ...(database ? { database } : {}),
    validAuthorization: VALID_AUTHORIZATION,
    wrongAuthorization: WRONG_AUTHORIZATION,
    seeding: context.report.seeding,
  };
}

/** Starts a server and waits until GET /health/ready answers 200 (stopping it if it never does). */
async function startReady(
  context: Context,
  name: string,
  nodeArgs: string[],
  env: Record<string, string>,
): Promise<StartedServer> {
  const server = await ServerProcess.start({
    name,
    nodeArgs,
    env,
    logFile: join(context.dir, `${name.replace(/\W+/g, '-')}.log`),
    pinning: context.pinning,
  });
  try {
    await waitReady(server.port, 30_000, 20, () => server.process.running);
  } catch (error) {
    await server.stop();
    throw new Error(`${name}: ${errorText(error)}\n${server.process.logTail()}`, { cause: error });
  }
  return server;
}

function startService(context: Context, database: BenchDatabase, name: string): Promise<StartedServer> {
  return startReady(context, name, [context.entry], serviceEnv(database.url, database.env));
}

/** Reads and records the idle RSS of a server that just became ready. */
async function recordIdleRss(context: Context, label: ServerLabel, server: StartedServer): Promise<void> {
  const mib = await idleRssMiB(server);
  context.report.idleRss.push({ server: label, ...(mib === undefined ? {} : { mib }), afterIdleMs: IDLE_RSS_AFTER_MS });
  say(`  idle RSS after ${IDLE_RSS_AFTER_MS} ms: ${mib === undefined ? 'unreadable' : `${mib.toFixed(1)} MiB`}`);
}

const REFERENCES: Readonly<Record<ReferenceLabel, { readonly title: string; readonly script: string }>> = {
  baseline: { title: 'bare Express 5 (baseline)', script: 'baseline.ts' },
  'nest-floor': { title: 'bare NestJS 12 on platform-express (floor)', script: 'nest-floor.ts' },
};

/** A reference server, started like any other (pinned, its own process). */
async function startReference(context: Context, label: ReferenceLabel): Promise<StartedServer> {
  const reference = REFERENCES[label];
  say(`\n# Starting ${reference.title}`);
  const server = await ServerProcess.start({
    name: label,
    nodeArgs: ['--import', 'tsx', join(ROOT, 'bench', 'servers', reference.script)],
    env: {},
    logFile: join(context.dir, `${label}.log`),
    pinning: context.pinning,
  });
  await recordIdleRss(context, label, server);
  return server;
}

/**
 * The mandated stack's floor (servers/mandated-floor.ts) on a database of its own of the same
 * kind: the same user, seeded and deleted like the service's.
 */
async function startStackFloor(context: Context, database: BenchDatabase): Promise<StartedServer> {
  const label = stackOf(database.kind);
  say(`\n# Starting the mandated stack's floor on ${database.kind}`);
  const server = await startReady(
    context,
    label,
    ['--import', 'tsx', join(ROOT, 'bench', 'servers', 'mandated-floor.ts')],
    {
      DATABASE_URL: database.url,
      ADMIN_USERNAME,
      ADMIN_PASSWORD,
    },
  );
  await recordIdleRss(context, label, server);
  return server;
}

/** The service on a database; single-flight is measured first, while nothing has authenticated. */
async function startDatabaseService(
  context: Context,
  database: BenchDatabase,
  singleFlight: boolean,
): Promise<StartedServer> {
  say(`\n# Starting the service on ${database.kind}`);
  const server = await startService(context, database, `service-${database.kind}`);
  await recordIdleRss(context, database.kind, server);
  if (singleFlight) {
    const result = await measureSingleFlight(server, VALID_AUTHORIZATION, WRONG_AUTHORIZATION);
    context.report.singleFlight = result;
    say(
      `  single-flight: ${result.concurrentDelta} password check(s) for ${result.concurrentRequests} concurrent requests, ` +
        `${result.wrongDelta} for ${result.wrongRequests} repeated wrong ones`,
    );
    const unexpected = [
      ...Object.keys(result.concurrentStatuses)
        .filter((status) => status !== '404')
        .map((status) => `${status} (expected 404)`),
      ...Object.keys(result.wrongStatuses)
        .filter((status) => status !== '401')
        .map((status) => `${status} (expected 401)`),
    ];
    if (unexpected.length > 0)
      context.report.problems.push(`single-flight: unexpected statuses ${unexpected.join(', ')}`);
  }
  return server;
}

/**
 * The regular runs: the references, and the service and the mandated stack's floor on every
 * database, all started at once (idle between their turns) and measured in alternation, workload
 * by workload (measureInterleaved).
 */
async function runRegular(context: Context, mysql: BenchDatabase | undefined): Promise<void> {
  const started: StartedServer[] = [];
  const stackMysql = mysql ? await mysqlDatabase() : undefined;
  try {
    const subjects: Subject[] = [];
    for (const label of ['baseline', 'nest-floor'] as const) {
      const server = await startReference(context, label);
      started.push(server);
      subjects.push(subjectOf(context, label, server));
    }
    for (const [database, singleFlight] of [
      [sqliteDatabase(context.dir, 'bench.sqlite'), true],
      ...(mysql ? [[mysql, false] as const] : []),
    ] as const) {
      const server = await startDatabaseService(context, database, singleFlight);
      started.push(server);
      subjects.push(subjectOf(context, database.kind, server, database));
      const stackDatabase = database.kind === 'sqlite' ? sqliteDatabase(context.dir, 'stack.sqlite') : stackMysql;
      if (stackDatabase) {
        const stack = await startStackFloor(context, stackDatabase);
        started.push(stack);
        subjects.push(subjectOf(context, stackOf(database.kind), stack, stackDatabase));
      }
    }
    for (const workload of context.options.only.filter(
      (w) => !LARGE_TABLE_ONLY.includes(w) && !SERVICE_ONLY.includes(w),
    )) {
      const running = subjects.filter((subject) => runsWorkload(subject.label, workload));
      say(`\n# ${workload}: ${running.map((subject) => subject.label).join(', ')}, in alternation`);
      for (const result of await measureInterleaved(running, workload, context.plan)) {
        context.report.results.push(result);
        context.report.problems.push(...result.problems);
      }
    }
    if (context.options.only.includes('create')) {
      for (const subject of subjects) {
        if (subject.database === undefined || (subject.label !== 'sqlite' && subject.label !== 'mysql')) continue;
        for (const [what, measure] of [
          ['with and without an Idempotency-Key', measureIdempotencyCost],
          ['with three webhook subscribers and none', measureWebhookCost],
        ] as const) {
          say(`\n# create ${what} on the service (${subject.label}), in alternation`);
          const { result, problems } = await measure(
            subject.server,
            subject.database,
            VALID_AUTHORIZATION,
            context.plan,
          );
          say(`  ${result.variant} ÷ ${result.plain}: ${result.ratio.toFixed(2)} of the req/s`);
          context.report.createCosts.push(result);
          context.report.problems.push(...problems);
        }
      }
    }
    if (context.options.only.includes('buy-ticket')) {
      for (const subject of subjects) {
        if (subject.database === undefined || (subject.label !== 'sqlite' && subject.label !== 'mysql')) continue;
        say(`\n# buy-ticket against create on the service (${subject.label}), in alternation`);
        const { result, problems } = await measureTicketCost(
          subject.server,
          subject.database,
          VALID_AUTHORIZATION,
          context.plan,
        );
        say(`  ${result.variant} ÷ ${result.plain}: ${result.ratio.toFixed(2)} of the req/s`);
        context.report.createCosts.push(result);
        context.report.problems.push(...problems);
      }
    }
  } finally {
    for (const server of started) await server.stop();
    await stackMysql?.drop();
  }
}

/**
 * The LARGE_TABLE_WORKLOADS on a table seeded with options.events events, against a control: the
 * service on a fresh empty table of the same kind, started beside it and measured in alternation
 * with it (both also hold the read set the reads find, seeded before the first of them).
 */
async function runLargeTable(context: Context, large: BenchDatabase, control: BenchDatabase): Promise<void> {
  const workloads = context.options.only.filter((w) => LARGE_TABLE_WORKLOADS.includes(w));
  if (workloads.length === 0) return;
  const events = context.options.events;
  say(`\n# Service on ${large.kind} with ${events} stored events, against one on an empty table`);
  const started: StartedServer[] = [];
  try {
    const largeServer = await startService(context, large, `service-${large.kind}-large`);
    started.push(largeServer);
    const controlServer = await startService(context, control, `service-${control.kind}-control`);
    started.push(controlServer);
    let shown = 0;
    const seed = await seedEvents(large.url, events, {
      onProgress: (written) => {
        if (written - shown >= 100_000 || written === events) {
          shown = written;
          process.stderr.write(`  seeding ${large.kind}: ${written} / ${events}\n`);
        }
      },
    });
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
    const subjects: Subject[] = [
      { ...subjectOf(context, control.kind, controlServer, control), table: 'control' },
      { ...subjectOf(context, large.kind, largeServer, large), table: 'large', storedEvents: events },
    ];
    for (const workload of workloads) {
      for (const result of await measureInterleaved(subjects, workload, context.plan)) {
        context.report.results.push(result);
        context.report.problems.push(...result.problems);
      }
    }
  } finally {
    for (const server of started) await server.stop();
  }
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

async function benchmark(setup: Setup): Promise<void> {
  say('# Building the service (tsc -p tsconfig.build.json --outDir .test-build/bench)');
  const context: Context = { ...setup, entry: buildService('bench') };
  say('\n# Start-to-ready (SQLite)');
  context.report.startup = await measureStartup(context.entry, context.dir, context.pinning);
  const mysql = await mysqlForRun(context);
  try {
    await runRegular(context, mysql);
  } finally {
    await mysql?.drop();
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
  const report: BenchReport = {
    startedAt: new Date().toISOString(),
    machine: {
      cpu: cpuModel(),
      cores: cpus().length,
      node: process.version,
      kernel: release(),
      loadAverageAtStart: loadavg()[0] ?? 0,
    },
    git: gitDescription(),
    options,
    notes: [
      `pinning: ${pinning.note}${pinning.enabled ? ' (a MySQL/MariaDB server is not pinned: it runs where the OS puts it)' : ''}`,
      `service env: LOG_LEVEL=info (one JSON line per request, to a file), AUTH_FAILURE_LIMIT=${AUTH_FAILURE_LIMIT} and ` +
        `AUTH_FAILURE_ADDRESS_LIMIT=${AUTH_FAILURE_ADDRESS_LIMIT} per AUTH_FAILURE_WINDOW_SECONDS=${AUTH_FAILURE_WINDOW_SECONDS}: auth-fail measures the 401 path, never the 429 limiter ` +
        '(the issue asked for 100000000, above the 1000000 the configuration accepts)',
      "latency: exact percentiles of every response time of a run; req/s: autocannon's mean per-second count; " +
        'medians over the measured runs; peak RSS: largest VmRSS sampled every 100 ms during measured runs; ' +
        `idle RSS: VmRSS read once ${IDLE_RSS_AFTER_MS} ms after the server was ready, before any load; ` +
        'the references run under `node --import tsx`, whose loader (a module-hooks thread, transpiled sources) adds ' +
        'some tens of MiB the compiled service does not carry: compare RSS between the references, not with the service',
      'floor: bare NestJS 12 (platform-express, default body parsers, no pipes/guards/interceptors/filters, logger off) ' +
        "doing the baseline's work through one controller; its ratio is informational, not a target",
      "mandated stack's floor: Nest, a Passport Basic guard whose check is one Map lookup, class-validator DTOs through " +
        "ValidationPipe and the service's TypeORM store (group commit on SQLite, batched statements on MySQL), on a " +
        'database of its own; no request ids, log lines, metrics, security headers, problem details or failure limiter: ' +
        'a ratio or p99 target it misses is out of reach for any service on the mandated stack, on this machine',
      'delete: events seeded straight into the database before each run (unused ones removed after it); the bare references delete random ids',
    ],
    results: [],
    idleRss: [],
    createCosts: [],
    seeding: [],
    plans: [],
    mysql: { ran: false, reason: 'not reached' },
    problems: [],
  };
  const setup: Setup = {
    options,
    plan: {
      connections: options.connections,
      warmupSec: options.warmupSec,
      durationSec: options.durationSec,
      repetitions: options.repetitions,
    },
    pinning,
    dir,
    report,
  };
  say(`# ${pinning.note}`);

  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (interrupted) return;
    interrupted = true;
    say(`\n# ${signal}: stopping every server, dropping MySQL databases, removing temp files`);
    void runCleanup().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  try {
    await benchmark(setup);
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
