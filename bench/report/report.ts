/**
 * What a benchmark run found: the result types, the targets of the issue (PASS/FAIL), the
 * markdown report printed to standard output, and the JSON written to bench/results/.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseKind } from '../servers/databases.js';
import type { PlanRecord } from '../measure/plans.js';
import type { BenchOptions } from '../measure/options.js';
import { LARGE_TABLE_WORKLOADS, type RunOutcome, type WorkloadName } from '../measure/load.js';

/**
 * The two references, neither with authentication, validation, storage or logging: bare Express
 * (the baseline every ratio is against) and bare NestJS on Express (the floor: what Nest itself
 * costs, so that the service's gap to the baseline can be split into Nest's share and its own).
 */
export type ReferenceLabel = 'baseline' | 'nest-floor';
/**
 * The mandated stack's floor on a database (servers/mandated-floor.ts): Nest, the Passport Basic
 * guard, class-validator DTOs and the service's TypeORM store, nothing else. With authentication,
 * validation and durable writes, so it runs the same workloads as the service (auth-fail: 401).
 */
export type StackLabel = `stack-${DatabaseKind}`;
export type ServerLabel = ReferenceLabel | StackLabel | DatabaseKind;

export function isReference(label: ServerLabel): label is ReferenceLabel {
  return label === 'baseline' || label === 'nest-floor';
}

export function stackOf(database: DatabaseKind): StackLabel {
  return `stack-${database}`;
}

const SERVER_NAMES: Readonly<Record<ServerLabel, string>> = {
  baseline: 'baseline (Express)',
  'nest-floor': 'bare Nest 12 (floor)',
  'stack-sqlite': 'mandated stack (sqlite floor)',
  'stack-mysql': 'mandated stack (mysql floor)',
  sqlite: 'sqlite',
  mysql: 'mysql',
};

export interface RunRecord extends RunOutcome {
  readonly phase: 'warm-up' | 'measured';
  /** Largest VmRSS of the server during the run (measured runs only). */
  readonly rssMaxMiB?: number;
  /** delete on the service: events seeded for this run. */
  readonly seeded?: number;
}

/**
 * empty: the regular runs (the table holds only what earlier runs left); large: after seeding
 * `storedEvents`; control: a service on a fresh empty table, run in alternation with the large one.
 */
export type TableKind = 'empty' | 'large' | 'control';

export interface WorkloadResult {
  readonly server: ServerLabel;
  readonly workload: WorkloadName;
  readonly table: TableKind;
  readonly storedEvents?: number;
  /** Measured in alternation with the other servers' runs (run n of each at nearly the same time). */
  readonly interleaved?: boolean;
  readonly runs: readonly RunRecord[];
  /** Medians over the measured runs. */
  readonly reqPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Largest over the measured runs. */
  readonly rssMaxMiB: number;
  /** Unexpected statuses, errors, timeouts: the numbers of this row are not to be trusted. */
  readonly problems: readonly string[];
}

export interface StartupResult {
  /** A brand new, empty SQLite file: migrations and the admin user are created. */
  readonly firstStartMs: number;
  /** Restarts on that migrated file with ADMIN_USERNAME/ADMIN_PASSWORD set (a scrypt check at start). */
  readonly restartMs: readonly number[];
  readonly restartMedianMs: number;
  /** The same restarts without ADMIN_USERNAME/ADMIN_PASSWORD: the users exist, nothing is hashed. */
  readonly restartWithoutAdminMs: readonly number[];
  readonly restartWithoutAdminMedianMs: number;
  /** What start-to-ready cannot go below: node itself, and loading the mandated packages. */
  readonly loadFloor: LoadFloor;
}

/** Spawn to exit of `node` with nothing to do, and importing the mandated packages alone. */
export interface LoadFloor {
  readonly packages: readonly string[];
  readonly nodeMs: readonly number[];
  readonly nodeMedianMs: number;
  readonly mandatedMs: readonly number[];
  readonly mandatedMedianMs: number;
}

/** A server process's VmRSS once ready and idle, before any load (the regular runs' processes). */
export interface IdleRssRecord {
  readonly server: ServerLabel;
  /** Absent when /proc/<pid>/status could not be read. */
  readonly mib?: number;
  /** How long it sat idle after it was ready (listening; the service: /health/ready 200). */
  readonly afterIdleMs: number;
}

