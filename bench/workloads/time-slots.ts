/**
 * General admission by time slot (issue 48), on the service alone:
 * - `buy-general-slotted`, a general ticket of a day with 20 slots (the day's place and the slot's
 *   taken in one transaction), in alternation with `buy-general`, a general ticket of a day
 *   without slots, as a share of its req/s (the issue asks for at least 0.9);
 * - `flash-sale-slots`: 6,000 buyers, 64 in flight, for a day of 20 slots of 100 (2,000 places),
 *   once per service before its runs: exactly 2,000 sold, 100 per slot, every other buyer a 409,
 *   no other answer and no connection error (each is a problem of the run); the runs then read
 *   the sold-out day's slots, as buyers refreshing the page do.
 */
import { VALID_AUTHORIZATION } from '../servers/databases.js';
import { errorText, httpCall, httpExpect } from '../servers/http.js';
import { oncePerServer, workload, type BenchModule, type Subject } from './workload.js';

const DAY_MS = 86_400_000;
/** Dates a month ahead, one per use: within the sales' horizon (366 days), in the future. */
const dateAhead = (days: number): string => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);
const PLAIN_DATE = dateAhead(31);
const SLOTTED_DATE = dateAhead(32);
const FLASH_DATE = dateAhead(33);

/** 09:00 to 18:00 by 27 minutes: 20 slots, 09:00 to 17:33. */
const SLOT_MINUTES = 27;
const SLOTS = Array.from({ length: 20 }, (_, i) => {
  const minutes = 9 * 60 + i * SLOT_MINUTES;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
});

const FLASH_BUYERS = 6000;
const FLASH_IN_FLIGHT = 64;
const FLASH_SLOT_CAPACITY = 100;

export const buyGeneral = workload({ name: 'buy-general', method: 'POST', path: '/tickets', status: 201, servers: [] });
const buyGeneralSlotted = workload({
  name: 'buy-general-slotted',
  method: 'POST',
  path: '/tickets',
  status: 201,
  servers: [],
});

async function setDay({ server, label }: Subject, date: string, hours: object): Promise<void> {
  await httpExpect(
    {
      port: server.port,
      method: 'PUT',
      path: `/museum-hours/${date}`,
      headers: { authorization: VALID_AUTHORIZATION, 'content-type': 'application/json' },
      body: JSON.stringify(hours),
    },
    200,
    label,
  );
}

const ticketBody = (ticketDate: string, ticketTime?: string): string =>
  JSON.stringify({
    ticketType: 'general',
    ticketDate,
    ...(ticketTime ? { ticketTime } : {}),
    email: 'visitor@example.org',
  });

/** What the flash sale did on a server: its answers by status, its connection errors, and what the slots show after. */
interface FlashSale {
  readonly statuses: Record<string, number>;
  readonly errors: number;
  readonly firstError?: string;
  readonly ms: number;
  readonly slotsLeft: number[];
}

/** The flash sale, once per server: FLASH_BUYERS buyers, FLASH_IN_FLIGHT at a time, each for the next slot in turn. */
const flashSale = oncePerServer(async (subject): Promise<FlashSale> => {
  await setDay(subject, FLASH_DATE, {
    timeOpen: '09:00',
    timeClose: '18:00',
    slotMinutes: SLOT_MINUTES,
    slotCapacity: FLASH_SLOT_CAPACITY,
  });
  const statuses: Record<string, number> = {};
  let errors = 0;
  let firstError: string | undefined;
  let next = 0;
  const started = performance.now();
  const buyer = async (): Promise<void> => {
    for (let i = next++; i < FLASH_BUYERS; i = next++) {
      try {
        const answer = await httpCall({
          port: subject.server.port,
          method: 'POST',
          path: '/tickets',
          headers: { authorization: VALID_AUTHORIZATION, 'content-type': 'application/json' },
          body: ticketBody(FLASH_DATE, SLOTS[i % SLOTS.length]),
          timeoutMs: 30_000,
        });
        statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      } catch (error) {
        errors++;
        firstError ??= errorText(error);
      }
    }
  };
  await Promise.all(Array.from({ length: FLASH_IN_FLIGHT }, buyer));
  const ms = performance.now() - started;
  const slots = await httpExpect(
    {
      port: subject.server.port,
      method: 'GET',
      path: `/museum-hours/${FLASH_DATE}/slots`,
      headers: { authorization: VALID_AUTHORIZATION },
    },
    200,
    subject.label,
  );
  const slotsLeft = (JSON.parse(slots.body) as { ticketsAvailable: number }[]).map((slot) => slot.ticketsAvailable);
  return { statuses, errors, ...(firstError === undefined ? {} : { firstError }), ms, slotsLeft };
});

/** Why the flash sale was not exact, or nothing. */
function flashProblems(sale: FlashSale): string[] {
  const problems: string[] = [];
  const seats = SLOTS.length * FLASH_SLOT_CAPACITY;
  if ((sale.statuses['201'] ?? 0) !== seats) problems.push(`flash sale: ${sale.statuses['201'] ?? 0} sold of ${seats}`);
  const others = Object.entries(sale.statuses).filter(([status]) => status !== '201' && status !== '409');
  if (others.length > 0) problems.push(`flash sale: other answers ${JSON.stringify(Object.fromEntries(others))}`);
  if (sale.errors > 0) problems.push(`flash sale: ${sale.errors} connection errors, the first: ${sale.firstError}`);
  if (sale.slotsLeft.length !== SLOTS.length || sale.slotsLeft.some((left) => left !== 0)) {
    problems.push(`flash sale: slots left after it ${JSON.stringify(sale.slotsLeft)}`);
  }
  return problems;
}

export const TIME_SLOTS = {
  workloads: [
    buyGeneral,
    buyGeneralSlotted,
    workload({
      name: 'flash-sale-slots',
      method: 'GET',
      path: `/museum-hours/${FLASH_DATE}/slots`,
      status: 200,
      servers: ['service'],
      prepare: async (subject) => {
        const sale = await flashSale(subject);
        return {
          after: async () => ({
            problems: flashProblems(sale),
            note:
              `flash sale of ${FLASH_BUYERS} buyers (${FLASH_IN_FLIGHT} in flight) over ${SLOTS.length} slots of ` +
              `${FLASH_SLOT_CAPACITY}: ${JSON.stringify(sale.statuses)}, ${sale.errors} errors, ${Math.round(sale.ms)} ms`,
          }),
        };
      },
    }),
  ],
  alternations: [
    {
      when: buyGeneralSlotted,
      plain: 'buy-general (a day without slots)',
      variant: 'buy-general-slotted (a day of 20 slots)',
      target: { least: 0.9, of: "a general ticket's" },
      /** Each side sells its own date: one without slots, one with 20 slots no run fills. */
      open: async (subject) => {
        await setDay(subject, PLAIN_DATE, { timeOpen: '09:00', timeClose: '18:00' });
        await setDay(subject, SLOTTED_DATE, {
          timeOpen: '09:00',
          timeClose: '18:00',
          slotMinutes: SLOT_MINUTES,
          slotCapacity: 1_000_000,
        });
        const plainBody = ticketBody(PLAIN_DATE);
        let next = 0;
        const slottedBodies = SLOTS.map((time) => ticketBody(SLOTTED_DATE, time));
        return {
          plain: { workload: buyGeneral, prepare: async () => ({ nextBody: () => plainBody }) },
          variant: {
            workload: buyGeneralSlotted,
            prepare: async () => ({ nextBody: () => slottedBodies[next++ % slottedBodies.length] as string }),
          },
        };
      },
    },
  ],
} satisfies BenchModule;
