import type { PublicReadRows } from '../helpers/public-read-rows.js';

const AVAILABILITY = '/special-events/01890a5d-ac96-774b-bcce-b302099a8057/availability';

/**
 * An event's seats per date are a public read (test/helpers/public-read-rows.ts); the events' own
 * reads are in test/public-read.e2e-spec.ts. Its path needs an event: the answer without
 * ticketsSold is shown in test/special-events/seats-per-date.e2e-spec.ts.
 */
export default {
  operationIds: ['getSpecialEventAvailability'],
  closed: [['put', AVAILABILITY]],
} satisfies PublicReadRows;
