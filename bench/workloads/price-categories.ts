/**
 * Price categories (issue 49), on the service alone: `buy-general-category`, a general ticket
 * bought in a category of GET /admission-prices (one more indexed read than a ticket without
 * one), in alternation with `buy-general`, a general ticket at GENERAL_ADMISSION_PRICE, as a
 * share of its req/s (at least 0.9: a category must not make a sale much dearer).
 */
import { VALID_AUTHORIZATION } from '../servers/databases.js';
import { httpExpect } from '../servers/http.js';
import { buyGeneral } from './time-slots.js';
import { workload, type BenchModule, type Subject } from './workload.js';

const DAY_MS = 86_400_000;
/** A date a month ahead, its own: within the sales' horizon, in the future, apart from other workloads'. */
const DATE = new Date(Date.now() + 34 * DAY_MS).toISOString().slice(0, 10);
/** Twenty categories, as many as a list may hold: the sale finds its one by the key. */
const CATEGORIES = Array.from({ length: 20 }, (_, i) => ({ category: `category ${i}`, price: 10 + i }));

const buyGeneralCategory = workload({
  name: 'buy-general-category',
  method: 'POST',
  path: '/tickets',
  status: 201,
  servers: [],
});

async function put({ server, label }: Subject, path: string, body: unknown): Promise<void> {
  await httpExpect(
    {
      port: server.port,
      method: 'PUT',
      path,
      headers: { authorization: VALID_AUTHORIZATION, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    },
    200,
    label,
  );
}

const ticketBody = (category?: string): string =>
  JSON.stringify({
    ticketType: 'general',
    ticketDate: DATE,
    ...(category === undefined ? {} : { category }),
    email: 'visitor@example.org',
  });

export const PRICE_CATEGORIES = {
  workloads: [buyGeneralCategory],
  alternations: [
    {
      when: buyGeneralCategory,
      plain: 'buy-general (no category)',
      variant: 'buy-general-category (one of 20 categories)',
      target: { least: 0.9, of: "a general ticket's" },
      /** Both sides sell the same open day; the variant names each of the 20 categories in turn. */
      open: async (subject) => {
        await put(subject, `/museum-hours/${DATE}`, { timeOpen: '09:00', timeClose: '18:00' });
        await put(subject, '/admission-prices', CATEGORIES);
        const plainBody = ticketBody();
        const categoryBodies = CATEGORIES.map(({ category }) => ticketBody(category));
        let next = 0;
        return {
          plain: { workload: buyGeneral, prepare: async () => ({ nextBody: () => plainBody }) },
          variant: {
            workload: buyGeneralCategory,
            prepare: async () => ({ nextBody: () => categoryBodies[next++ % categoryBodies.length] as string }),
          },
        };
      },
    },
  ],
} satisfies BenchModule;
