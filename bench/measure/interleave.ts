/**
 * Server × workload measurements: a discarded warm-up, then the measured runs, with the server's
 * RSS sampled and, for delete on the service, the events seeded (directly in the database, while
 * no load runs) before each run and the unused ones removed after it. Several servers' runs can
 * alternate (measureInterleaved), so that their ratios compare runs made at nearly the same time.
 */
import { randomUUID } from 'node:crypto';
import {
  cyclingPaths,
  DEEP_PAGE,
  EVENT_BODY,
  LIST_PATH,
  MUSEUM_HOURS_PATH,
  MUSEUM_WEEK,
  STORED_EVENT,
} from '../servers/bodies.js';
import type { BenchDatabase } from '../servers/databases.js';
import { httpCall, sleep } from '../servers/http.js';
import {
  isReference,
  median,
  type RunRecord,
  type SeedRecord,
  type ServerLabel,
  type TableKind,
  type WorkloadResult,
} from '../report/report.js';
import { deleteEvents, seedEvents, type EventRow } from '../workloads/seed.js';
import { RssSampler, waitReady, type StartedServer } from '../servers/process.js';
import { IdFeed, READ_SET_WORKLOADS, runLoad, SERVICE_ONLY, type WorkloadName } from './load.js';

export interface Plan {
  readonly connections: number;
  readonly warmupSec: number;
  readonly durationSec: number;
  readonly repetitions: number;
}

export interface Subject {
  readonly label: ServerLabel;
  readonly server: StartedServer;
  /**
   * The server's database: the service's or the mandated stack floor's (absent for the bare
   * baseline and the bare Nest floor).
   */
  readonly database?: BenchDatabase;
  readonly validAuthorization: string;
  readonly wrongAuthorization: string;
  /** Where seeding times are recorded. */
  readonly seeding: SeedRecord[];
  /** What its table holds (default empty: only what earlier runs left). */
  readonly table?: TableKind;
  /** large: how many events were seeded. */
  readonly storedEvents?: number;
}

/** Ids seeded per second of a delete run before the first run told how fast deletes go. */
const IDS_PER_SECOND_GUESS = 20_000;
/** Once a run measured the rate: this many times the fastest run so far, within floor and guess. */
const IDS_RATE_MARGIN = 3;
const IDS_PER_SECOND_FLOOR = 5000;
/** The server settles (answers in flight when the run stopped) before the database is touched. */
const SETTLE_MS = 300;

export function expectedStatus(label: ServerLabel, workload: WorkloadName): number {
  if (workload === 'create' || workload === 'buy-ticket') return 201;
  if (workload === 'delete') return 204;
  if (READ_SET_WORKLOADS.includes(workload) || workload === 'museum-hours') return 200;
  // The references have no authentication: the same POST is simply created.
  return isReference(label) ? 201 : 401;
}

/**
 * The events get, list, update and list-deep find: READ_SET_SIZE copies of EVENT_BODY (so that
 * the service's answers are as large as the baseline's fixed ones), seeded once per server, and
 * the path of page DEEP_PAGE of LIST_PATH, reached by following `next` links.
 */
interface ReadSet {
  readonly ids: readonly string[];
  readonly deepPath: string | undefined;
}

/** More than DEEP_PAGE pages of LIST_PATH's limit, so that page DEEP_PAGE exists on any table. */
const READ_SET_SIZE = 1100;
const readSets = new WeakMap<StartedServer, Promise<ReadSet>>();

/**
 * Which servers run a workload: the reads and the update need an implementation. The mandated
 * stack's floors answer get and a first list page (the read targets' floor), not update or deep pages.
 */
export function runsWorkload(label: ServerLabel, workload: WorkloadName): boolean {
  if (SERVICE_ONLY.includes(workload)) return false;
  // Only the service has opening hours: compared with its own get (report: evaluateTargets).
  if (workload === 'museum-hours') return label === 'sqlite' || label === 'mysql';
  if (!READ_SET_WORKLOADS.includes(workload)) return true;
  if (label === 'stack-sqlite' || label === 'stack-mysql') return workload === 'get' || workload === 'list';
  return label === 'baseline' || label === 'sqlite' || label === 'mysql';
}

const EVENT_FIELDS = JSON.parse(EVENT_BODY) as {
  name: string;
  location: string;
  eventDescription: string;
  dates: string[];
  price: number;
};

function readSetRow(eventId: string): EventRow {
  const { name, location, eventDescription, dates, price } = EVENT_FIELDS;
  return [eventId, name, location, eventDescription, JSON.stringify(dates), price];
}

/** The `next` target of a Link header (RFC 8288), or undefined. */
export function nextLink(link: string | string[] | undefined): string | undefined {
  const text = Array.isArray(link) ? link.join(', ') : (link ?? '');
  return /<([^>]*)>\s*;\s*rel="?next"?/.exec(text)?.[1];
}

