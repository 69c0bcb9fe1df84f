/**
 * The special-events module's workloads: create, delete (of events seeded straight into the
 * database before each run), auth-fail, and get, list, update and list-deep, which find a read set
 * seeded once per server (copies of the event the references answer, so that answers are alike).
 */
import { randomUUID } from 'node:crypto';
import { EVENT_BODY, LIST_LIMIT, STORED_EVENT } from '../servers/bodies.js';
import { VALID_AUTHORIZATION } from '../servers/databases.js';
import { httpExpect, sleep } from '../servers/http.js';
import { waitReady } from '../servers/process.js';
import { deleteEvents, seedEvents, type EventRow } from './seed.js';
import { oncePerServer, workload, type BenchModule, type RunPlan, type RunSetup, type Subject } from './workload.js';

/** A first list page: EVENT_BODY's dates are in this range, so every event of the read set matches. */
export const LIST_PATH = `/special-events?startDate=2026-03-01&endDate=2026-03-31&limit=${LIST_LIMIT}`;
/** The page list-deep asks for, reached by following `next` links from LIST_PATH. */
const DEEP_PAGE = 50;
/** More than DEEP_PAGE pages of LIST_PATH's limit, so that page DEEP_PAGE exists on any table. */
const READ_SET_SIZE = 1100;
/** Ids seeded per second of a delete run before the first run told how fast deletes go. */
const IDS_PER_SECOND_GUESS = 20_000;
/** Once a run measured the rate: this many times the fastest run so far, within floor and guess. */
const IDS_RATE_MARGIN = 3;
const IDS_PER_SECOND_FLOOR = 5000;
/** The server settles (answers in flight when the run stopped) before the database is touched. */
const SETTLE_MS = 300;

const randomEventPath = (): string => `/special-events/${randomUUID()}`;

/** Hands each GET or PATCH the next of the seeded ids, round and round. */
export function cyclingPaths(ids: readonly string[]): () => string {
  let next = 0;
  return () => `/special-events/${ids[next++ % ids.length] as string}`;
}

/**
 * delete on a server with a database: as many events as the run can delete (a guess, then three
 * times the fastest run so far) seeded while no load runs, handed to the DELETEs one each (random
 * ids, 404, once they run out), and the unused ones removed after it. A reference deletes random ids.
 */
async function seedForDelete(subject: Subject, run: RunPlan): Promise<RunSetup> {
  const database = subject.database;
  if (!database) return { nextPath: randomEventPath };
  const perSecond =
    run.fastestReqPerSec === undefined
      ? IDS_PER_SECOND_GUESS
      : Math.min(IDS_PER_SECOND_GUESS, Math.max(IDS_PER_SECOND_FLOOR, IDS_RATE_MARGIN * run.fastestReqPerSec));
  const seeded = Math.ceil(perSecond * run.durationSec) + 2 * run.connections;
  const { ids, ms } = await seedEvents(database.url, seeded, { keepIds: true });
  subject.seeding.push({ database: database.kind, purpose: 'delete ids', count: seeded, ms });
  // Ready on SQLite also means the write lock is free again.
  await waitReady(subject.server.port, 10_000);
  let [handedOut, overrun] = [0, 0];
  const nextPath = (): string => {
    const id = ids[handedOut];
    if (id === undefined) overrun++;
    else handedOut++;
    return id === undefined ? randomEventPath() : `/special-events/${id}`;
  };
  const after = async () => {
    await sleep(SETTLE_MS);
    // Never handed out, or handed to one of the last requests, which the end of the run may have cut off.
    await deleteEvents(database.url, ids.slice(Math.max(0, handedOut - run.connections)));
    return {
      problems:
        overrun > 0
          ? [`ran out of seeded event ids: ${overrun} DELETEs of random ids (404) at the end of the run`]
          : [],
    };
  };
  return { nextPath, seeded, after };
}

/** The `next` target of a Link header (RFC 8288), or undefined. */
function nextLink(link: string | string[] | undefined): string | undefined {
  const text = Array.isArray(link) ? link.join(', ') : (link ?? '');
  return /<([^>]*)>\s*;\s*rel="?next"?/.exec(text)?.[1];
}

/**
 * The events get, update and list-deep find on a server with a database: READ_SET_SIZE copies of
 * EVENT_BODY (so that the service's answers are as large as the baseline's fixed ones), seeded on
 * first use, and the path of page DEEP_PAGE of LIST_PATH, reached by following `next` links.
 */
