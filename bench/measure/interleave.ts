/**
 * Server × workload measurements: a discarded warm-up, then the measured runs, with the server's
 * RSS sampled and the workload's own set-up before each run (measure/load.ts, the workload's
 * prepare). Several servers' runs alternate (measureInterleaved), so that their ratios compare
 * runs made at nearly the same time.
 */
import type { ServerLabel } from '../servers/start.js';
import type { WorkloadName } from '../workloads/index.js';
import type { Subject, TableKind, Workload } from '../workloads/workload.js';
import { median, runLoad, type RunOutcome } from './load.js';
import type { Plan } from './options.js';
import type { ProbeSummary } from '../workloads/workload.js';

export interface RunRecord extends RunOutcome {
  readonly phase: 'warm-up' | 'measured';
  /** Largest VmRSS of the server during the run (measured runs only). */
  readonly rssMaxMiB?: number;
  /** delete on the service: events seeded for this run. */
  readonly seeded?: number;
  /** What the workload's probe measured beside the run (probeTarget). */
  readonly probe?: ProbeSummary;
  /** The longest the service's event loop was held at once during the run (loopTarget). */
  readonly loopHeldMs?: number;
}

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

/**
 * Every item's warm-up (unless the plan has none), then run 1 of each, run 2 of each, and so on,
 * each round in the order opposite to the round before (A B, B A, A B …): a run that follows
 * another on the same service inherits what that one left (its garbage, its collections to come),
 * so with an even number of repetitions every item goes first as often as second.
 * On a shared machine whose speed drifts during a run (it did here, by a factor of two within
 * minutes), the n-th runs of two items saw nearly the same machine: ratios are taken run by run
 * (report/targets.ts, pairedRatio) instead of between medians taken minutes apart.
 */
export async function inTurn<T>(
  items: readonly T[],
  plan: Plan,
  run: (item: T, warmup: boolean) => Promise<void>,
): Promise<void> {
  if (plan.warmupSec > 0) for (const item of items) await run(item, true);
  for (let repetition = 0; repetition < plan.repetitions; repetition++) {
    for (const item of repetition % 2 === 0 ? items : [...items].reverse()) await run(item, false);
  }
}

/** One server × workload, one run at a time, so that several servers' runs can alternate. */
class WorkloadMeasurement {
  private readonly runs: RunRecord[] = [];
  private readonly problems: string[] = [];
  private fastestReqPerSec: number | undefined;
  private index = 0;

  constructor(
    private readonly subject: Subject,
    private readonly workload: Workload<WorkloadName>,
    private readonly plan: Plan,
  ) {}

  async run(warmup: boolean): Promise<void> {
    const { subject, workload, plan } = this;
    const table = subject.table ?? 'empty';
    const durationSec = warmup ? plan.warmupSec : plan.durationSec;
    const name = `${subject.label} ${workload.name}${table === 'empty' ? '' : ` (${table} table)`} ${warmup ? 'warm-up' : `run ${++this.index}/${plan.repetitions}`}`;
    const { connections } = plan;
    const setup =
      (await workload.prepare?.(subject, { durationSec, connections, fastestReqPerSec: this.fastestReqPerSec })) ?? {};
    const { outcome, rssMaxMiB, problems, probe, note, loopHeldMs } = await runLoad(subject, workload, setup, {
      durationSec,
      connections,
      warmup,
      sampleRss: !warmup,
    });
    this.fastestReqPerSec = Math.max(this.fastestReqPerSec ?? 0, outcome.reqPerSec);
    for (const problem of problems) this.problems.push(`${name}: ${problem}`);
    this.runs.push({
      ...outcome,
      phase: warmup ? 'warm-up' : 'measured',
      ...(rssMaxMiB === undefined ? {} : { rssMaxMiB }),
      ...(setup.seeded === undefined ? {} : { seeded: setup.seeded }),
      ...(probe === undefined ? {} : { probe }),
      ...(loopHeldMs === undefined ? {} : { loopHeldMs }),
    });
    const rssText = rssMaxMiB === undefined ? '' : `, RSS ${rssMaxMiB.toFixed(1)} MiB`;
    const probeText =
      probe === undefined
        ? ''
        : `; ${probe.name} beside it: p99 ${probe.p99Ms.toFixed(2)} ms, max ${probe.maxMs.toFixed(2)} ms`;
    const noteText = note === undefined ? '' : `; ${note}`;
    process.stderr.write(
      `  ${name}: ${Math.round(outcome.reqPerSec)} req/s, p50 ${outcome.p50Ms.toFixed(2)} ms, p99 ${outcome.p99Ms.toFixed(2)} ms${rssText}${probeText}${noteText}\n`,
    );
    for (const problem of problems) process.stderr.write(`  !!! ${name}: ${problem}\n`);
    subject.server.checkRunning(`during ${name}`);
  }

  result(): WorkloadResult {
    const measured = this.runs.filter((run) => run.phase === 'measured');
    return {
      server: this.subject.label,
      workload: this.workload.name,
      table: this.subject.table ?? 'empty',
      ...(this.subject.storedEvents === undefined ? {} : { storedEvents: this.subject.storedEvents }),
      interleaved: true,
      runs: this.runs,
      reqPerSec: median(measured.map((run) => run.reqPerSec)),
      p50Ms: median(measured.map((run) => run.p50Ms)),
      p99Ms: median(measured.map((run) => run.p99Ms)),
      rssMaxMiB: Math.max(0, ...measured.map((run) => run.rssMaxMiB ?? 0)),
      problems: this.problems,
    };
  }
}

/** Several servers × one workload, their runs in turn (inTurn). */
export async function measureInterleaved(
  subjects: readonly Subject[],
  workload: Workload<WorkloadName>,
  plan: Plan,
): Promise<WorkloadResult[]> {
  const measurements = subjects.map((subject) => new WorkloadMeasurement(subject, workload, plan));
  await inTurn(measurements, plan, (measurement, warmup) => measurement.run(warmup));
  return measurements.map((measurement) => measurement.result());
}