/** Informational: the floor next to the baseline, and the service next to the floor, per workload. */
export interface FloorComparison {
  readonly workload: WorkloadName;
  readonly floorReqPerSec: number;
  readonly baselineReqPerSec: number;
  /** Floor req/s ÷ baseline req/s: what NestJS itself leaves of the baseline. */
  readonly floorToBaseline: number;
  /** Service req/s ÷ floor req/s per database: what the service leaves of bare Nest. */
  readonly serviceToFloor: Partial<Record<DatabaseKind, number>>;
  /** The mandated stack's floor req/s ÷ baseline req/s per database: the most any service on that stack reaches. */
  readonly stackToBaseline: Partial<Record<DatabaseKind, number>>;
  /** Service req/s ÷ the mandated stack's floor req/s per database: what the service's own features leave of it. */
  readonly serviceToStack: Partial<Record<DatabaseKind, number>>;
}

export interface SingleFlightResult {
  readonly concurrentRequests: number;
  readonly concurrentStatuses: Readonly<Record<string, number>>;
  /** auth_password_checks_total after minus before: target 1. */
  readonly concurrentDelta: number;
  readonly wrongRequests: number;
  readonly wrongStatuses: Readonly<Record<string, number>>;
  readonly wrongDelta: number;
}

/** Creates with a new Idempotency-Key each against creates without, on one service, in alternation. */
/** Creates of one kind against creates of another, run in alternation on the same service. */
export interface CreateCostResult {
  readonly database: DatabaseKind;
  readonly plain: string;
  readonly variant: string;
  readonly plainReqPerSec: readonly number[];
  readonly variantReqPerSec: readonly number[];
  readonly plainP99Ms: readonly number[];
  readonly variantP99Ms: readonly number[];
  /** What each run of the variant left behind (its deliveries still pending, say). */
  readonly variantNotes: readonly string[];
  /** Median of the run-by-run ratios variant ÷ plain. */
  readonly ratio: number;
}

export interface SeedRecord {
  readonly database: DatabaseKind;
  readonly purpose: string;
  readonly count: number;
  readonly ms: number;
}

export interface Target {
  readonly name: string;
  readonly status: 'PASS' | 'FAIL' | 'n/a';
  readonly detail: string;
  /**
   * The same measurement of the mandated stack's floor in this run (ratio and p99 targets), and
   * whether that floor meets the target: a target the floor misses is out of reach on that stack.
   */
  readonly floor?: { readonly value: number; readonly meets: boolean; readonly shown: string };
}

export interface BenchReport {
  readonly startedAt: string;
  finishedAt?: string;
  readonly machine: {
    readonly cpu: string;
    readonly cores: number;
    readonly node: string;
    readonly kernel: string;
    /** 1-minute load average when the run started: other work on the machine skews every number. */
    readonly loadAverageAtStart: number;
  };
  readonly git: string;
  readonly options: BenchOptions;
  readonly notes: string[];
  readonly results: WorkloadResult[];
  /** One per server process of the regular runs. */
  readonly idleRss: IdleRssRecord[];
  startup?: StartupResult;
  singleFlight?: SingleFlightResult;
  /** Keyed creates ÷ plain creates, creates with three webhook subscribers ÷ none. */
  readonly createCosts: CreateCostResult[];
  readonly seeding: SeedRecord[];
  /** The list's query plans on the large tables, right after seeding. */
  readonly plans: PlanRecord[];
  mysql: { readonly ran: boolean; readonly reason?: string };
  targets?: Target[];
  floor?: FloorComparison[];
  /** Everything that broke; non-empty means exit code 1. */
  readonly problems: string[];
}

