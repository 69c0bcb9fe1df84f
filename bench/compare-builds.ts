/**
 * `npm run bench:compare -- <rev> [rounds] [seconds] [workloads]`: the service as built now against
 * the build at `<rev>` (what a change costs) and against the pinned anchor build of each workload
 * (bench/anchor.ts: what the changes since it cost together, so that steps of 1% that each compare
 * at 1.00 cannot add up unseen), on SQLite, in the same run. Ratios to bare Express measured on
 * different days compare the machines more than the code (the same build did 0.48 of Express on a
 * loaded machine and 0.26 on a quiet one); builds run in alternation on one machine do not.
 *
 * - `<rev>` and each anchor are checked out into temporary git worktrees, compiled with this
 *   checkout's node_modules and TypeScript (their package.json may differ: what is compared is their
 *   code), and every build (this one into .test-build/compare-now) is started as `node main.js`,
 *   pinned to core 1, each on a SQLite file of its own, LOG_LEVEL=info with their logs going to
 *   files, as `npm run bench` starts the service. A `<rev>` that is an anchor runs once.
 * - Workloads (default `create,delete,get,list`): those four as they always were here (POST, 201;
 *   DELETE of ids the creates answered, 204; GET of one of 100 created events; a first list page of
 *   20 in a date range, as `npm run bench` asks for it), sent over HTTP so that any build takes
 *   them; or any workload of `npm run bench` that the service runs (bench/workloads/), set up by
 *   its own `prepare`, or that it measures only in an alternation (`search-tickets-page`,
 *   `buy-general-slotted`): that alternation's variant side, set up by its `open`. A build that does not answer a workload as it expects (a route it does not
 *   have yet) shows n/a for it.
 * - Each round runs each workload for `seconds` on each build in turn, with autocannon in this
 *   process (50 connections, pinned to core 0). One pass per build, each pass starting a different
 *   build first, on new files (the build started first can be slower for a whole run). A pass's
 *   ratio is the median over its rounds of now ÷ other, each pair seconds apart; the answer is the
 *   geometric mean of the passes' ratios. The p99 ratio is taken the same way.
 *
 * - `BENCH_COMPARE_DATABASE=mysql`: on MySQL/MariaDB at MYSQL_TEST_URL instead, each build on a
 *   database of its own, created for the pass and dropped after it.
 *
 * Prints one line per run to standard error, and to standard output the table and under it each
 * target, met or not (report/compare-targets.ts: no slower than the build before nor the anchor,
 * and issue 50's). Stops everything it started, the worktrees included.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import { copyAssets } from '../test/helpers/built-service.js';
import { ROOT } from '../test/helpers/service-process.js';
import { anchorOf } from './anchor.js';
import { type ComparedRow, compareVerdicts } from './report/compare-targets.js';
import { percentile, runAutocannon, runLoad } from './measure/load.js';
import { UsageError, wholeNumber } from './measure/options.js';
import { tableHead } from './report/markdown.js';
import { EVENT_BODY } from './servers/bodies.js';
import { cleanUpOnSignals, onCleanup, runCleanup } from './servers/cleanup.js';
import {
  type BenchDatabase,
  type DatabaseKind,
  mysqlDatabase,
  sqliteDatabase,
  VALID_AUTHORIZATION,
} from './servers/databases.js';
import { pinSelf, type Pinning, type ServerProcess } from './servers/process.js';
import { startServer } from './servers/start.js';
import { ALTERNATIONS, WORKLOADS } from './workloads/index.js';
import { cyclingPaths, LIST_PATH } from './workloads/special-events.js';
import type { Alternation, RunSetup, SeedRecord, Subject, Workload } from './workloads/workload.js';

const CONNECTIONS = 50;

/** The database every build runs on: SQLite unless BENCH_COMPARE_DATABASE says mysql. */
const DATABASE: DatabaseKind = process.env.BENCH_COMPARE_DATABASE === 'mysql' ? 'mysql' : 'sqlite';
const WARMUP_SEC = 3;
/**
 * Creates kept for the deletes, per second of a delete run: at least this many, and 1.5 times the
 * fastest delete run so far (a quiet machine deleted 12,190 a second, past the 12,000 once kept).
 */
