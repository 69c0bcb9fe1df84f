/**
 * The bodies the workloads send and the read workloads' paths, shared by the load generator and
 * the bare Express baseline (which answers reads with a fixed body of the same size as the
 * service's, and must not load autocannon to know it).
 */

/** A realistic create body, without eventId (the service generates a UUIDv7). */
export const EVENT_BODY = JSON.stringify({
  name: 'Conservation in practice: restoring the Flemish tapestries',
  location: 'East Wing, Gallery 12',
  eventDescription:
    'An evening with our textile conservators: how the seventeenth-century tapestries were cleaned, ' +
    'mended and rehung, followed by questions.',
  dates: ['2026-03-14', '2026-03-21'],
  price: 19.99,
});

/** The event every read workload finds: EVENT_BODY with an id, as the service stores and answers it. */
export const STORED_EVENT = { eventId: '019aa7c2-5b1e-7d3a-8f0e-2c4b6d8e0f12', ...(JSON.parse(EVENT_BODY) as object) };

/** A first list page: EVENT_BODY's dates are in this range, so every event of the read set matches. */
export const LIST_LIMIT = 20;
/** getMuseumHours' largest page, from today, with the week of MUSEUM_WEEK set. */
export const MUSEUM_HOURS_PATH = '/museum-hours?limit=30';
/**
 * The week the museum-hours workload reads: open every day (so a page has 30 days), the weekend
 * with a capacity, so that the page's sales are read too (ticketsAvailable).
 */
export const MUSEUM_WEEK = JSON.stringify({
  monday: { timeOpen: '09:00', timeClose: '18:00' },
  tuesday: { timeOpen: '09:00', timeClose: '18:00' },
  wednesday: { timeOpen: '09:00', timeClose: '18:00' },
  thursday: { timeOpen: '09:00', timeClose: '21:00' },
  friday: { timeOpen: '09:00', timeClose: '18:00' },
  saturday: { timeOpen: '10:00', timeClose: '18:00', capacity: 500 },
  sunday: { timeOpen: '10:00', timeClose: '18:00', capacity: 500 },
});
export const LIST_PATH = `/special-events?startDate=2026-03-01&endDate=2026-03-31&limit=${LIST_LIMIT}`;
/** The page list-deep asks for, reached by following `next` links from LIST_PATH. */
export const DEEP_PAGE = 50;

/** A Museum API update (application/json): a new price, the other fields unchanged. */
export const UPDATE_BODY = JSON.stringify({ price: 24.5 });

/** Hands each GET or PATCH the next of the seeded ids, round and round. */
export function cyclingPaths(ids: readonly string[]): () => string {
  let next = 0;
  return () => `/special-events/${ids[next++ % ids.length] as string}`;
}