export function median(values: readonly number[]): number {
  const sorted = values.filter((value) => !Number.isNaN(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

function find(
  report: BenchReport,
  server: ServerLabel,
  workload: WorkloadName,
  table: TableKind = 'empty',
): WorkloadResult | undefined {
  return report.results.find(
    (result) => result.server === server && result.workload === workload && result.table === table,
  );
}

function databasesMeasured(report: BenchReport): DatabaseKind[] {
  return (['sqlite', 'mysql'] as const).filter((kind) => report.results.some((result) => result.server === kind));
}

type Metric = 'reqPerSec' | 'p50Ms' | 'p99Ms';

/**
 * `measured`'s metric ÷ `reference`'s. When both were measured in alternation with as many runs,
 * the median of the run-by-run ratios (run n of one ÷ run n of the other, made seconds apart on a
 * machine whose speed drifts over minutes); else the ratio of the medians.
 */
export function pairedRatio(measured: WorkloadResult, reference: WorkloadResult, metric: Metric): number | undefined {
  const runsOf = (result: WorkloadResult) => result.runs.filter((run) => run.phase === 'measured');
  const [own, theirs] = [runsOf(measured), runsOf(reference)];
  if (measured.interleaved && reference.interleaved && own.length === theirs.length && own.length > 0) {
    return median(own.map((run, index) => run[metric] / (theirs[index] as RunRecord)[metric]));
  }
  return reference[metric] > 0 ? measured[metric] / reference[metric] : undefined;
}

/** A server's req/s ÷ the baseline's (or another server's) of the same workload in the same run. */
export function ratio(
  report: BenchReport,
  server: ServerLabel,
  workload: WorkloadName,
  against: ServerLabel = 'baseline',
): number | undefined {
  const measured = find(report, server, workload);
  const reference = find(report, against, workload);
  return measured && reference ? pairedRatio(measured, reference, 'reqPerSec') : undefined;
}

/** A large-table result against its control (or, without one, the regular empty-table result). */
function largeAgainstEmpty(report: BenchReport, large: WorkloadResult): WorkloadResult | undefined {
  return find(report, large.server, large.workload, 'control') ?? find(report, large.server, large.workload);
}

/** The floor's comparisons, for every workload on which both references were measured. */
export function compareFloor(report: BenchReport): FloorComparison[] {
  const comparisons: FloorComparison[] = [];
  for (const floor of report.results.filter((r) => r.server === 'nest-floor' && r.table === 'empty')) {
    const baseline = find(report, 'baseline', floor.workload);
    if (!baseline || baseline.reqPerSec <= 0) continue;
    const serviceToFloor: Partial<Record<DatabaseKind, number>> = {};
    const stackToBaseline: Partial<Record<DatabaseKind, number>> = {};
    const serviceToStack: Partial<Record<DatabaseKind, number>> = {};
    for (const database of databasesMeasured(report)) {
      const value = ratio(report, database, floor.workload, 'nest-floor');
      if (value !== undefined) serviceToFloor[database] = value;
      const stack = ratio(report, stackOf(database), floor.workload);
      if (stack !== undefined) stackToBaseline[database] = stack;
      const toStack = ratio(report, database, floor.workload, stackOf(database));
      if (toStack !== undefined) serviceToStack[database] = toStack;
    }
    comparisons.push({
      workload: floor.workload,
      floorReqPerSec: floor.reqPerSec,
      baselineReqPerSec: baseline.reqPerSec,
      floorToBaseline: floor.reqPerSec / baseline.reqPerSec,
      serviceToFloor,
      stackToBaseline,
      serviceToStack,
    });
  }
  return comparisons;
}

function check(
  name: string,
  value: number | undefined,
  pass: (value: number) => boolean,
  shown: (value: number) => string,
  floorValue?: number,
): Target {
  if (value === undefined || Number.isNaN(value)) return { name, status: 'n/a', detail: 'not measured in this run' };
  const floor =
    floorValue === undefined || Number.isNaN(floorValue)
      ? {}
      : { floor: { value: floorValue, meets: pass(floorValue), shown: shown(floorValue) } };
  return { name, status: pass(value) ? 'PASS' : 'FAIL', detail: shown(value), ...floor };
}

/** The issue's targets, one line each. */
export function evaluateTargets(report: BenchReport): Target[] {
  const targets: Target[] = [];
  const databases = databasesMeasured(report);
  for (const database of databases) {
    for (const [workload, least] of [
      ['create', 0.5],
      ['delete', 0.6],
      ['get', 0.5],
      ['list', 0.5],
    ] as const) {
      targets.push(
        check(
          `${database}: ${workload} ratio ≥ ${least.toFixed(2)}`,
          ratio(report, database, workload),
          (v) => v >= least,
          (v) => v.toFixed(2),
          ratio(report, stackOf(database), workload),
        ),
      );
    }
  }
  for (const database of databases) {
    // GET /museum-hours (limit 30) against the same service's get, in the same run (issue 28).
    const hours = find(report, database, 'museum-hours');
    const get = find(report, database, 'get');
    targets.push(
      check(
        `${database}: museum-hours (limit 30) ≥ 0.80 of its get's req/s`,
        hours && get ? pairedRatio(hours, get, 'reqPerSec') : undefined,
        (v) => v >= 0.8,
        (v) => v.toFixed(2),
      ),
    );
  }
  for (const database of databases) {
    for (const result of report.results.filter((r) => r.server === database && r.table === 'empty')) {
      targets.push(
        check(
          `${database} ${result.workload}: p99 ≤ 50 ms at ${report.options.connections} connections`,
          result.p99Ms,
          (v) => v <= 50,
          ms,
          find(report, stackOf(database), result.workload)?.p99Ms,
        ),
      );
    }
  }
  for (const database of databases) {
    for (const workload of LARGE_TABLE_WORKLOADS) {
      const large = find(report, database, workload, 'large');
      const empty = large && largeAgainstEmpty(report, large);
      const name = `${database} ${workload}: p50 and p99 with ${large?.storedEvents ?? report.options.events} events ≤ 1.2× empty`;
      const p50 = large && empty && pairedRatio(large, empty, 'p50Ms');
      const p99 = large && empty && pairedRatio(large, empty, 'p99Ms');
      if (p50 === undefined || p99 === undefined) {
        targets.push({ name, status: 'n/a', detail: 'not measured in this run' });
        continue;
      }
      targets.push({
        name,
        status: p50 <= 1.2 && p99 <= 1.2 ? 'PASS' : 'FAIL',
        detail: `p50 ${p50.toFixed(2)}×, p99 ${p99.toFixed(2)}×`,
      });
    }
  }
  for (const database of databases) {
    const plans = report.plans.filter((plan) => plan.database === database);
    const name = `${database}: the list's query plans with ${plans[0]?.storedEvents ?? report.options.events} events use the indexes (no full scan, no sort of every match)`;
    const problems = plans.flatMap((plan) => plan.problems.map((problem) => `${plan.name}: ${problem}`));
    targets.push(
      plans.length === 0
        ? { name, status: 'n/a', detail: 'not measured in this run' }
        : {
            name,
            status: problems.length === 0 ? 'PASS' : 'FAIL',
            detail: problems.length === 0 ? `${plans.length} plans` : problems.join('; '),
          },
    );
  }
  for (const cost of report.createCosts.filter((c) => c.variant.startsWith('buy-ticket'))) {
    targets.push(
      check(
        `${cost.database}: ${cost.variant} ≥ 0.60 of a ${cost.plain}, req/s`,
        cost.ratio,
        (v) => v >= 0.6,
        (v) => v.toFixed(2),
      ),
    );
  }
  for (const cost of report.createCosts.filter((c) => c.database === 'sqlite' && c.variant.includes('webhook'))) {
    targets.push(
      check(
        `sqlite: ${cost.variant} ≥ 0.90 of ${cost.plain}, req/s`,
        cost.ratio,
        (v) => v >= 0.9,
        (v) => v.toFixed(2),
      ),
    );
  }
  const startup = report.startup;
  targets.push(
    check(
      'start-to-ready ≤ 1500 ms (restart with ADMIN_USERNAME/ADMIN_PASSWORD set, median)',
      startup?.restartMedianMs,
      (v) => v <= 1500,
      (v) =>
        `${v.toFixed(0)} ms (without ADMIN_*, nothing hashed at start: ${startup ? startup.restartWithoutAdminMedianMs.toFixed(0) : '?'} ms; ` +
        `first start on an empty file: ${startup ? startup.firstStartMs.toFixed(0) : '?'} ms; ` +
        `loading the mandated packages alone, no app: ${startup ? startup.loadFloor.mandatedMedianMs.toFixed(0) : '?'} ms)`,
    ),
  );
  for (const database of databases) {
    const rss = report.results.filter((r) => r.server === database).map((r) => r.rssMaxMiB);
    targets.push(
      check(
        `${database}: RSS ≤ 200 MiB under load`,
        rss.length ? Math.max(...rss) : undefined,
        (v) => v <= 200,
        (v) => `${v.toFixed(1)} MiB`,
      ),
    );
  }
  targets.push(
    check(
      'single-flight: 50 concurrent first requests cost 1 password check',
      report.singleFlight?.concurrentDelta,
      (v) => v === 1,
      String,
    ),
  );
  targets.push(
    check(
      'repeated wrong credentials (10 sequential) cost 1 password check',
      report.singleFlight?.wrongDelta,
      (v) => v === 1,
      String,
    ),
  );
  return targets;
}

const ms = (value: number): string => (Number.isNaN(value) ? '–' : `${value.toFixed(value < 10 ? 2 : 1)} ms`);
const num = (value: number): string => (Number.isNaN(value) ? '–' : Math.round(value).toLocaleString('en-US'));
const times = (value: number | undefined): string =>
  value === undefined || Number.isNaN(value) ? '–' : `${value.toFixed(2)}×`;
const flag = (result: WorkloadResult | undefined): string => (result && result.problems.length > 0 ? ' ⚠' : '');

/** The markdown printed at the end (and pasteable into the README). */
export function renderReport(report: BenchReport): string {
  const o = report.options;
  const lines: string[] = [
    `## Benchmark results (${report.startedAt})`,
    '',
    `- machine: ${report.machine.cpu}, ${report.machine.cores} cores, Node ${report.machine.node}, Linux ${report.machine.kernel}, load average ${report.machine.loadAverageAtStart.toFixed(2)} at start`,
    `- git: ${report.git}`,
    `- options: connections ${o.connections}, duration ${o.durationSec} s, warm-up ${o.warmupSec} s, repetitions ${o.repetitions}, ` +
      `events ${o.events}${o.skipLarge ? ' (large-table runs skipped)' : ''}, workloads ${o.only.join(',')}, ` +
      `mysql ${o.mysql ? 'on' : 'off (--no-mysql)'}${o.quick ? ', --quick' : ''}`,
    ...report.notes.map((note) => `- ${note}`),
    '',
    '| server | workload | req/s | p50 | p99 | peak RSS MiB | idle RSS MiB | baseline req/s | ratio |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const result of report.results.filter((r) => r.table === 'empty')) {
    const baseline = find(report, 'baseline', result.workload);
    const ratioText = times(ratio(report, result.server, result.workload)).replace('×', '');
    // One process per server serves all its workloads: the same idle value on each of its rows.
    const idle = report.idleRss.find((record) => record.server === result.server)?.mib;
    lines.push(
      `| ${SERVER_NAMES[result.server]} | ${result.workload}${flag(result)} | ${num(result.reqPerSec)} | ${ms(result.p50Ms)} | ${ms(result.p99Ms)} | ` +
        `${result.rssMaxMiB.toFixed(1)} | ${idle === undefined ? '–' : idle.toFixed(1)} | ${baseline ? num(baseline.reqPerSec) : '–'} | ${ratioText} |`,
    );
  }
  if (!report.mysql.ran) lines.push('', `**MySQL rows skipped:** ${report.mysql.reason ?? 'unknown reason'}`);

  const large = report.results.filter((r) => r.table === 'large');
  if (large.length > 0) {
    lines.push(
      '',
      '### Large table (against a service on an empty table, run in alternation with it; medians of run-by-run ratios)',
      '',
      '| database | workload | stored events | req/s | p50 | p99 | req/s large/empty | p50 large/empty | p99 large/empty |',
      '|---|---|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const result of large) {
      const empty = largeAgainstEmpty(report, result);
      const against = (metric: Metric) => times(empty && pairedRatio(result, empty, metric));
      lines.push(
        `| ${result.server} | ${result.workload}${flag(result)} | ${num(result.storedEvents ?? 0)} | ${num(result.reqPerSec)} | ` +
          `${ms(result.p50Ms)} | ${ms(result.p99Ms)} | ${against('reqPerSec')} | ${against('p50Ms')} | ${against('p99Ms')} |`,
      );
    }
  }

  if (report.plans.length > 0) {
    lines.push('', "### The list's query plans on the large tables (as the service runs them: no ANALYZE)", '');
    for (const plan of report.plans) {
      lines.push(
        `- ${plan.database}, ${num(plan.storedEvents)} events, ${plan.name}${plan.problems.length > 0 ? ` ⚠ ${plan.problems.join('; ')}` : ''}:`,
        '',
        '  ```',
        ...plan.lines.map((line) => `  ${line}`),
        '  ```',
      );
    }
  }

  lines.push('', '### Service measurements', '', '| measurement | value |', '|---|---|');
  if (report.startup) {
    const s = report.startup;
    const runs = (values: readonly number[]): string => values.map((v) => v.toFixed(0)).join(', ');
    lines.push(
      `| start-to-ready, restart on a migrated SQLite file with ADMIN_USERNAME/ADMIN_PASSWORD set: scrypt check at start (median of ${s.restartMs.length}) | ${s.restartMedianMs.toFixed(0)} ms (${runs(s.restartMs)}) |`,
      `| start-to-ready, restart on the same file without ADMIN_USERNAME/ADMIN_PASSWORD: nothing hashed (median of ${s.restartWithoutAdminMs.length}) | ${s.restartWithoutAdminMedianMs.toFixed(0)} ms (${runs(s.restartWithoutAdminMs)}) |`,
      `| start-to-ready, first start on a new empty SQLite file | ${s.firstStartMs.toFixed(0)} ms |`,
      `| floor: \`node\` importing only the mandated packages (${s.loadFloor.packages.join(', ')}), no app, spawn to exit (median of ${s.loadFloor.mandatedMs.length}) | ${s.loadFloor.mandatedMedianMs.toFixed(0)} ms (${runs(s.loadFloor.mandatedMs)}) |`,
      `| floor: \`node\` doing nothing, spawn to exit (median of ${s.loadFloor.nodeMs.length}) | ${s.loadFloor.nodeMedianMs.toFixed(0)} ms (${runs(s.loadFloor.nodeMs)}) |`,
    );
  }
  if (report.singleFlight) {
    const f = report.singleFlight;
    lines.push(
      `| password checks for ${f.concurrentRequests} concurrent first requests, correct credentials (statuses ${statuses(f.concurrentStatuses)}) | ${f.concurrentDelta} |`,
      `| password checks for ${f.wrongRequests} sequential requests, same wrong credentials (statuses ${statuses(f.wrongStatuses)}) | ${f.wrongDelta} |`,
    );
  }
  for (const cost of report.createCosts) {
    const runs = (values: readonly number[]): string => values.map((v) => v.toFixed(0)).join(', ');
    const notes = cost.variantNotes.length ? `; ${cost.variantNotes.join(', ')}` : '';
    lines.push(
      `| ${cost.database}: ${cost.variant} ÷ ${cost.plain}, req/s (median of run-by-run ratios; ${runs(cost.variantReqPerSec)} against ${runs(cost.plainReqPerSec)}${notes}) | ${cost.ratio.toFixed(2)} |`,
      `| ${cost.database}: p99 of ${cost.variant} (of ${cost.plain}), ms | ${median(cost.variantP99Ms).toFixed(1)} (${median(cost.plainP99Ms).toFixed(1)}) |`,
    );
  }
  for (const seed of report.seeding.filter((s) => s.purpose === 'large table')) {
    lines.push(`| seeding ${num(seed.count)} events into ${seed.database} | ${(seed.ms / 1000).toFixed(1)} s |`);
  }

  lines.push('', '### Targets', '');
  for (const target of report.targets ?? []) {
    const floor = target.floor
      ? target.floor.meets
        ? ` (the mandated stack's floor: ${target.floor.shown})`
        : ` (the mandated stack's floor: ${target.floor.shown}, which misses it too: out of reach on this stack in this run)`
      : '';
    lines.push(`- **${target.status}** ${target.name}: ${target.detail}${floor}`);
  }
  // Informational, not targets: how much of the gap to the baseline NestJS alone accounts for.
  for (const floor of report.floor ?? []) {
    const services = Object.entries(floor.serviceToFloor)
      .map(([database, value]) => `${database} reaches ${value.toFixed(2)} of the floor`)
      .join(', ');
    lines.push(
      `- floor: bare Nest 12 with no auth, validation, storage or logging reaches ${floor.floorToBaseline.toFixed(2)} ` +
        `of the Express baseline on ${floor.workload}${services ? ` (${services})` : ''}`,
    );
    for (const [database, stack] of Object.entries(floor.stackToBaseline)) {
      const service = floor.serviceToStack[database as DatabaseKind];
      lines.push(
        `- floor: the mandated stack on ${database} (Nest, Passport Basic, class-validator, the TypeORM store; ` +
          `no logs, metrics, headers or limiter) reaches ${stack.toFixed(2)} of the baseline on ${floor.workload}` +
          `${service === undefined ? '' : `; the service reaches ${service.toFixed(2)} of it`}`,
      );
    }
  }

  if (report.problems.length > 0) {
    lines.push('', '### ⚠ PROBLEMS (numbers of the flagged rows are not trustworthy)', '');
    for (const problem of report.problems) lines.push(`- ${problem}`);
  }
  return `${lines.join('\n')}\n`;
}

function statuses(counts: Readonly<Record<string, number>>): string {
  return (
    Object.entries(counts)
      .map(([status, count]) => `${count}× ${status}`)
      .join(', ') || 'none'
  );
}

/** bench/results/<timestamp>.json and bench/results/latest.json; returns the first path. */
export function writeJson(report: BenchReport, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const text = `${JSON.stringify(report, (_key, value: unknown) => (typeof value === 'number' && Number.isNaN(value) ? null : value), 2)}\n`;
  const file = join(dir, `${report.startedAt.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, text);
  writeFileSync(join(dir, 'latest.json'), text);
  return file;
}