const IDS_PER_DELETE_SECOND = 16_000;
const IDS_RATE_MARGIN = 1.5;

/** The four workloads sent over HTTP alone (no seeding into the database), which any build takes. */
const CLASSIC = ['create', 'delete', 'get', 'list'] as const;
type Classic = (typeof CLASSIC)[number];
const isClassic = (name: string): name is Classic => (CLASSIC as readonly string[]).includes(name);
/** The bench's workloads the service runs, by name (the classic four are sent as above). */
const BENCH = new Map<string, Workload>(
  WORKLOADS.filter((workload) => workload.servers.includes('service')).map((workload) => [workload.name, workload]),
);
/**
 * The workloads `npm run bench` measures only in an alternation (`servers: []`, such as
 * `search-tickets-page` or `buy-general-slotted`), by name: here their alternation's variant side,
 * set up by the alternation's `open` on each build, is run as a workload of its own.
 */
const VARIANTS = new Map<string, Alternation>(
  ALTERNATIONS.filter(({ when }) => !BENCH.has(when.name)).map((alternation) => [alternation.when.name, alternation]),
);
const KNOWN = [...new Set([...CLASSIC, ...BENCH.keys(), ...VARIANTS.keys()])];

interface Build {
  /** How the table names it: `now`, the revision as given, or `anchor <short>`. */
  label: string;
  /** The workloads it is compared on: all for `now` and `<rev>`, its own for an anchor. */
  readonly runs: Set<string>;
  readonly commit?: string;
  readonly dist: string;
  server?: ServerProcess;
  database?: BenchDatabase;
  readonly ids: string[];
  /** Events the reads find, set aside from the first creates (never deleted). */
  readonly kept: string[];
  readonly seeding: SeedRecord[];
  /** Per workload: every run's req/s and p99 (ms), in order. */
  readonly rates: Map<string, number[]>;
  readonly p99s: Map<string, number[]>;
  /** Per workload it cannot run: why (its first problem). */
  readonly missing: Map<string, string>;
}

interface Sample {
  readonly rate: number;
  readonly p99: number;
}

async function runClassic(build: Build, workload: Classic, seconds: number): Promise<Sample> {
  const server = build.server as ServerProcess;
  // autocannon's own histogram keeps whole milliseconds: every response time is kept instead.
  const latencies: number[] = [];
  const result = await runAutocannon(
    { url: server.baseUrl, connections: CONNECTIONS, duration: seconds, requests: [requestOf(build, workload)] },
    (instance) => instance.on('response', (_client, _status, _bytes, time) => latencies.push(time)),
  );
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0) throw new Error(`${build.label} ${workload}: ${bad} responses were not 2xx`);
  return { rate: result.requests.average, p99: percentile(latencies, 0.99) };
}

/**
 * A bench workload on `build`, set up by its own prepare (or, for an alternation's variant, by the
 * alternation's `open` and its side's prepare); undefined (and noted) when the build fails it.
 */
async function runBench(build: Build, name: string, seconds: number): Promise<Sample | undefined> {
  const subject: Subject = {
    label: DATABASE,
    server: build.server as ServerProcess,
    database: build.database as BenchDatabase,
    seeding: build.seeding,
  };
  const fastest = Math.max(0, ...(build.rates.get(name) ?? []));
  const plan = {
    durationSec: seconds,
    connections: CONNECTIONS,
    ...(fastest > 0 ? { fastestReqPerSec: fastest } : {}),
  };
  let close: (() => Promise<void>) | undefined;
  try {
    let workload = BENCH.get(name);
    let setup: RunSetup;
    if (workload !== undefined) {
      setup = (await workload.prepare?.(subject, plan)) ?? {};
    } else {
      const sides = await (VARIANTS.get(name) as Alternation).open(subject);
      close = sides.close;
      workload = sides.variant.workload;
      setup = (await sides.variant.prepare?.()) ?? {};
    }
    const { outcome, problems } = await runLoad(subject, workload, setup, { ...plan, warmup: false });
    if (problems.length === 0) return { rate: outcome.reqPerSec, p99: outcome.p99Ms };
    build.missing.set(name, problems[0] as string);
  } catch (error) {
    // A route this build does not have yet, say: its prepare's first request fails.
    build.missing.set(name, (error instanceof Error ? error.message : String(error)).split('\n')[0] as string);
  } finally {
    await close?.();
  }
  return undefined;
}