async function prepareReadSet(subject: Subject): Promise<ReadSet> {
  const database = subject.database as BenchDatabase;
  const seed = await seedEvents(database.url, READ_SET_SIZE, { keepIds: true, row: readSetRow });
  subject.seeding.push({ database: database.kind, purpose: 'read set', count: READ_SET_SIZE, ms: seed.ms });
  await waitReady(subject.server.port, 10_000);
  const headers = { authorization: subject.validAuthorization };
  const one = await httpCall({
    port: subject.server.port,
    method: 'GET',
    path: `/special-events/${seed.ids[0]}`,
    headers,
  });
  if (one.status !== 200)
    throw new Error(`${subject.label}: GET of a seeded event answered ${one.status}: ${one.body}`);
  if (one.body.length !== JSON.stringify(STORED_EVENT).length) {
    throw new Error(
      `${subject.label}: a seeded event is ${one.body.length} characters, the baseline's fixed body ` +
        `${JSON.stringify(STORED_EVENT).length}: the get ratio would not compare answers of the same size`,
    );
  }
  let path: string | undefined = LIST_PATH;
  for (let page = 1; page < DEEP_PAGE && path !== undefined; page++) {
    const answer = await httpCall({ port: subject.server.port, method: 'GET', path, headers });
    if (answer.status !== 200)
      throw new Error(`${subject.label}: GET ${path} answered ${answer.status}: ${answer.body}`);
    const next = nextLink(answer.headers.link);
    path =
      next === undefined
        ? undefined
        : new URL(next, subject.server.baseUrl).pathname + new URL(next, subject.server.baseUrl).search;
  }
  return { ids: seed.ids, deepPath: path };
}

/** The seeded read set of a server with a database, prepared on first use. */
function readSetOf(subject: Subject): Promise<ReadSet> {
  let readSet = readSets.get(subject.server);
  if (readSet === undefined) {
    readSet = prepareReadSet(subject);
    readSets.set(subject.server, readSet);
  }
  return readSet;
}

/** Where a read or update request goes: the seeded events, or random ids on a reference. */
async function readTarget(
  subject: Subject,
  workload: WorkloadName,
): Promise<{ nextPath?: () => string; path?: string }> {
  if (workload === 'list') return { path: LIST_PATH };
  if (!subject.database)
    return workload === 'list-deep' ? { path: LIST_PATH } : { nextPath: () => `/special-events/${randomUUID()}` };
  const readSet = await readSetOf(subject);
  if (workload === 'list-deep') {
    if (readSet.deepPath === undefined)
      throw new Error(`${subject.label}: LIST_PATH has fewer than ${DEEP_PAGE} pages`);
    return { path: readSet.deepPath };
  }
  return { nextPath: cyclingPaths(readSet.ids) };
}

const weeksSet = new WeakMap<StartedServer, Promise<void>>();

/** MUSEUM_WEEK set on the server (once), so that MUSEUM_HOURS_PATH lists 30 open days. */
function museumWeekOf(subject: Subject): Promise<void> {
  let set = weeksSet.get(subject.server);
  if (set === undefined) {
    set = httpCall({
      port: subject.server.port,
      method: 'PUT',
      path: '/museum-hours/weekly',
      headers: { authorization: subject.validAuthorization, 'content-type': 'application/json' },
      body: MUSEUM_WEEK,
    }).then((answer) => {
      if (answer.status !== 200)
        throw new Error(`${subject.label}: PUT /museum-hours/weekly answered ${answer.status}`);
    });
    weeksSet.set(subject.server, set);
  }
  return set;
}

/**
 * One server × workload, one run at a time: the discarded warm-up and each measured run are
 * separate steps, so that several servers' runs can alternate (measureInterleaved).
 */
class WorkloadMeasurement {
  private readonly runs: RunRecord[] = [];
  private readonly problems: string[] = [];
  private measuredRate: number | undefined;
  private index = 0;

  private readonly table: TableKind;

  constructor(
    private readonly subject: Subject,
    private readonly workload: WorkloadName,
    private readonly plan: Plan,
    private readonly interleaved = false,
  ) {
    this.table = subject.table ?? 'empty';
  }

