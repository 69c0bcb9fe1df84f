/**
 * The tickets module: `buy-ticket` (POST /tickets, an event ticket: the seat taken and the ticket
 * written in one transaction) in alternation with creates on the same service, the purchase's
 * cost as a share of a create's req/s (issue 28 asks for at least 0.6); `buy-ticket-per-date`, a
 * ticket of an event with a capacityPerDate (the date's seat taken too, in the same transaction),
 * in alternation with `buy-ticket`, as a share of its req/s (issue 48 asks for at least 0.9);
 * `buy-ticket-session`, a ticket for one of three sessions of a day (ticketTime; the session's seat
 * taken, each session bounded by capacityPerDate), in alternation with `buy-ticket` too, held to
 * the same 0.9. The references sell nothing: they run on the service alone.
 */
import { EVENT_BODY } from '../servers/bodies.js';
import { VALID_AUTHORIZATION } from '../servers/databases.js';
import { httpExpect } from '../servers/http.js';
import { create } from './special-events.js';
import { workload, type BenchModule, type Subject } from './workload.js';

/** Events on sale during a purchase run: a real box office sells for many, not one hot row. */
const EVENTS_ON_SALE = 100;
/**
 * A month ahead: every purchase is for the future and within the sales' horizon (366 days), and no
 * event has a capacity.
 */
const SALE_DATE = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);

export const buyTicket = workload({ name: 'buy-ticket', method: 'POST', path: '/tickets', status: 201, servers: [] });
const buyTicketPerDate = workload({
  name: 'buy-ticket-per-date',
  method: 'POST',
  path: '/tickets',
  status: 201,
  servers: [],
});

const buyTicketSession = workload({
  name: 'buy-ticket-session',
  method: 'POST',
  path: '/tickets',
  status: 201,
  servers: [],
});

/** The sessions of SALE_DATE an event of `buy-ticket-session` has, sold in turn. */
const SESSION_TIMES = ['10:00', '14:00', '18:00'];

/** Limits no run reaches: every purchase sells, and each checks both bounds. */
const NEVER_REACHED = 1_000_000_000;

/**
 * The purchase bodies of EVENTS_ON_SALE events made through the API (`fields` added to each),
 * taken in turn.
 */
async function eventsOnSale(
  { server, label }: Subject,
  fields: object,
  ticketTimes: readonly string[] = [],
): Promise<() => string> {
  const bodies: string[] = [];
  for (let i = 0; i < EVENTS_ON_SALE; i++) {
    const created = await httpExpect(
      {
        port: server.port,
        method: 'POST',
        path: '/special-events',
        headers: { authorization: VALID_AUTHORIZATION, 'content-type': 'application/json' },
        body: JSON.stringify({ ...(JSON.parse(EVENT_BODY) as object), dates: [SALE_DATE], ...fields }),
      },
      201,
      label,
    );
    const { eventId } = JSON.parse(created.body) as { eventId: string };
    const body = { ticketType: 'event', eventId, ticketDate: SALE_DATE, email: 'visitor@example.org' };
    if (ticketTimes.length === 0) bodies.push(JSON.stringify(body));
    for (const ticketTime of ticketTimes) bodies.push(JSON.stringify({ ...body, ticketTime }));
  }
  let next = 0;
  return () => bodies[next++ % bodies.length] as string;
}

export const TICKETS = {
  workloads: [buyTicket, buyTicketPerDate, buyTicketSession],
  alternations: [
    {
      when: buyTicket,
      plain: 'create',
      variant: 'buy-ticket (an event ticket)',
      target: { least: 0.6, of: 'a create' },
      /** The purchases go round EVENTS_ON_SALE events made through the API first, without a capacity. */
      open: async (subject) => {
        const nextBody = await eventsOnSale(subject, {});
        return { plain: { workload: create }, variant: { workload: buyTicket, prepare: async () => ({ nextBody }) } };
      },
    },
    {
      when: buyTicketPerDate,
      plain: 'buy-ticket (an event ticket)',
      variant: 'buy-ticket-per-date (an event with capacityPerDate)',
      target: { least: 0.9, of: "an event ticket's" },
      /** Each side goes round EVENTS_ON_SALE events of its own: without limits, and with both limits. */
      open: async (subject) => {
        const plainBody = await eventsOnSale(subject, {});
        const limitedBody = await eventsOnSale(subject, { capacity: NEVER_REACHED, capacityPerDate: NEVER_REACHED });
        return {
          plain: { workload: buyTicket, prepare: async () => ({ nextBody: plainBody }) },
          variant: { workload: buyTicketPerDate, prepare: async () => ({ nextBody: limitedBody }) },
        };
      },
    },
    {
      when: buyTicketSession,
      plain: 'buy-ticket (an event ticket)',
      variant: 'buy-ticket-session (a session of three that day, with capacityPerDate)',
      target: { least: 0.9, of: "an event ticket's" },
      /** Each side goes round EVENTS_ON_SALE events of its own: all-day without limits, and of three sessions with both limits. */
      open: async (subject) => {
        const plainBody = await eventsOnSale(subject, {});
        const sessionBody = await eventsOnSale(
          subject,
          {
            dates: SESSION_TIMES.map((time) => `${SALE_DATE}T${time}`),
            capacity: NEVER_REACHED,
            capacityPerDate: NEVER_REACHED,
          },
          SESSION_TIMES,
        );
        return {
          plain: { workload: buyTicket, prepare: async () => ({ nextBody: plainBody }) },
          variant: { workload: buyTicketSession, prepare: async () => ({ nextBody: sessionBody }) },
        };
      },
    },
  ],
} satisfies BenchModule;
