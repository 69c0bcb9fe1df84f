/** The markdown printed at the end of a run (and pasteable into the README), from its report. */
import type { WorkloadResult } from '../measure/interleave.js';
import { median } from '../measure/load.js';
import type { DatabaseKind } from '../servers/databases.js';
import type { ServerLabel } from '../servers/start.js';
import type { BenchReport } from './report.js';
import { find, largeAgainstEmpty, ms, pairedRatio, ratio, type Metric } from './targets.js';

const SERVER_NAMES: Readonly<Record<ServerLabel, string>> = {
  baseline: 'baseline (Express)',
  'nest-floor': 'bare Nest 12 (floor)',
  'stack-sqlite': 'mandated stack (sqlite floor)',
  'stack-mysql': 'mandated stack (mysql floor)',
  sqlite: 'sqlite',
  mysql: 'mysql',
};

const num = (value: number): string => (Number.isNaN(value) ? '–' : Math.round(value).toLocaleString('en-US'));
const times = (value: number | undefined): string =>
  value === undefined || Number.isNaN(value) ? '–' : `${value.toFixed(2)}×`;
const flag = (result: WorkloadResult | undefined): string => (result && result.problems.length > 0 ? ' ⚠' : '');
const runs = (values: readonly number[]): string => values.map((v) => v.toFixed(0)).join(', ');
const statuses = (counts: Readonly<Record<string, number>>): string =>
  Object.entries(counts)
    .map(([status, count]) => `${count}× ${status}`)
    .join(', ') || 'none';

/** A markdown table's header and separator: the first `left` columns left-aligned, the others right. */
export function tableHead(columns: readonly string[], left: number): string[] {
  return [`| ${columns.join(' | ')} |`, `|${columns.map((_, index) => (index < left ? '---' : '---:')).join('|')}|`];
}

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
    ...tableHead(
      ['server', 'workload', 'req/s', 'p50', 'p99', 'peak RSS MiB', 'idle RSS MiB', 'baseline req/s', 'ratio'],
      2,
    ),
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
    const vsEmpty = ['req/s', 'p50', 'p99'].map((metric) => `${metric} large/empty`);
    lines.push(
      '',
      '### Large table (against a service on an empty table, run in alternation with it; medians of run-by-run ratios)',
      '',
      ...tableHead(['database', 'workload', 'stored events', 'req/s', 'p50', 'p99', ...vsEmpty], 2),
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

  lines.push('', '### Service measurements', '', ...tableHead(['measurement', 'value'], 2));
  if (report.startup) {
    const s = report.startup;
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
    const notes = cost.variantNotes.length ? `; ${cost.variantNotes.join(', ')}` : '';
    lines.push(
      `| ${cost.database}: ${cost.variant} ÷ ${cost.plain}, req/s (median of run-by-run ratios; ${runs(cost.variantReqPerSec)} against ${runs(cost.plainReqPerSec)}${notes}) | ${cost.ratio.toFixed(2)} |`,
      `| ${cost.database}: p99 of ${cost.variant} (of ${cost.plain}), ms | ${median(cost.variantP99Ms).toFixed(1)} (${median(cost.plainP99Ms).toFixed(1)}) |`,
    );
  }
  for (const soak of report.soak) {
    lines.push(
      `| ${soak.database}: soak, ${soak.durationSec} s of create, get, update, list, delete after ${soak.warmupSec} s of warm-up (${num(Math.round(soak.requestsPerSec))} req/s), heap used after a full collection, MiB, every ${Math.round(soak.durationSec / (soak.samples.length - 1))} s | ${soak.samples.map((sample) => sample.heapUsedMiB.toFixed(1)).join(' → ')} (end ÷ warm ${soak.endOverWarm.toFixed(3)}; peak RSS ${soak.rssMaxMiB.toFixed(1)} MiB) |`,
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
