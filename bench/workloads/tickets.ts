/**
 * The tickets module: `buy-ticket` (POST /tickets, an event ticket: the seat taken and the ticket
 * written in one transaction) in alternation with creates on the same service, the purchase's
 * cost as a share of a create's req/s (issue 28 asks for at least 0.6). The references sell
 * nothing: it runs on the service alone.
 */
import { EVENT_BODY } from '../servers/bodies.js';
import { VALID_AUTHORIZATION } from '../servers/databases.js';
import { httpExpect } from '../servers/http.js';
import { create } from './special-events.js';
import { workload, type BenchModule } from './workload.js';

/** Events on sale during a purchase run: a real box office sells for many, not one hot row. */
const EVENTS_ON_SALE = 100;
/**
 * A month ahead: every purchase is for the future and within the sales' horizon (366 days), and no
 * event has a capacity.
 */
const SALE_DATE = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);

const buyTicket = workload({ name: 'buy-ticket', method: 'POST', path: '/tickets', status: 201, servers: [] });

export const TICKETS = {
  workloads: [buyTicket],
  alternations: [
    {
      when: buyTicket,
      plain: 'create',
      variant: 'buy-ticket (an event ticket)',
      target: { least: 0.6, of: 'a create' },
      /** The purchases go round EVENTS_ON_SALE events made through the API first, without a capacity. */
      open: async ({ server, label }) => {
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
          const { eventId } = JSON.parse(created.body) as { eventId: string };
          bodies.push(
            JSON.stringify({ ticketType: 'event', eventId, ticketDate: SALE_DATE, email: 'visitor@example.org' }),
          );
        }
        let next = 0;
        const nextBody = (): string => bodies[next++ % bodies.length] as string;
        return { plain: { workload: create }, variant: { workload: buyTicket, prepare: async () => ({ nextBody }) } };
      },
    },
  ],
} satisfies BenchModule;
