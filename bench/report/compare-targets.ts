/**
 * The verdicts `npm run bench:compare` prints under its table, each met or not, from the same
 * run's ratios: the rule that no change makes an operation slower than the build before it nor
 * than its pinned anchor (bench/anchor.ts), and issue 50's targets against named builds.
 */
import type { DatabaseKind } from '../servers/databases.js';

/** One row of the comparison: now ÷ one other build on one workload (geometric mean of the passes). */
export interface ComparedRow {
  readonly workload: string;
  /** The other build's commit (full). */
  readonly commit: string;
  /** Whether the other build is this workload's anchor. */
  readonly anchor: boolean;
  /** Whether the other build is the `<rev>` of the command line (the build before). */
  readonly revision: boolean;
  readonly rate: number;
  readonly p99: number;
}

/** A target against one build: now ÷ it ≥ `least` in req/s (and, with `p99AtMost`, p99 ÷ ≤ that). */
export interface CompareTarget {
  readonly issue: string;
  /** The database the issue sets it on: a run on another one leaves it out. */
  readonly database: DatabaseKind;
  readonly workloads: readonly string[];
  /** The build it is held against: a commit, full or abbreviated. */
  readonly against: string;
  readonly least: number;
  readonly p99AtMost?: number;
}

/** Issue 50's targets: "the writes back, and ahead" and "get and list at ≥ 1.0× of d7f5e52". */
export const COMPARE_TARGETS: readonly CompareTarget[] = [
  {
    issue: 'issue 50',
    database: 'sqlite',
    workloads: ['create', 'delete'],
    against: '61e2791',
    least: 1.1,
    p99AtMost: 1.0,
  },
  { issue: 'issue 50', database: 'sqlite', workloads: ['get', 'list'], against: 'd7f5e52', least: 1.0 },
];

const verdict = (met: boolean): string => (met ? '**PASS**' : '**FAIL**');
const short = (commit: string): string => commit.slice(0, 7);
/** A ratio as the lines show it: the verdict is the figure's, so 0.996 is shown and judged as 1.00. */
const twoPlaces = (ratio: number): number => Number(ratio.toFixed(2));

/**
 * One line per workload for the rule (no slower than the build before, nor than the anchor: now ÷
 * it ≥ 1.00), and one per workload of each target set on this run's `database` whose build this
 * run compared; a target whose workload ran but whose build did not says which command would
 * measure it.
 */
export function compareVerdicts(
  rows: readonly ComparedRow[],
  database: DatabaseKind,
  targets: readonly CompareTarget[] = COMPARE_TARGETS,
): string[] {
  const lines: string[] = [];
  for (const workload of new Set(rows.map((row) => row.workload))) {
    const against = rows.filter((row) => row.workload === workload && (row.revision || row.anchor));
    const shown = against.map(
      (row) =>
        `${row.revision ? `the build before ${short(row.commit)}` : ''}${row.revision && row.anchor ? ', ' : ''}` +
        `${row.anchor ? `its anchor ${short(row.commit)}` : ''}: ${row.rate.toFixed(2)}`,
    );
    lines.push(
      `- ${verdict(against.every((row) => twoPlaces(row.rate) >= 1))} ${workload} no slower than the build before nor its anchor ` +
        `(now ÷ it ≥ 1.00; ${shown.join('; ')})`,
    );
  }
  for (const target of targets.filter((each) => each.database === database)) {
    for (const workload of target.workloads) {
      if (!rows.some((row) => row.workload === workload)) continue;
      const title =
        `${target.issue}, ${database}: ${workload} ≥ ${target.least.toFixed(2)}× ${target.against}` +
        (target.p99AtMost === undefined ? '' : `, p99 ≤ ${target.p99AtMost.toFixed(2)}×`);
      const row = rows.find((each) => each.workload === workload && each.commit.startsWith(target.against));
      if (row === undefined) {
        lines.push(
          `- not measured in this run: ${title} (\`${database === 'mysql' ? 'BENCH_COMPARE_DATABASE=mysql ' : ''}npm run bench:compare -- ${target.against} 2 5 ${workload}\` measures it)`,
        );
        continue;
      }
      const met =
        twoPlaces(row.rate) >= target.least &&
        (target.p99AtMost === undefined || twoPlaces(row.p99) <= target.p99AtMost);
      lines.push(`- ${verdict(met)} ${title}: ${row.rate.toFixed(2)} (p99 ${row.p99.toFixed(2)})`);
    }
  }
  return lines;
}
