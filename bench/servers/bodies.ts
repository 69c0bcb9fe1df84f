/**
 * The event the workloads create and the references answer: shared by the load generator and the
 * bare Express baseline (which answers reads with a fixed body of the same size as the service's,
 * and must not load autocannon to know it).
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

/** A JSON body as the references read it: an object's fields (anything else, or none, counts as {}). */
export function fieldsOf(body: unknown): Record<string, unknown> {
  return (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
}

/** The size of a first list page (workloads/special-events.ts, LIST_PATH). */
export const LIST_LIMIT = 20;
