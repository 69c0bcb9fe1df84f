/**
 * Public read (PUBLIC_READ=true): the first list page without credentials, as a museum's website
 * reads it, on the service alone. Three kinds of reads, each measured by turns with the same
 * service's authenticated list of the same page (by turns, because runs minutes apart on a shared
 * machine differ by more than what is compared): the same URL again and again (200 from the
 * instance's memory of anonymous answers, as a CDN's misses arrive), a revalidation (304 for the
 * page's current ETag), and a new URL every time (a miss of that memory: the page read from the
 * database). A repeat must be far cheaper than the authenticated list, a miss at least as cheap
 * (the targets). And a flood of misses with a liveness probe beside it.
 */
import { httpExpect } from '../servers/http.js';
import { loopBlockMs, startLivenessProbe } from './liveness-probe.js';
import { LIST_PATH, list, readSetOf } from './special-events.js';
import { workload, type BenchModule, type Subject } from './workload.js';

/** The read set (so the page is full), and the ETag of the anonymous page as it is now. */
async function currentTag(subject: Subject): Promise<string> {
  await readSetOf(subject);
  const { server, label } = subject;
  const page = await httpExpect({ port: server.port, method: 'GET', path: LIST_PATH, headers: {} }, 200, label);
  const etag = page.headers.etag;
  if (typeof etag !== 'string') throw new Error(`${label}: the anonymous list has no ETag`);
  return etag;
}

const listAnonymous = workload({
  name: 'list-anonymous',
  method: 'GET',
  path: LIST_PATH,
  status: 200,
  anonymous: true,
  servers: ['service'],
  prepare: async (subject) => {
    await currentTag(subject);
    return {};
  },
});

const listAnonymous304 = workload({
  name: 'list-anonymous-304',
  method: 'GET',
  path: LIST_PATH,
  status: 304,
  anonymous: true,
  servers: ['service'],
  prepare: async (subject) => ({ headers: { 'if-none-match': await currentTag(subject) } }),
});

/**
 * URLs of the same page that differ only in `endDate` (every event of the read set is in March
 * 2026, so each lists the same events): asked in turn, a URL comes back after MISS_URLS - 1 other
 * URLs, 24 times as many as the answer memory's sighting table has slots (4,096, one URL each,
 * UrlSightings): a URL keeps its slot through them with a chance of e^-24, so every read is a
 * miss. (5,000 URLs were enough for the exact list of 4,000 URLs the memory kept before.)
 */
const MISS_URLS = 100_000;
const MISS_END_DATES = Array.from({ length: MISS_URLS }, (_, day) =>
  new Date(Date.UTC(2026, 2, 31 + day)).toISOString().slice(0, 10),
);
/** Each call: the next URL of the page that the answer memory has not seen for MISS_URLS requests. */
function missingPaths(): () => string {
  let turn = 0;
  return () => LIST_PATH.replace('endDate=2026-03-31', `endDate=${MISS_END_DATES[turn++ % MISS_URLS]}`);
}

const listAnonymousMiss = workload({
  name: 'list-anonymous-miss',
  method: 'GET',
  path: LIST_PATH,
  status: 200,
  anonymous: true,
  servers: ['service'],
  prepare: async (subject) => {
    await currentTag(subject);
    return { nextPath: missingPaths() };
  },
});

/**
 * A flood of anonymous list reads, each a miss of the answer memory (the database read every
 * time, the worst case), with a liveness probe beside it: the probe's p99 must stay within the
 * 50 ms that bounds the event loop's turns (the "a liveness probe beside a flood of
 * anonymous reads stays under 50 ms").
 */
const listAnonymousFlood = workload({
  name: 'list-anonymous-flood',
  method: 'GET',
  path: LIST_PATH,
  status: 200,
  anonymous: true,
  servers: ['service'],
  latencyExempt: "a flood's latency is its queue; its target is the liveness probe's beside it",
  probeTarget: { maxP99Ms: 50, title: 'GET /health/live beside the flood' },
  loopTarget: { maxMs: 50 },
  prepare: async (subject) => {
    await currentTag(subject);
    await loopBlockMs(subject.server.port, subject.label);
    const stop = startLivenessProbe(subject.server.baseUrl);
    return {
      nextPath: missingPaths(),
      after: async () => {
        const probe = await stop();
        const held = await loopBlockMs(subject.server.port, subject.label);
        return { probe, loopHeldMs: held, note: `the service's event loop held at most ${held.toFixed(0)} ms at once` };
      },
    };
  },
});

/** Far cheaper than the authenticated list: what "a 304 or a cache hit must cost far less" is taken to mean. */
const FAR_CHEAPER = 1.5;

export const PUBLIC_READ = {
  workloads: [listAnonymous, listAnonymous304, listAnonymousMiss, listAnonymousFlood],
  alternations: [
    {
      when: listAnonymous,
      plain: 'list',
      variant: 'list-anonymous (a repeat: 200 from memory)',
      target: { least: FAR_CHEAPER, of: 'the authenticated list' },
      open: async (subject) => {
        await currentTag(subject);
        return { plain: { workload: list }, variant: { workload: listAnonymous } };
      },
    },
    {
      when: listAnonymous304,
      plain: 'list',
      variant: 'list-anonymous-304 (revalidation)',
      target: { least: FAR_CHEAPER, of: 'the authenticated list' },
      open: async (subject) => {
        const etag = await currentTag(subject);
        return {
          plain: { workload: list },
          variant: {
            workload: listAnonymous304,
            prepare: () => Promise.resolve({ headers: { 'if-none-match': etag } }),
          },
        };
      },
    },
    {
      when: listAnonymousMiss,
      plain: 'list',
      variant: 'list-anonymous-miss (a new URL: read from the database)',
      target: { least: 1, of: 'the authenticated list' },
      open: async (subject) => {
        await currentTag(subject);
        return {
          plain: { workload: list },
          variant: { workload: listAnonymousMiss, prepare: () => Promise.resolve({ nextPath: missingPaths() }) },
        };
      },
    },
  ],
} satisfies BenchModule;