function requestOf(build: Build, workload: Classic): autocannon.Request {
  const authorization = { authorization: VALID_AUTHORIZATION };
  switch (workload) {
    case 'create':
      return {
        method: 'POST',
        path: '/special-events',
        headers: { ...authorization, 'content-type': 'application/json' },
        body: EVENT_BODY,
        onResponse: (status: number, body: string) => {
          if (status !== 201) return;
          const { eventId } = JSON.parse(body) as { eventId: string };
          (build.kept.length < 100 ? build.kept : build.ids).push(eventId);
        },
      };
    case 'delete':
      return {
        method: 'DELETE',
        headers: authorization,
        setupRequest: (request: autocannon.Request): autocannon.Request => ({
          ...request,
          path: `/special-events/${build.ids.pop() ?? 'none'}`,
        }),
      };
    case 'get': {
      const next = cyclingPaths(build.kept);
      return {
        method: 'GET',
        headers: authorization,
        setupRequest: (request: autocannon.Request): autocannon.Request => ({ ...request, path: next() }),
      };
    }
    case 'list':
      return { method: 'GET', path: LIST_PATH, headers: authorization };
  }
}

/** The upper median of an even count (measure/load.ts's takes the mean of the middle two). */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

const geometricMean = (values: readonly number[]): number =>
  Math.exp(values.reduce((sum, value) => sum + Math.log(value), 0) / values.length);

function commitOf(revision: string): string {
  try {
    return execFileSync('git', ['rev-parse', '--verify', `${revision}^{commit}`], {
      cwd: ROOT,
      encoding: 'utf8',
    }).trim();
  } catch {
    throw new UsageError(`bench:compare: "${revision}" names no commit of this repository`);
  }
}

function newBuild(label: string, dist: string, commit?: string): Build {
  return {
    label,
    dist,
    ...(commit === undefined ? {} : { commit }),
    ids: [],
    kept: [],
    seeding: [],
    rates: new Map(),
    p99s: new Map(),
    missing: new Map(),
    runs: new Set(),
  };
}

/** Where `commit` is checked out; its build goes to dist/ in it, so that node_modules is found. */
const worktreeOf = (dir: string, commit: string): string => join(dir, commit.slice(0, 12));

/** Checks `build.commit` out into its worktree under `dir` and compiles it into build.dist. */
function compileAt(build: Build, dir: string): void {
  const worktree = worktreeOf(dir, build.commit as string);
  execFileSync('git', ['worktree', 'add', '--detach', worktree, build.commit as string], {
    cwd: ROOT,
    stdio: 'ignore',
  });
  onCleanup(`remove the worktree of ${build.label}`, () => {
    execFileSync('git', ['worktree', 'remove', '--force', worktree], { cwd: ROOT, stdio: 'ignore' });
  });
  symlinkSync(join(ROOT, 'node_modules'), join(worktree, 'node_modules'));
  compile(worktree, build.dist);
}

function compile(from: string, outDir: string): void {
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', outDir], { cwd: from });
  copyAssets(from, outDir);
}

