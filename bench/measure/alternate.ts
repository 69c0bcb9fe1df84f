/**
 * An alternation (workloads/workload.ts) on one service: its plain and variant runs in turn, a
 * warm-up of each first, so that each ratio variant ÷ plain compares runs made seconds apart.
 */
import type { DatabaseKind } from '../servers/databases.js';
import type { Alternation, Subject } from '../workloads/workload.js';
import { inTurn } from './interleave.js';
import { median, runLoad } from './load.js';
import type { Plan } from './options.js';

/** Requests of one kind against requests of another, run in alternation on the same service. */
export interface AlternationResult {
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

export async function measureAlternation(
  subject: Subject,
  alternation: Alternation,
  plan: Plan,
): Promise<{ result: AlternationResult; problems: string[] }> {
  const database = subject.database?.kind;
  if (database === undefined) throw new Error(`${subject.label}: an alternation runs on the service`);
  const opened = await alternation.open(subject);
  const [plain, variant]: { reqPerSec: number; p99Ms: number; note?: string }[][] = [[], []];
  const sides = [
    { name: alternation.plain, side: opened.plain, runs: plain },
    { name: alternation.variant, side: opened.variant, runs: variant },
  ];
  const problems: string[] = [];
  try {
    await inTurn(sides, plan, async ({ name, side, runs }, warmup) => {
      const setup = (await side.prepare?.()) ?? {};
      const durationSec = warmup ? plan.warmupSec : plan.durationSec;
      const run = await runLoad(subject, side.workload, setup, { durationSec, connections: plan.connections, warmup });
      if (warmup) return;
      problems.push(...run.problems.map((problem) => `${database} ${name}: ${problem}`));
      runs.push({ reqPerSec: run.outcome.reqPerSec, p99Ms: run.outcome.p99Ms, note: run.note });
    });
  } finally {
    await opened.close?.();
  }
  return {
    result: {
      database,
      plain: alternation.plain,
      variant: alternation.variant,
      plainReqPerSec: plain.map((r) => r.reqPerSec),
      variantReqPerSec: variant.map((r) => r.reqPerSec),
      plainP99Ms: plain.map((r) => r.p99Ms),
      variantP99Ms: variant.map((r) => r.p99Ms),
      variantNotes: variant.flatMap((r) => (r.note === undefined ? [] : [r.note])),
      ratio: median(variant.map((r, index) => r.reqPerSec / (plain[index]?.reqPerSec ?? Number.NaN))),
    },
    problems,
  };
}
