import { ProblemCatalog } from '../common/problem/problem-catalog.js';
import { SpecialEventRefusal, type SpecialEventReasons } from './special-events.refusals.js';

const EXAMPLE_ID = 'dad4bce8-f5cb-4078-a211-995864315e39';

/** Each refusal of the special-events module as an HTTP problem, and as the API description words it. */
export const SPECIAL_EVENT_PROBLEMS = new ProblemCatalog<SpecialEventReasons>('special-events', SpecialEventRefusal, {
  invalid: {
    status: 400,
    errors: ({ errors }) => errors,
    when: 'A list query or a change breaks a rule the body alone does not show: a cursor this service did not issue, a page too far, another `eventId`, an empty patch.',
    example: { errors: [{ field: 'body', message: 'body must name at least one field to change' }] },
  },
  exists: {
    status: 409,
    detail: ({ eventId }) => `A special event with eventId ${eventId} already exists.`,
    when: 'An event with this eventId already exists; the stored event is unchanged.',
    example: { eventId: EXAMPLE_ID },
  },
  'not-found': {
    status: 404,
    detail: ({ eventId }) => `No special event with eventId ${eventId}.`,
    when: 'No special event has this eventId.',
    example: { eventId: EXAMPLE_ID },
  },
  'stale-if-match': {
    status: 412,
    detail: ({ etag }) =>
      `The event has changed since that ETag was issued (it is now ${etag}); read it again and reapply the change.`,
    when: 'If-Match names a tag that is no longer current: the event changed meanwhile and this change was not applied.',
    example: { etag: '"v3-0"' },
  },
  'if-none-match-current': {
    status: 412,
    detail: ({ etag }) =>
      `If-None-Match names the event as it is now (${etag}), or * and the event exists; nothing was changed.`,
    when: 'If-None-Match names the event as it is now, or is `*`; nothing was changed.',
    example: { etag: '"v3-0"' },
  },
  'capacity-below-sold': {
    status: 409,
    detail: ({ capacity, sold }) =>
      `capacity ${capacity} is below the ${sold} tickets already sold for this event; ` +
      `give at least ${sold}, or null for no limit. Nothing was changed.`,
    when: 'The capacity given is below the tickets already sold.',
    example: { capacity: 10, sold: 12 },
  },
  'capacity-per-date-below-sold': {
    status: 409,
    detail: ({ capacityPerDate, date, sold }) =>
      `capacityPerDate ${capacityPerDate} is below the ${sold} tickets already sold for ${date}; ` +
      `give at least ${sold}, or null for no limit per date. Nothing was changed.`,
    when: 'The capacityPerDate given is below the tickets already sold on one of the dates; the detail names it.',
    example: { capacityPerDate: 20, date: '2026-12-05', sold: 25 },
  },
  'dates-have-tickets': {
    status: 409,
    type: 'urn:museum:problem:dates-have-tickets',
    detail: ({ dates }) =>
      `Tickets are sold for ${dates.join(', ')}, which this change would remove from the event's dates; ` +
      'keep those dates. Nothing was changed.',
    when:
      'The new `dates` leave out a date, or move or remove a session (a date item `YYYY-MM-DDTHH:MM` no longer ' +
      'written as it was), that active tickets are sold for; the detail names them.',
    example: { dates: ['2026-12-05'] },
  },
  busy: {
    status: 503,
    detail: () => 'The event is being changed by many requests at once; retry.',
    headers: () => ({ 'Retry-After': '1' }),
    when: 'The event is being changed by many requests at once; retry after the given time.',
    example: {},
  },
});
