/** `npm run bench`'s options (--help), and the checks of a number or a list of names it shares with bench:compare. */
import { parseArgs } from 'node:util';
import { errorText } from '../servers/http.js';
import { WORKLOAD_NAMES, type WorkloadName } from '../workloads/index.js';

/** How every workload is run: its connections, and the length and number of its runs. */
export interface Plan {
  readonly connections: number;
  readonly warmupSec: number;
  readonly durationSec: number;
  readonly repetitions: number;
}

export interface BenchOptions extends Plan {
  /** Events seeded for the large-table runs (SQLite and MySQL). */
  readonly events: number;
  readonly skipLarge: boolean;
  readonly mysql: boolean;
  readonly only: readonly WorkloadName[];
  readonly quick: boolean;
  /** Seconds of the mixed-load soak on each database, after its warm-up (0: none). */
  readonly soakSec: number;
}

export const DEFAULTS: BenchOptions = {
  connections: 50,
  durationSec: 10,
  warmupSec: 3,
  repetitions: 3,
  events: 1_000_000,
  skipLarge: false,
  mysql: true,
  only: WORKLOAD_NAMES,
  quick: false,
  soakSec: 300,
};

const QUICK = { durationSec: 2, warmupSec: 1, repetitions: 1, events: 20_000, soakSec: 12 } as const;

export const HELP = `Usage: npm run bench -- [options]

Measures the service (SQLite, and MySQL when MYSQL_TEST_URL answers) against a bare Express
baseline and a bare NestJS floor with autocannon; prints a markdown table and writes
bench/results/<timestamp>.json.

Options:
  --connections N      concurrent connections per run (default ${DEFAULTS.connections})
  --duration S         seconds of each measured run (default ${DEFAULTS.durationSec})
  --warmup S           seconds of the discarded warm-up before each workload (default ${DEFAULTS.warmupSec})
  --repetitions N      measured runs per server and workload; medians are reported (default ${DEFAULTS.repetitions})
  --events N           events seeded for the large-table runs (default ${DEFAULTS.events})
  --soak S             seconds of the mixed-load soak (create, get, update, list, delete) on each
                       database, the heap read after warm-up and at the end (default ${DEFAULTS.soakSec}; 0: none)
  --skip-large         skip the large-table runs
  --no-mysql           skip MySQL even when it is reachable
  --only LIST          workloads to run, comma-separated: ${WORKLOAD_NAMES.join(',')} (default: all)
  --quick              duration ${QUICK.durationSec}, warmup ${QUICK.warmupSec}, repetitions ${QUICK.repetitions}, events ${QUICK.events}, soak ${QUICK.soakSec}: tries the harness out
                       (explicit options given with it still win)
  --help               this text

Environment: MYSQL_TEST_URL (default mysql://root@127.0.0.1:3306), a server on which the
benchmark may create and drop databases.
`;

export class UsageError extends Error {}

const FLAGS = ['help', 'skip-large', 'no-mysql', 'quick'] as const;
const VALUES = ['connections', 'duration', 'warmup', 'repetitions', 'events', 'only', 'soak'] as const;

/** Parses `--name value`, `--name=value` and flags (node:util parseArgs); null when --help was asked for. */
export function parseOptions(argv: readonly string[]): BenchOptions | null {
  let given: { [flag in (typeof FLAGS)[number]]?: boolean } & { [name in (typeof VALUES)[number]]?: string };
  try {
    const options = [
      ...FLAGS.map((name) => [name, { type: 'boolean' }] as const),
      ...VALUES.map((name) => [name, { type: 'string' }] as const),
    ];
    given = parseArgs({ args: [...argv], options: Object.fromEntries(options), strict: true }).values;
  } catch (error) {
    throw new UsageError(errorText(error));
  }
  if (given.help) return null;

  const quick = given.quick === true;
  const base = quick ? { ...DEFAULTS, ...QUICK } : DEFAULTS;
  const number = (name: (typeof VALUES)[number], fallback: number, min: number): number => {
    const raw = given[name];
    return raw === undefined ? fallback : wholeNumber(raw, min, `--${name}`);
  };
  return {
    connections: number('connections', base.connections, 1),
    durationSec: number('duration', base.durationSec, 1),
    warmupSec: number('warmup', base.warmupSec, 0),
    repetitions: number('repetitions', base.repetitions, 1),
    events: number('events', base.events, 0),
    skipLarge: given['skip-large'] === true,
    mysql: given['no-mysql'] !== true,
    only: given.only === undefined ? [...WORKLOAD_NAMES] : only(given.only),
    quick,
    soakSec: number('soak', base.soakSec, 0),
  };
}

/** `raw` as a whole number ≥ min, or a UsageError naming it `what`. */
export function wholeNumber(raw: string, min: number, what: string): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new UsageError(`${what} must be a whole number ≥ ${min}`);
  return value;
}

/** The comma-separated names of `raw`, in its order, each one of `known`; at least one. */
export function namesFrom<Name extends string>(raw: string, known: readonly Name[], what: string): Name[] {
  const names = raw
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!(known as readonly string[]).includes(name))
      throw new UsageError(`${what}: unknown workload "${name}" (known: ${known.join(', ')})`);
  }
  if (names.length === 0) throw new UsageError(`${what} needs at least one workload`);
  return names as Name[];
}

/** --only: the workloads named, in the registry's order. */
function only(raw: string): WorkloadName[] {
  const names = namesFrom(raw, WORKLOAD_NAMES, '--only');
  return WORKLOAD_NAMES.filter((name) => names.includes(name));
}