async function main(): Promise<void> {
  const [revision, roundsArg = '3', secondsArg = '10', workloadsArg = CLASSIC.join(',')] = process.argv.slice(2);
  if (!revision) throw new UsageError('usage: npm run bench:compare -- <rev> [rounds] [seconds] [workloads]');
  const workloads = workloadsArg
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = workloads.filter((name) => !KNOWN.includes(name));
  if (workloads.length === 0 || unknown.length > 0)
    throw new UsageError(`workloads: unknown "${unknown.join(', ')}" (known: ${KNOWN.join(', ')})`);
  const [rounds, seconds] = [wholeNumber(roundsArg, 1, 'rounds'), wholeNumber(secondsArg, 1, 'seconds')];
  const pinning = pinSelf();
  const dir = mkdtempSync(join(tmpdir(), 'bench-compare-'));
  onCleanup('remove the temp dir', () => rmSync(dir, { recursive: true, force: true }));

  // Under the checkout, so that its node_modules and package.json (an ES module) are found.
  const now = newBuild('now', join(ROOT, '.test-build/compare-now'));
  for (const workload of workloads) now.runs.add(workload);
  const others = new Map<string, Build>();
  const revisionCommit = commitOf(revision);
  const revisionBuild = newBuild(revision, join(worktreeOf(dir, revisionCommit), 'dist'), revisionCommit);
  for (const workload of workloads) revisionBuild.runs.add(workload);
  others.set(revisionCommit, revisionBuild);
  for (const workload of workloads) {
    const anchor = commitOf(anchorOf(workload));
    let build = others.get(anchor);
    if (build === undefined) {
      build = newBuild(`anchor ${anchor.slice(0, 7)}`, join(worktreeOf(dir, anchor), 'dist'), anchor);
      others.set(anchor, build);
    } else if (!build.label.startsWith('anchor')) {
      build.label = `${build.label} (anchor)`;
    }
    build.runs.add(workload);
  }
  const builds = [...others.values()];
  process.stderr.write(`# compiling ${builds.map((build) => build.label).join(', ')} and this checkout\n`);
  for (const build of builds) compileAt(build, dir);
  compile(ROOT, now.dist);

  // The build started and seeded first can read slower for a whole run (docs/performance.md): one
  // pass per build, each starting a different one first, their medians combined by geometric mean.
  const all = [now, ...builds];
  const passRatios: PassRatios[] = [];
  for (let first = 0; first < all.length; first++) {
    const order = [...all.slice(first), ...all.slice(0, first)];
    passRatios.push(await pass(order, now, dir, pinning, workloads, rounds, seconds));
  }
  const columns = ['workload', 'against', 'its req/s', 'now req/s', 'now ÷ it, per pass', 'now ÷ it', 'p99 now ÷ it'];
  const lines = tableHead(columns, 2);
  const compared: ComparedRow[] = [];
  for (const workload of workloads) {
    for (const build of builds.filter((each) => each.runs.has(workload))) {
      const missing = build.missing.get(workload) ?? now.missing.get(workload);
      if (missing !== undefined) {
        lines.push(`| ${workload} | ${build.label} | n/a | n/a | ${missing} | n/a | n/a |`);
        continue;
      }
      const rates = passRatios.flatMap((ratios) => ratios.rate.get(build)?.get(workload) ?? []);
      const p99s = passRatios.flatMap((ratios) => ratios.p99.get(build)?.get(workload) ?? []);
      if (rates.length > 0 && build.commit !== undefined)
        compared.push({
          workload,
          commit: build.commit,
          anchor: build.commit === commitOf(anchorOf(workload)),
          revision: build.commit === revisionCommit,
          rate: geometricMean(rates),
          p99: geometricMean(p99s),
        });
      lines.push(
        `| ${workload} | ${build.label} | ${Math.round(median(build.rates.get(workload) ?? []))} | ` +
          `${Math.round(median(now.rates.get(workload) ?? []))} | ${rates.map((r) => r.toFixed(2)).join(', ')} | ` +
          `${geometricMean(rates).toFixed(2)} | ${geometricMean(p99s).toFixed(2)} |`,
      );
    }
  }
  const verdicts = compareVerdicts(compared, DATABASE);
  process.stdout.write(`${pinning.note}\n${lines.join('\n')}\n\n${verdicts.join('\n')}\n`);
}

/** Per other build and workload: the median over a pass's rounds of now ÷ it (req/s, and p99). */
interface PassRatios {
  readonly rate: Map<Build, Map<string, number>>;
  readonly p99: Map<Build, Map<string, number>>;
}

/**
 * Starts the builds in `order`, each on a new SQLite file, runs `rounds` rounds of every workload
 * on each in turn, stops them, and answers the median now ÷ each other build per workload.
 */