  async run(phase: 'warm-up' | 'measured'): Promise<void> {
    const { subject, workload, plan, table } = this;
    const durationSec = phase === 'warm-up' ? plan.warmupSec : plan.durationSec;
    const name = `${subject.label} ${workload}${table === 'empty' ? '' : ` (${table} table)`} ${phase === 'warm-up' ? 'warm-up' : `run ${++this.index}/${plan.repetitions}`}`;

    let feed: IdFeed | undefined;
    let seeded: number | undefined;
    if (workload === 'delete' && subject.database) {
      const perSecond =
        this.measuredRate === undefined
          ? IDS_PER_SECOND_GUESS
          : Math.min(IDS_PER_SECOND_GUESS, Math.max(IDS_PER_SECOND_FLOOR, IDS_RATE_MARGIN * this.measuredRate));
      seeded = Math.ceil(perSecond * durationSec) + 2 * plan.connections;
      const seed = await seedEvents(subject.database.url, seeded, { keepIds: true });
      subject.seeding.push({ database: subject.database.kind, purpose: 'delete ids', count: seeded, ms: seed.ms });
      feed = new IdFeed(seed.ids);
      // Ready on SQLite also means the write lock is free again.
      await waitReady(subject.server.port, 10_000);
    }
    if (workload === 'museum-hours') await museumWeekOf(subject);
    const target = READ_SET_WORKLOADS.includes(workload)
      ? await readTarget(subject, workload)
      : workload === 'museum-hours'
        ? { path: MUSEUM_HOURS_PATH }
        : workload !== 'delete'
          ? {}
          : { nextPath: feed ? () => feed.nextPath() : () => `/special-events/${randomUUID()}` };

    const rss = phase === 'measured' ? new RssSampler(subject.server.pid) : undefined;
    rss?.start();
    const outcome = await runLoad({
      baseUrl: subject.server.baseUrl,
      workload,
      connections: plan.connections,
      durationSec,
      authorization: workload === 'auth-fail' ? subject.wrongAuthorization : subject.validAuthorization,
      expectedStatus: expectedStatus(subject.label, workload),
      warmup: phase === 'warm-up',
      ...target,
    });
    const rssMaxMiB = rss?.stop();
    this.measuredRate = Math.max(this.measuredRate ?? 0, outcome.reqPerSec);

    const runProblems = [...outcome.problems];
    if (feed && feed.exhausted > 0) {
      runProblems.push(
        `ran out of seeded event ids: ${feed.exhausted} DELETEs of random ids (404) at the end of the run`,
      );
    }
    for (const problem of runProblems) this.problems.push(`${name}: ${problem}`);
    this.runs.push({
      ...outcome,
      phase,
      ...(rssMaxMiB === undefined ? {} : { rssMaxMiB }),
      ...(seeded === undefined ? {} : { seeded }),
    });
    progress(name, outcome.reqPerSec, outcome.p50Ms, outcome.p99Ms, rssMaxMiB, runProblems);

    if (feed && subject.database) {
      await sleep(SETTLE_MS);
      await deleteEvents(subject.database.url, feed.leftovers(plan.connections));
    }
    if (!subject.server.process.running) {
      throw new Error(
        `${name}: the server exited (${subject.server.process.describeExit()}):\n${subject.server.process.logTail()}`,
      );
    }
  }

  result(): WorkloadResult {
    const measured = this.runs.filter((run) => run.phase === 'measured');
    return {
      server: this.subject.label,
      workload: this.workload,
      table: this.table,
      ...(this.subject.storedEvents === undefined ? {} : { storedEvents: this.subject.storedEvents }),
      interleaved: this.interleaved,
      runs: this.runs,
      reqPerSec: median(measured.map((run) => run.reqPerSec)),
      p50Ms: median(measured.map((run) => run.p50Ms)),
      p99Ms: median(measured.map((run) => run.p99Ms)),
      rssMaxMiB: Math.max(0, ...measured.map((run) => run.rssMaxMiB ?? 0)),
      problems: this.problems,
    };
  }
}

/**
 * Several servers × one workload, their runs alternating: every server's warm-up, then run 1 of
 * each, run 2 of each, and so on. On a shared machine whose speed drifts during a run (it did
 * here, by a factor of two within minutes), the n-th runs of two servers saw nearly the same
 * machine: ratios are taken run by run (report/report.ts, ratio) instead of between medians taken
 * minutes apart.
 */
export async function measureInterleaved(
  subjects: readonly Subject[],
  workload: WorkloadName,
  plan: Plan,
): Promise<WorkloadResult[]> {
  const measurements = subjects.map((subject) => new WorkloadMeasurement(subject, workload, plan, true));
  if (plan.warmupSec > 0) for (const measurement of measurements) await measurement.run('warm-up');
  for (let repetition = 0; repetition < plan.repetitions; repetition++) {
    for (const measurement of measurements) await measurement.run('measured');
  }
  return measurements.map((measurement) => measurement.result());
}

function progress(
  name: string,
  reqPerSec: number,
  p50: number,
  p99: number,
  rss: number | undefined,
  problems: readonly string[],
): void {
  const rssText = rss === undefined ? '' : `, RSS ${rss.toFixed(1)} MiB`;
  process.stderr.write(
    `  ${name}: ${Math.round(reqPerSec)} req/s, p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms${rssText}\n`,
  );
  for (const problem of problems) process.stderr.write(`  !!! ${name}: ${problem}\n`);
}
