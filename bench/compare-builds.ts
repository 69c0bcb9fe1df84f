/**
 * `npm run bench:compare -- <rev> [rounds] [seconds] [workloads]`: the service as built at another revision
 * against the service as it is now, on SQLite, in the same run. Ratios to bare Express measured on
 * different days compare the machines more than the code (the same build did 0.48 of Express on a
 * loaded machine and 0.26 on a quiet one); two builds run in alternation on one machine do not.
 *
 * - `<rev>` is checked out into a temporary git worktree, compiled with this checkout's
 *   node_modules and TypeScript (its package.json may differ: what is compared is its code), and
 *   both builds (this one into .test-build/compare-now) are started as `node main.js`, pinned to core 1, each on a SQLite file of its own,
 *   LOG_LEVEL=info with their logs going to files, as `npm run bench` starts the service.
 * - Each round runs each workload (default `create,delete,get,list`: POST, 201; DELETE of ids the
 *   creates answered, 204; GET of one of 100 created events; a first list page of 20 in a date
 *   range, as `npm run bench` asks for it) for `seconds` on each build in turn, with autocannon in
 *   this process (50 connections, pinned to core 0).
 * - Two passes of `rounds` rounds: the first starts `then` first, the second `now` first, each on
 *   new files (the build started first can be slower for a whole run). A pass's ratio
 *   is the median over its rounds of now ÷ then, each pair seconds apart; the answer is the
 *   geometric mean of the two passes' ratios.
 *
 * Prints one line per run to standard error and the medians to standard output. Stops everything
 * it started, the worktree included.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import { copyAssets } from '../test/helpers/built-service.js';
import { ROOT } from '../test/helpers/service-process.js';
import { runAutocannon } from './measure/load.js';
import { namesFrom, wholeNumber } from './measure/options.js';
import { tableHead } from './report/markdown.js';
import { EVENT_BODY } from './servers/bodies.js';
import { cleanUpOnSignals, onCleanup, runCleanup } from './servers/cleanup.js';
import { sqliteDatabase, VALID_AUTHORIZATION } from './servers/databases.js';
import { pinSelf, type Pinning, type ServerProcess } from './servers/process.js';
import { startServer } from './servers/start.js';
import { cyclingPaths, LIST_PATH } from './workloads/special-events.js';

const CONNECTIONS = 50;
const WARMUP_SEC = 3;
/**
 * Creates kept for the deletes, per second of a delete run: at least this many, and 1.5 times the
 * fastest delete run so far (a quiet machine deleted 12,190 a second, past the 12,000 once kept).
 */
const IDS_PER_DELETE_SECOND = 16_000;
const IDS_RATE_MARGIN = 1.5;

const WORKLOADS = ['create', 'delete', 'get', 'list'] as const;
type Workload = (typeof WORKLOADS)[number];

interface Build {
  readonly label: string;
  readonly dist: string;
  server?: ServerProcess;
  readonly ids: string[];
  /** Events the reads find, set aside from the first creates (never deleted). */
  readonly kept: string[];
  readonly rates: Record<Workload, number[]>;
}

async function run(build: Build, workload: Workload, seconds: number): Promise<number> {
  const server = build.server as ServerProcess;
  const request = requestOf(build, workload);
  const result = await runAutocannon({
    url: server.baseUrl,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [request],
  });
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0) throw new Error(`${build.label} ${workload}: ${bad} responses were not 2xx`);
  return result.requests.average;
}