async function pass(
  order: readonly Build[],
  now: Build,
  dir: string,
  pinning: Pinning,
  workloads: readonly string[],
  rounds: number,
  seconds: number,
): Promise<PassRatios> {
  const name = `${order[0]?.label} first`;
  const samples = new Map<Build, Map<string, (Sample | undefined)[]>>(order.map((build) => [build, new Map()]));
  // Anonymous bench workloads need public reads on; otherwise every build runs as a user runs it by default.
  const publicRead = workloads.some(
    (workload) => (BENCH.get(workload) ?? VARIANTS.get(workload)?.when)?.anonymous === true && !isClassic(workload),
  );
  for (const build of order) {
    build.ids.length = 0;
    build.kept.length = 0;
    const file = `${build.label.replace(/[^\w.-]+/g, '_')}-${order[0]?.label.replace(/[^\w.-]+/g, '_')}-first`;
    const created = DATABASE === 'mysql' ? await mysqlDatabase() : sqliteDatabase(dir, `${file}.sqlite`);
    const database = { ...created, env: { ...created.env, PUBLIC_READ: String(publicRead) } };
    build.database = database;
    build.server = await startServer({ dir, pinning, entry: join(build.dist, 'main.js') }, DATABASE, database, file);
    await runClassic(build, 'create', WARMUP_SEC);
  }
  for (let round = 1; round <= rounds; round++) {
    for (const workload of workloads) {
      for (const build of order) {
        const sample = await runOne(order, build, workload, seconds);
        samples.get(build)?.set(workload, [...(samples.get(build)?.get(workload) ?? []), sample]);
        if (sample === undefined) continue;
        build.rates.set(workload, [...(build.rates.get(workload) ?? []), sample.rate]);
        build.p99s.set(workload, [...(build.p99s.get(workload) ?? []), sample.p99]);
        process.stderr.write(
          `  [${name}] ${build.label} ${workload} round ${round}/${rounds}: ${Math.round(sample.rate)} req/s, ` +
            `p99 ${sample.p99.toFixed(1)} ms\n`,
        );
      }
    }
  }
  for (const build of order) await build.server?.stop();
  for (const build of order) await build.database?.drop();
  const ratios: PassRatios = { rate: new Map(), p99: new Map() };
  for (const build of order) {
    if (build === now) continue;
    const [rate, p99] = [new Map<string, number>(), new Map<string, number>()];
    for (const workload of workloads) {
      const pairs = (samples.get(now)?.get(workload) ?? []).map((mine, index) => [
        mine,
        samples.get(build)?.get(workload)?.[index],
      ]);
      const both = pairs.filter((pair): pair is [Sample, Sample] => pair[0] !== undefined && pair[1] !== undefined);
      if (both.length === 0) continue;
      rate.set(workload, median(both.map(([mine, its]) => mine.rate / its.rate)));
      p99.set(workload, median(both.map(([mine, its]) => mine.p99 / its.p99)));
      process.stderr.write(
        `  [${name}] ${workload} now ÷ ${build.label} per round: ${both.map(([m, i]) => (m.rate / i.rate).toFixed(2)).join(', ')}\n`,
      );
    }
    ratios.rate.set(build, rate);
    ratios.p99.set(build, p99);
  }
  return ratios;
}

/** One run of `workload` on `build` (a delete run first gets enough creates to delete). */
async function runOne(
  order: readonly Build[],
  build: Build,
  workload: string,
  seconds: number,
): Promise<Sample | undefined> {
  if (!build.runs.has(workload) || build.missing.has(workload)) return undefined;
  if (!isClassic(workload)) return runBench(build, workload, seconds);
  const fastestDelete = Math.max(0, ...order.flatMap((each) => each.rates.get('delete') ?? []));
  const idsNeeded = seconds * Math.max(IDS_PER_DELETE_SECOND, IDS_RATE_MARGIN * fastestDelete);
  while (workload === 'delete' && build.ids.length < idsNeeded) await runClassic(build, 'create', WARMUP_SEC);
  return runClassic(build, workload, seconds);
}

cleanUpOnSignals();
try {
  await main();
} finally {
  await runCleanup();
}
