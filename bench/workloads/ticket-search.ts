/**
 * The tickets' search (issue 49): `search-tickets-page`, one keyset page of an event's tickets
 * (GET /tickets?eventId=…&limit=LIST_LIMIT, a full page with its `Link` to the next), in
 * alternation with `list` (a full event list page of the same limit, of the read set's events) on
 * the same service; the issue asks a search page to be as cheap as a list page, so the target is
 * at least 1× its req/s. The references sell nothing: it runs on the service alone.
 */
import { EVENT_BODY, LIST_LIMIT } from '../servers/bodies.js';
import { VALID_AUTHORIZATION } from '../servers/databases.js';
import { httpExpect } from '../servers/http.js';
import { list, readSetOf } from './special-events.js';
import { oncePerServer, workload, type BenchModule, type Subject } from './workload.js';

/** Events whose tickets are searched, in turn: a box office looks up many events, not one. */
const EVENTS_SEARCHED = 10;
/** More than a page per event, so that every page is full and carries its `next` link. */
const TICKETS_PER_EVENT = LIST_LIMIT + 1;
/** A month ahead: within the sales' horizon (366 days) whatever the machine's date. */
const SALE_DATE = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);

const searchTicketsPage = workload({
  name: 'search-tickets-page',
  method: 'GET',
  path: '/tickets',
  status: 200,
  servers: [],
});

/** EVENTS_SEARCHED events made and their tickets sold through the API, once per server: their search paths. */
const eventsWithTickets = oncePerServer(async ({ server, label }: Subject): Promise<string[]> => {
  const send = (method: string, path: string, body: object, status: number) =>
    httpExpect(
      {
        port: server.port,
        method,
        path,
        headers: { authorization: VALID_AUTHORIZATION, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      },
      status,
      label,
    );
  const paths: string[] = [];
  for (let i = 0; i < EVENTS_SEARCHED; i++) {
    const created = await send(
      'POST',
      '/special-events',
      { ...(JSON.parse(EVENT_BODY) as object), dates: [SALE_DATE] },
      201,
    );
    const { eventId } = JSON.parse(created.body) as { eventId: string };
    for (let sold = 0; sold < TICKETS_PER_EVENT; sold++) {
      await send(
        'POST',
        '/tickets',
        { ticketType: 'event', eventId, ticketDate: SALE_DATE, email: `visitor-${sold}@example.org` },
        201,
      );
    }
    paths.push(`/tickets?eventId=${eventId}&limit=${LIST_LIMIT}`);
  }
  return paths;
});

export const TICKET_SEARCH = {
  workloads: [searchTicketsPage],
  alternations: [
    {
      when: searchTicketsPage,
      plain: 'list',
      variant: `search-tickets-page (an event's tickets, limit ${LIST_LIMIT})`,
      target: { least: 1, of: 'an event list page' },
      open: async (subject) => {
        // The list's side is a full page too: its read set (LIST_PATH's events), which only the
        // read workloads seeded before, so that a run of `--only list,search-tickets-page` did
        // compare a full page of tickets with an empty list (`[]`).
        await readSetOf(subject);
        const paths = await eventsWithTickets(subject);
        let next = 0;
        const nextPath = (): string => paths[next++ % paths.length] as string;
        return {
          plain: { workload: list },
          variant: { workload: searchTicketsPage, prepare: () => Promise.resolve({ nextPath }) },
        };
      },
    },
  ],
} satisfies BenchModule;
