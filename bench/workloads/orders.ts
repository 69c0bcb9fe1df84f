/**
 * The orders module: `buy-order-4` (POST /orders, a family's order of 4 event tickets in two lines
 * of 2: every seat taken, the 4 tickets and the order written in one transaction), in alternation
 * with `buy-ticket` (one event ticket) on the same service. Issue 49 asks that an order of 4 cost
 * at most twice a one-ticket purchase: at least half its req/s. The references sell nothing: it
 * runs on the service alone.
 */
import { EVENT_BODY } from '../servers/bodies.js';
import { VALID_AUTHORIZATION } from '../servers/databases.js';
import { httpExpect } from '../servers/http.js';
import { buyTicket } from './tickets.js';
import { workload, type BenchModule, type Subject } from './workload.js';

/** Events on sale during a run, as the purchases' workload has them: many rows, not one hot one. */
const EVENTS_ON_SALE = 100;
/** A month ahead: within the sales' horizon (366 days); no event has a capacity. */
const SALE_DATE = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);

const buyOrder4 = workload({ name: 'buy-order-4', method: 'POST', path: '/orders', status: 201, servers: [] });

/**
 * EVENTS_ON_SALE events made through the API; the bodies `body(eventId)` of each, taken in turn.
 */
async function eventsOnSale({ server, label }: Subject, body: (eventId: string) => object): Promise<() => string> {
  const bodies: string[] = [];
  for (let i = 0; i < EVENTS_ON_SALE; i++) {
    const created = await httpExpect(
      {
        port: server.port,
        method: 'POST',
        path: '/special-events',
        headers: { authorization: VALID_AUTHORIZATION, 'content-type': 'application/json' },
        body: JSON.stringify({ ...(JSON.parse(EVENT_BODY) as object), dates: [SALE_DATE] }),
      },
      201,
      label,
    );
    bodies.push(JSON.stringify(body((JSON.parse(created.body) as { eventId: string }).eventId)));
  }
  let next = 0;
  return () => bodies[next++ % bodies.length] as string;
}

const ticketOf = (eventId: string) => ({
  ticketType: 'event',
  eventId,
  ticketDate: SALE_DATE,
  email: 'visitor@example.org',
});
const orderOf = (eventId: string) => {
  const line = { ticketType: 'event', eventId, ticketDate: SALE_DATE, quantity: 2 };
  return { email: 'family@example.org', lines: [line, line] };
};

export const ORDERS = {
  workloads: [buyOrder4],
  alternations: [
    {
      when: buyOrder4,
      plain: 'buy-ticket (an event ticket)',
      variant: 'buy-order-4 (an order of 4 event tickets)',
      target: { least: 0.5, of: "a one-ticket purchase's" },
      /** Each side goes round EVENTS_ON_SALE events of its own, without a capacity. */
      open: async (subject) => {
        const ticketBody = await eventsOnSale(subject, ticketOf);
        const orderBody = await eventsOnSale(subject, orderOf);
        return {
          plain: { workload: buyTicket, prepare: async () => ({ nextBody: ticketBody }) },
          variant: { workload: buyOrder4, prepare: async () => ({ nextBody: orderBody }) },
        };
      },
    },
  ],
} satisfies BenchModule;
