import { ProblemCatalog } from '../common/problem/problem-catalog.js';
import { OrderRefusal, type OrderReasons } from './orders.refusals.js';

/** The line a refusal names, as a problem's extension member: its index in `lines`, from 0. */
const lineMember = ({ line }: { readonly line: number }) => ({ line });

/** Each refusal of the orders module as an HTTP problem, and as the API description words it. */
export const ORDERS_PROBLEMS = new ProblemCatalog<OrderReasons>('orders', OrderRefusal, {
  'invalid-order': {
    status: 400,
    errors: ({ errors }) => errors,
    when:
      'A line breaks a rule a single ticket has (`ticketDate` in the past or beyond the 366 days sold ahead, a ' +
      'general line with an `eventId`, `ticketTime` on an event line, missing, unknown or refused for the day), ' +
      'or a line field is missing or of the wrong kind; each error names its field, `lines[i].name`.',
    example: { errors: [{ field: 'lines[1].quantity', message: 'must be a whole number from 1 to 50' }] },
  },
  'line-no-event': {
    status: 404,
    detail: ({ line, eventId }) => `lines[${line}]: no special event has eventId ${eventId}.`,
    members: lineMember,
    when: 'An event line names no special event; `line` is its index. Nothing is sold.',
    example: { line: 0, eventId: '0190a7a0-9d4c-7c3e-8f00-1a2b3c4d5e6f' },
  },
  'line-not-an-event-date': {
    status: 422,
    type: 'urn:museum:problem:not-an-event-date',
    detail: ({ line, date, dates }) =>
      `lines[${line}]: ${date} is not a date of this event; ` +
      (dates.length === 0 ? 'it has no ISO date.' : `its dates are ${dates.join(', ')}.`),
    members: lineMember,
    when: "An event line's `ticketDate` is not one of the event's ISO dates; `line` is its index. Nothing is sold.",
    example: { line: 1, date: '2026-12-03', dates: ['2026-12-01', '2026-12-05'] },
  },
  'line-museum-closed': {
    status: 422,
    type: 'urn:museum:problem:museum-closed',
    detail: ({ line, date }) => `lines[${line}]: the museum is closed on ${date}.`,
    members: lineMember,
    when: "The museum is closed on a line's `ticketDate` (for an event line, only an exception closes it); `line` is its index. Nothing is sold.",
    example: { line: 0, date: '2026-12-25' },
  },
  'line-sold-out': {
    status: 409,
    type: 'urn:museum:problem:sold-out',
    detail: ({ line, of, asked, left, next }) =>
      `lines[${line}]: ${asked} tickets asked of ${of}, ` +
      (left >= asked
        ? `which has ${left} left, but the order's other lines take them too.`
        : `which has ${left} left.`) +
      (next === undefined
        ? ''
        : next.length === 0
          ? ' No later slot that day has room.'
          : ` Later slots with room: ${next.join(', ')}.`),
    members: lineMember,
    when:
      "A line asks for more places than are left (the event's capacity, its date's, the day's general admission " +
      "or the slot's, the order's other lines included); `line` is its index. Nothing is sold.",
    example: { line: 1, of: 'general admission on 2026-12-05 at 10:00', asked: 4, left: 3, next: ['10:30'] },
  },
  'no-order': {
    status: 404,
    detail: ({ orderId }) => `No order has orderId ${orderId}.`,
    when: 'No order has this orderId.',
    example: { orderId: '0196a8f4-6e2b-7c3d-9e4f-5a6b7c8d9e0f' },
  },
  'cancel-checked-in': {
    status: 409,
    type: 'urn:museum:problem:ticket-checked-in',
    detail: ({ ticketIds }) =>
      `Tickets of this order were checked in (${ticketIds.join(', ')}): a ticket that admitted its holder cannot ` +
      'be cancelled, so none of the order is. Cancel the others one by one (POST /tickets/{ticketId}/cancel).',
    when: 'A ticket of the order was checked in: nothing is cancelled; the detail names the checked-in tickets.',
    example: { ticketIds: ['0196a8f4-6e2b-7c3d-9e4f-5a6b7c8d9e0f'] },
  },
});
