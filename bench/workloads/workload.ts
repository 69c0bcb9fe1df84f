/**
 * What a workload is: the requests of one autocannon run against one server, which servers run
 * it, what they answer, what is set up before each run, and the targets on its numbers; and what
 * an alternation is (two kinds of requests run by turns on the service, the cost of one against
 * the other). Each module's file beside this one defines its own; index.ts lists the modules.
 */
import type { BenchDatabase, DatabaseKind } from '../servers/databases.js';
import type { ServerProcess } from '../servers/process.js';
import type { Role, ServerLabel } from '../servers/start.js';

/**
 * empty: the regular runs (the table holds only what earlier runs left); large: after seeding
 * `storedEvents`; control: a service on a fresh empty table, run in alternation with the large one.
 */
export type TableKind = 'empty' | 'large' | 'control';

export interface SeedRecord {
  readonly database: DatabaseKind;
  readonly purpose: string;
  readonly count: number;
  readonly ms: number;
}

/** A server a workload runs against. */
export interface Subject {
  readonly label: ServerLabel;
  readonly server: ServerProcess;
  /** The service's or the mandated stack floor's database (none for the bare references). */
  readonly database?: BenchDatabase;
  /** Where seeding times are recorded (the report's). */
  readonly seeding: SeedRecord[];
  /** What its table holds (default empty: only what earlier runs left). */
  readonly table?: TableKind;
  /** large: how many events were seeded. */
  readonly storedEvents?: number;
}

/** What one run sends beyond the workload's fixed request, and what it leaves to undo. */
export interface RunSetup {
  /** The one path every request asks for (default: the workload's). */
  readonly path?: string;
  /** Or the path of each request. */
  readonly nextPath?: () => string;
  /** The body of each request. */
  readonly nextBody?: () => string;
  /** Headers every request carries beside the workload's (an If-None-Match, say). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Every request carries a new Idempotency-Key (what a retrying client sends). */
  readonly idempotencyKeys?: boolean;
  /** Events seeded for this run, kept with it. */
  readonly seeded?: number;
  /**
   * Once the run is over: what went wrong, a note kept with the run (a backlog, say), and what a
   * probe beside it measured (the workload's probeTarget).
   */
  readonly after?: () => Promise<{
    readonly problems?: readonly string[];
    readonly note?: string;
    readonly probe?: ProbeSummary;
    /** The longest the service's event loop was held at once during the run (loopTarget). */
    readonly loopHeldMs?: number;
  }>;
}

/** Requests made one at a time beside a run (a liveness probe), and their times. */
export interface ProbeSummary {
  readonly name: string;
  readonly count: number;
  readonly failures: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

/** What the run about to start is: its length, and how fast this server did the earlier ones. */
export interface RunPlan {
  readonly durationSec: number;
  readonly connections: number;
  /** The highest req/s of this server's earlier runs of the workload (none before the first). */
  readonly fastestReqPerSec?: number;
}

export interface Workload<Name extends string = string> {
  /** What --only and the report call it. */
  readonly name: Name;
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Default /special-events. */
  readonly path?: string;
  readonly body?: string;
  /** The status of every answer; the bare references (no authentication) answer referenceStatus. */
  readonly status: number;
  readonly referenceStatus?: number;
  /** Sent with a wrong password (the same on every request). */
  readonly wrongCredentials?: boolean;
  /** Sent without an Authorization header (public read: the service runs with PUBLIC_READ=true). */
  readonly anonymous?: boolean;
  /** Who runs it in the regular runs, in alternation (none: only in an alternation, or on the large table). */
  readonly servers: readonly Role[];
  /** Also on the service with the large table, against a service on an empty one (target: p50, p99 ≤ 1.2×). */
  readonly largeTable?: boolean;
  /** Before each run on a server (warm-up included): where its requests go, what to undo after. */
  readonly prepare?: (subject: Subject, run: RunPlan) => Promise<RunSetup>;
  /** Target: the service's req/s ≥ this share of the baseline's (the mandated stack's floor beside it). */
  readonly ratioTarget?: number;
  /**
   * Why the p99 ≤ 50 ms that every other workload's latency is held to is not this one's target:
   * the report lists it as n/a with this reason.
   */
  readonly latencyExempt?: string;
  /** Target: the p99 of the probe its runs make beside them (RunSetup.after) ≤ this many ms, in every run. */
  readonly probeTarget?: { readonly maxP99Ms: number; readonly title: string };
  /**
   * Target: the service's event loop held at most this many ms at once in every run (the run's
   * RunSetup.after reports it), the service on one core (issue 50).
   */
  readonly loopTarget?: { readonly maxMs: number };
  /** Target: the service's req/s ≥ `least` of its own on another workload; `title` names this one. */
  readonly relativeTarget?: { readonly of: Workload; readonly least: number; readonly title: string };
}

/** A workload, its name kept as a literal type (index.ts: WorkloadName). */
export function workload<const Name extends string>(definition: Workload<Name>): Workload<Name> {
  return definition;
}

/** One side of an alternation: a workload, set up its own way before each of its runs. */
export interface Side {
  readonly workload: Workload;
  readonly prepare?: () => Promise<RunSetup>;
}

/**
 * Runs of `plain` and `variant` by turns on the service (measure/alternate.ts), each pair seconds
 * apart: the median of the run-by-run ratios variant ÷ plain is the cost of the variant.
 */
export interface Alternation {
  /** Measured when this workload is (--only), after the regular runs. */
  readonly when: Workload;
  readonly plain: string;
  readonly variant: string;
  /** Target: the ratio ≥ least (on one database, when `on`); `of` is how the target names the plain side. */
  readonly target?: { readonly least: number; readonly on?: DatabaseKind; readonly of?: string };
  /** Sets it up on a service before the first run: its two sides, and what to close after the last. */
  readonly open: (subject: Subject) => Promise<{ plain: Side; variant: Side; close?: () => Promise<void> }>;
}

/** What a module's file exports: its workloads and its alternations, as index.ts lists them. */
export interface BenchModule {
  readonly workloads: readonly Workload[];
  readonly alternations?: readonly Alternation[];
}

/** `prepare` once per server (a week set, a read set seeded): every later call answers the first one's promise. */
export function oncePerServer<T>(prepare: (subject: Subject) => Promise<T>): (subject: Subject) => Promise<T> {
  const done = new WeakMap<ServerProcess, Promise<T>>();
  return (subject) => {
    let promise = done.get(subject.server);
    if (promise === undefined) {
      promise = prepare(subject);
      done.set(subject.server, promise);
    }
    return promise;
  };
}
