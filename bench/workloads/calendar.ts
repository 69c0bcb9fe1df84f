/**
 * The calendar module: GET /calendar/{token}.ics, a feed at its 16 MiB bound (2,000 events of
 * 5,000 characters and 3 dates, the shape a feed once stalled the service with), on the service
 * alone. Beside its req/s, each run reads the longest the event loop was held meanwhile (the
 * service's own nodejs_eventloop_lag_max_seconds, reset by the read before the run): a feed is
 * built in slices, and no slice may hold the loop past MAX_LOOP_BLOCK_MS, at any size of data
 * (its loopTarget: the report says in how many runs that held).
 */
import { VALID_AUTHORIZATION } from '../servers/databases.js';
import { httpExpect } from '../servers/http.js';
import { loopBlockMs } from './liveness-probe.js';
import { waitReady } from '../servers/process.js';
import { seedEvents, type EventRow } from './seed.js';
import { oncePerServer, workload, type BenchModule } from './workload.js';

const FEED_EVENTS = 2_000;
/** Far from every other workload's dates: the feed's range holds only these events. */
const YEAR = 2731;
const RANGE = `startDate=${YEAR}-01-01&endDate=${YEAR}-12-31`;
const MAX_LOOP_BLOCK_MS = 50;

const DESCRIPTION = 'Torches, dinosaurs; nights '.repeat(200).slice(0, 5000);

function feedRow(eventId: string, index: number): EventRow {
  const day = (offset: number): string =>
    new Date(Date.UTC(YEAR, 0, 1 + (index % 300) + offset)).toISOString().slice(0, 10);
  return [eventId, 'Night walk', 'Atrium', DESCRIPTION, JSON.stringify([day(0), day(30), day(60)]), 5];
}

/** The events seeded and a feed token made, once per server: the feed's path. */
const feedPathOf = oncePerServer(async ({ server, label, database, seeding }) => {
  if (!database) throw new Error(`${label}: the calendar feed needs a database`);
  const seed = await seedEvents(database.url, FEED_EVENTS, { row: feedRow });
  seeding.push({ database: database.kind, purpose: 'calendar feed', count: FEED_EVENTS, ms: seed.ms });
  await waitReady(server.port, 10_000);
  const created = await httpExpect(
    {
      port: server.port,
      method: 'POST',
      path: '/calendar-tokens',
      headers: { authorization: VALID_AUTHORIZATION, 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'bench' }),
    },
    201,
    label,
  );
  return `/calendar/${(JSON.parse(created.body) as { token: string }).token}.ics?${RANGE}`;
});

export const CALENDAR = {
  workloads: [
    workload({
      name: 'calendar-feed',
      method: 'GET',
      status: 200,
      servers: ['service'],
      latencyExempt:
        'each answer is 16 MiB and four feeds are built at once (the others wait their turn): the latency is that ' +
        "queue's; the feed's target is the event loop's, below",
      loopTarget: { maxMs: MAX_LOOP_BLOCK_MS },
      prepare: async (subject) => {
        const path = await feedPathOf(subject);
        await loopBlockMs(subject.server.port, subject.label);
        return {
          path,
          after: async () => {
            const blocked = await loopBlockMs(subject.server.port, subject.label);
            // The report's target line (loopTarget) says whether every run kept to the bound.
            return {
              loopHeldMs: blocked,
              note: `event loop held at most ${blocked.toFixed(0)} ms at once`,
            };
          },
        };
      },
    }),
  ],
} satisfies BenchModule;