export const readSetOf = oncePerServer(async ({ server, label, database, seeding }) => {
  if (!database) throw new Error(`${label}: a read set needs a database`);
  const { name, location, eventDescription, dates, price } = JSON.parse(EVENT_BODY) as {
    [field in 'name' | 'location' | 'eventDescription']: string;
  } & { dates: string[]; price: number };
  const row = (id: string): EventRow => [id, name, location, eventDescription, JSON.stringify(dates), price];
  const seed = await seedEvents(database.url, READ_SET_SIZE, { keepIds: true, row });
  seeding.push({ database: database.kind, purpose: 'read set', count: READ_SET_SIZE, ms: seed.ms });
  await waitReady(server.port, 10_000);
  const get = (path: string) =>
    httpExpect({ port: server.port, method: 'GET', path, headers: { authorization: VALID_AUTHORIZATION } }, 200, label);
  const one = await get(`/special-events/${seed.ids[0]}`);
  if (one.body.length !== JSON.stringify(STORED_EVENT).length) {
    throw new Error(
      `${label}: a seeded event is ${one.body.length} characters, the baseline's fixed body ` +
        `${JSON.stringify(STORED_EVENT).length}: the get ratio would not compare answers of the same size`,
    );
  }
  let path: string | undefined = LIST_PATH;
  for (let page = 1; page < DEEP_PAGE && path !== undefined; page++) {
    const next = nextLink((await get(path)).headers.link);
    path =
      next === undefined ? undefined : new URL(next, server.baseUrl).pathname + new URL(next, server.baseUrl).search;
  }
  return { ids: seed.ids, deepPath: path };
});

/** get and update: the read set's events in turn; random ids on a reference. */
async function readSetIds(subject: Subject): Promise<RunSetup> {
  return { nextPath: subject.database ? cyclingPaths((await readSetOf(subject)).ids) : randomEventPath };
}

/** list-deep: page DEEP_PAGE of LIST_PATH (a reference answers LIST_PATH's first page). */
async function deepPage(subject: Subject): Promise<RunSetup> {
  if (!subject.database) return {};
  const { deepPath } = await readSetOf(subject);
  if (deepPath === undefined) throw new Error(`${subject.label}: LIST_PATH has fewer than ${DEEP_PAGE} pages`);
  return { path: deepPath };
}

const ALL = ['baseline', 'nest-floor', 'stack', 'service'] as const;
// The mandated stack's floor answers get and a first list page (the read targets' floor), not update.
const READERS = ['baseline', 'stack', 'service'] as const;
/** A Museum API update (application/json): a new price, the other fields unchanged. */
export const UPDATE_BODY = JSON.stringify({ price: 24.5 });

export const create = workload({
  name: 'create',
  method: 'POST',
  body: EVENT_BODY,
  status: 201,
  servers: ALL,
  largeTable: true,
  ratioTarget: 0.5,
});
export const get = workload({
  name: 'get',
  method: 'GET',
  status: 200,
  servers: READERS,
  prepare: readSetIds,
  largeTable: true,
  ratioTarget: 0.5,
});

export const list = workload({
  name: 'list',
  method: 'GET',
  path: LIST_PATH,
  status: 200,
  servers: READERS,
  largeTable: true,
  ratioTarget: 0.5,
});

export const SPECIAL_EVENTS = {
  workloads: [
    create,
    workload({
      name: 'delete',
      method: 'DELETE',
      status: 204,
      servers: ALL,
      prepare: seedForDelete,
      largeTable: true,
      ratioTarget: 0.6,
    }),
    // The references have no authentication: the same POST is simply created.
    workload({
      name: 'auth-fail',
      method: 'POST',
      body: EVENT_BODY,
      status: 401,
      referenceStatus: 201,
      servers: ALL,
      wrongCredentials: true,
    }),
    get,
    list,
    workload({
      name: 'update',
      method: 'PATCH',
      body: UPDATE_BODY,
      status: 200,
      servers: ['baseline', 'service'],
      prepare: readSetIds,
      largeTable: true,
    }),
    // 49 `next` links deep, then that page over and over: only the large table and its control have 50 pages.
    workload({
      name: 'list-deep',
      method: 'GET',
      path: LIST_PATH,
      status: 200,
      servers: [],
      prepare: deepPage,
      largeTable: true,
    }),
  ],
} satisfies BenchModule;