function requestOf(build: Build, workload: Workload): autocannon.Request {
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

async function main(): Promise<void> {
  const [revision, roundsArg = '3', secondsArg = '10', workloadsArg = WORKLOADS.join(',')] = process.argv.slice(2);
  if (!revision) throw new Error('usage: npm run bench:compare -- <rev> [rounds] [seconds] [workloads]');
  const workloads = namesFrom(workloadsArg, WORKLOADS, 'workloads');
  const [rounds, seconds] = [wholeNumber(roundsArg, 1, 'rounds'), wholeNumber(secondsArg, 1, 'seconds')];
  const pinning = pinSelf();
  const dir = mkdtempSync(join(tmpdir(), 'bench-compare-'));
  onCleanup('remove the temp dir', () => rmSync(dir, { recursive: true, force: true }));

  const worktree = join(dir, 'then');
  execFileSync('git', ['worktree', 'add', '--detach', worktree, revision], { cwd: ROOT, stdio: 'ignore' });
  onCleanup('remove the worktree', () => {
    execFileSync('git', ['worktree', 'remove', '--force', worktree], { cwd: ROOT, stdio: 'ignore' });
  });
  symlinkSync(join(ROOT, 'node_modules'), join(worktree, 'node_modules'));
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
  const builds: Build[] = [
    { label: 'then', dist: join(worktree, 'dist'), ids: [], kept: [], rates: noRates() },
    // Under the checkout, so that its node_modules and package.json (an ES module) are found.
    { label: 'now', dist: join(ROOT, '.test-build/compare-now'), ids: [], kept: [], rates: noRates() },
  ];
  process.stderr.write(`# compiling ${revision} and this checkout\n`);
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', builds[0].dist], { cwd: worktree });
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', builds[1].dist], { cwd: ROOT });
  copyAssets(worktree, builds[0].dist);
  copyAssets(ROOT, builds[1].dist);

  // The build started and seeded first can read slower for a whole run (docs/performance.md): one pass
  // with each build first, their medians combined by geometric mean.
  const passes: Record<Workload, number>[] = [];
  for (const order of [builds, [...builds].reverse()]) {
    passes.push(await pass(order, dir, pinning, workloads, rounds, seconds));
  }
  const [then, now] = builds as [Build, Build];
  const columns = ['workload', `${revision} req/s`, 'now req/s', `now ÷ ${revision}, ${then.label} first`];
  const lines = tableHead([...columns, `${now.label} first`, 'both (geometric mean)'], 1);
  for (const workload of workloads) {
    const [first, second] = passes.map((ratios) => ratios[workload]) as [number, number];
    lines.push(
      `| ${workload} | ${Math.round(median(then.rates[workload]))} | ${Math.round(median(now.rates[workload]))} | ` +
        `${first.toFixed(2)} | ${second.toFixed(2)} | ${Math.sqrt(first * second).toFixed(2)} |`,
    );
  }
  process.stdout.write(`${pinning.note}\n${lines.join('\n')}\n`);
}

/**
 * Starts the builds in `order`, each on a new SQLite file, runs `rounds` rounds of every workload
 * on each in turn, stops them, and answers the median now ÷ then per workload.
 */
async function pass(
  order: readonly Build[],
  dir: string,
  pinning: Pinning,
  workloads: readonly Workload[],
  rounds: number,
  seconds: number,
): Promise<Record<Workload, number>> {
  const name = `${order[0]?.label} first`;
  const rates = new Map<Build, Record<Workload, number[]>>(order.map((build) => [build, noRates()]));
  for (const build of order) {
    build.ids.length = 0;
    build.kept.length = 0;
    const file = `${build.label}-${order[0]?.label}-first`;
    // Both builds as a user runs them by default: opt-in features off (the bench's own servers turn
    // public read on for its anonymous workloads; these workloads all send credentials).
    const database = { ...sqliteDatabase(dir, `${file}.sqlite`), env: { PUBLIC_READ: 'false' } };
    build.server = await startServer({ dir, pinning, entry: join(build.dist, 'main.js') }, 'sqlite', database, file);
    await run(build, 'create', WARMUP_SEC);
  }
  for (let round = 1; round <= rounds; round++) {
    for (const workload of workloads) {
      for (const build of order) {
        const fastestDelete = Math.max(0, ...order.flatMap((each) => each.rates.delete));
        const idsNeeded = seconds * Math.max(IDS_PER_DELETE_SECOND, IDS_RATE_MARGIN * fastestDelete);
        while (workload === 'delete' && build.ids.length < idsNeeded) {
          await run(build, 'create', WARMUP_SEC);
        }
        const rate = await run(build, workload, seconds);
        rates.get(build)?.[workload].push(rate);
        build.rates[workload].push(rate);
        process.stderr.write(
          `  [${name}] ${build.label} ${workload} round ${round}/${rounds}: ${Math.round(rate)} req/s\n`,
        );
      }
    }
  }
  for (const build of order) await build.server?.stop();
  const [then, now] = [...order].sort((a, b) => (a.label === 'then' ? -1 : b.label === 'then' ? 1 : 0));
  const ratios = noRates();
  for (const workload of workloads) {
    const thens = rates.get(then)?.[workload] ?? [];
    ratios[workload] = (rates.get(now)?.[workload] ?? []).map((rate, index) => rate / (thens[index] as number));
    process.stderr.write(
      `  [${name}] ${workload} now ÷ then per round: ${ratios[workload].map((r) => r.toFixed(2)).join(', ')}\n`,
    );
  }
  return Object.fromEntries(workloads.map((workload) => [workload, median(ratios[workload])])) as Record<
    Workload,
    number
  >;
}

function noRates(): Record<Workload, number[]> {
  return { create: [], delete: [], get: [], list: [] };
}

cleanUpOnSignals();
try {
  await main();
} finally {
  await runCleanup();
}
