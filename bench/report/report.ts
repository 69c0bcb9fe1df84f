/**
 * What a benchmark run found (bench/results/<timestamp>.json and latest.json): the machine, the
 * options, every result, the targets (targets.ts) and what broke; markdown.ts prints it.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../test/helpers/service-process.js';
import type { AlternationResult } from '../measure/alternate.js';
import type { WorkloadResult } from '../measure/interleave.js';
import type { BenchOptions } from '../measure/options.js';
import type { PlanRecord } from '../measure/plans.js';
import { IDLE_RSS_AFTER_MS } from '../measure/rss.js';
import type { SingleFlightResult } from '../measure/single-flight.js';
import type { SoakResult } from '../measure/soak.js';
import type { StartupResult } from '../measure/startup.js';
import {
  AUTH_FAILURE_ADDRESS_LIMIT,
  AUTH_FAILURE_LIMIT,
  AUTH_FAILURE_WINDOW_SECONDS,
  type DatabaseKind,
} from '../servers/databases.js';
import { errorText } from '../servers/http.js';
import type { Pinning } from '../servers/process.js';
import type { ServerLabel } from '../servers/start.js';
import type { WorkloadName } from '../workloads/index.js';
import type { SeedRecord } from '../workloads/workload.js';

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
  /** The alternations (workloads/index.ts, ALTERNATIONS): buy-ticket ÷ create, keyed ÷ plain creates, … */
  readonly createCosts: AlternationResult[];
  readonly seeding: SeedRecord[];
  /** The list's query plans on the large tables, right after seeding. */
  readonly plans: PlanRecord[];
  /** The mixed-load soak on each database (measure/soak.ts). */
  readonly soak: SoakResult[];
  mysql: { readonly ran: boolean; readonly reason?: string };
  targets?: Target[];
  floor?: FloorComparison[];
  /** Everything that broke; non-empty means exit code 1. */
  readonly problems: string[];
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

/** A report of a run starting now: the machine, the git commit, the options and how to read the numbers. */
export function newReport(options: BenchOptions, pinning: Pinning): BenchReport {
  return {
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
    soak: [],
    mysql: { ran: false, reason: 'not reached' },
    problems: [],
  };
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
