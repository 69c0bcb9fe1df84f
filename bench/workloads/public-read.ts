/**
 * Public read (PUBLIC_READ=true): the first list page without credentials, as a museum's website
 * reads it, on the service alone. A cache miss (200, the whole page) and a revalidation (304 for
 * the page's current ETag, no body), each measured by turns with the same service's
 * authenticated list of the same page: at least as fast (the target). By turns, because
 * runs minutes apart on a shared machine differ by more than what is compared.
 */
import { httpExpect } from '../servers/http.js';
import { startLivenessProbe } from './liveness-probe.js';
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

/** The pages the flood asks for in turn: as many URLs, each a miss of the answer cache once a second. */
const FLOOD_PAGES = 100;

/**
 * A flood of anonymous list reads (FLOOD_PAGES different pages in turn, so that the database is
 * read too, not only the answer cache) with a liveness probe beside it: the probe's p99 must stay
 * within the 50 ms that bounds the event loop's turns (the "a liveness probe beside a
 * flood of anonymous reads stays under 50 ms").
 */
const listAnonymousFlood = workload({
  name: 'list-anonymous-flood',
  method: 'GET',
  path: LIST_PATH,
  status: 200,
  anonymous: true,
  servers: ['service'],
  probeTarget: { maxP99Ms: 50, title: 'GET /health/live beside the flood' },
  prepare: async (subject) => {
    await currentTag(subject);
    let turn = 0;
    const stop = startLivenessProbe(subject.server.baseUrl);
    return {
      nextPath: () => LIST_PATH.replace(/limit=\d+/, `limit=${1 + (turn++ % FLOOD_PAGES)}`),
      after: async () => ({ probe: await stop() }),
    };
  },
});

export const PUBLIC_READ = {
  workloads: [listAnonymous, listAnonymous304, listAnonymousFlood],
  alternations: [
    {
      when: listAnonymous,
      plain: 'list',
      variant: 'list-anonymous (cache miss)',
      target: { least: 1, of: 'the authenticated list' },
      open: async (subject) => {
        await currentTag(subject);
        return { plain: { workload: list }, variant: { workload: listAnonymous } };
      },
    },
    {
      when: listAnonymous304,
      plain: 'list',
      variant: 'list-anonymous-304 (revalidation)',
      target: { least: 1, of: 'the authenticated list' },
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
  ],
} satisfies BenchModule;
