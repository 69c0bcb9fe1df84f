import { ProblemCatalog } from '../common/problem/problem-catalog.js';
import { TicketRefusal, type TicketReasons } from './tickets.refusals.js';

/** Each refusal of the tickets module as an HTTP problem, and as the API description words it. */
export const TICKET_PROBLEMS = new ProblemCatalog<TicketReasons>('tickets', TicketRefusal, {
  'invalid-purchase': {
    status: 400,
    errors: ({ errors }) => errors,
    when:
      '`ticketDate` is before today or beyond the 366 days tickets are sold ahead, a general ticket names an ' +
      '`eventId`, or `ticketTime` is missing or no slot of a day with time slots, or given for a day without them; ' +
      "for an event ticket, `ticketTime` is missing on a date with several sessions, or is none of the event's " +
      'sessions that day (the message names the valid times); or `category` names none of the price categories ' +
      '(the message names the valid ones).',
    example: { errors: [{ field: 'eventId', message: 'eventId must be absent for a general ticket' }] },
  },
  'no-event': {
    status: 404,
    detail: ({ eventId }) => `No special event has eventId ${eventId}.`,
    when: 'No special event has this eventId.',
    example: { eventId: '0190a7a0-9d4c-7c3e-8f00-1a2b3c4d5e6f' },
  },
  'not-an-event-date': {
    status: 422,
    type: 'urn:museum:problem:not-an-event-date',
    detail: ({ date, dates }) =>
      `${date} is not a date of this event; ${dates.length === 0 ? 'it has no ISO date' : `its dates are ${dates.join(', ')}`}.`,
    when: "`ticketDate` is not one of the event's ISO dates; the detail lists them.",
    example: { date: '2026-12-03', dates: ['2026-12-01', '2026-12-05'] },
  },
  'museum-closed': {
    status: 422,
    type: 'urn:museum:problem:museum-closed',
    detail: ({ date }) => `The museum is closed on ${date}.`,
    when: 'The museum is closed on `ticketDate`; for an event ticket, only an exception closes it.',
    example: { date: '2026-12-25' },
  },
  'event-sold-out': {
    status: 409,
    type: 'urn:museum:problem:sold-out',
    detail: ({ capacity }) => `This event is sold out: all ${capacity} of its tickets are sold.`,
    when: 'The event is sold out.',
    example: { capacity: 100 },
  },
  'event-date-sold-out': {
    status: 409,
    type: 'urn:museum:problem:sold-out',
    detail: ({ date, capacityPerDate }) =>
      `This event is sold out on ${date}: all ${capacityPerDate} of that date's tickets are sold.`,
    when: "The event's date, or the session on it, is sold out (its capacityPerDate, which bounds each session by itself).",
    example: { date: '2026-12-05', capacityPerDate: 25 },
  },
  'admission-sold-out': {
    status: 409,
    type: 'urn:museum:problem:sold-out',
    detail: ({ date, capacity }) => `General admission is sold out on ${date}: all ${capacity} tickets are sold.`,
    when: 'General admission is sold out that day.',
    example: { date: '2026-12-05', capacity: 500 },
  },
  'slot-sold-out': {
    status: 409,
    type: 'urn:museum:problem:sold-out',
    detail: ({ date, time, capacity, next }) =>
      `General admission is sold out on ${date} at ${time}: all ${capacity} tickets of that slot are sold; ` +
      (next.length === 0 ? 'no later slot that day has room.' : `later slots with room: ${next.join(', ')}.`),
    when: "The general-admission time slot is sold out (the day's slotCapacity); the detail names the next slots with room.",
    example: { date: '2026-12-05', time: '10:00', capacity: 100, next: ['10:30', '11:00', '11:30'] },
  },
  'no-ticket': {
    status: 404,
    detail: ({ ticketId }) => `No ticket has ticketId ${ticketId}.`,
    when: 'No ticket has this ticketId.',
    example: { ticketId: '0190a7a0-9d4c-7c3e-8f00-1a2b3c4d5e6f' },
  },
  'unknown-code': {
    status: 404,
    detail: () => 'No ticket has this confirmation code.',
    when: 'No ticket has this confirmation code (counted by the failure limiter).',
    example: {},
  },
  'too-many-unknown-codes': {
    status: 429,
    detail: () => 'Too many unknown ticket codes from this address; try again later.',
    headers: ({ retryAfterSeconds }) => ({ 'Retry-After': String(retryAfterSeconds) }),
    when: 'An unknown code after too many unknown codes (or wrong credentials) from this address for this user within the window; retry after. A valid code is still checked in.',
    example: { retryAfterSeconds: 60 },
  },
  'already-checked-in': {
    status: 409,
    type: 'urn:museum:problem:ticket-already-checked-in',
    detail: ({ checkedInAt }) => `This ticket was already checked in: its first check-in was ${checkedInAt}.`,
    when: 'The ticket was checked in already; the detail says when.',
    example: { checkedInAt: '2026-12-01T09:14:03.120Z' },
  },
  'not-for-today': {
    status: 409,
    type: 'urn:museum:problem:ticket-not-for-today',
    detail: ({ ticketDate, today, timeZone }) =>
      `This ticket is for ${ticketDate}; today is ${today} in the museum's time zone (${timeZone}).`,
    when: 'The ticket is for another day than today in the museum time zone.',
    example: { ticketDate: '2026-12-05', today: '2026-12-01', timeZone: 'Europe/Amsterdam' },
  },
  'too-early': {
    status: 409,
    type: 'urn:museum:problem:ticket-too-early',
    detail: ({ time, opensAt }) => `This ticket's time is ${time}; entry opens at ${opensAt}.`,
    when: "The ticket has a time (a slot, an event session) and its entry has not opened yet: it opens ENTRY_EARLY_MINUTES before that time, in the museum's time zone; the detail says when.",
    example: { time: '14:00', opensAt: '13:45' },
  },
  'entry-closed': {
    status: 409,
    type: 'urn:museum:problem:ticket-entry-closed',
    detail: ({ time, closedAt }) => `This ticket's time was ${time}; entry closed at ${closedAt}.`,
    when: "The ticket has a time and its entry has closed: at the day's close for a general slot, at the session's end for an event with durationMinutes; the detail says when.",
    example: { time: '14:00', closedAt: '15:30' },
  },
  cancelled: {
    status: 409,
    type: 'urn:museum:problem:ticket-cancelled',
    detail: ({ cancelledAt }) => `This ticket was cancelled on ${cancelledAt}.`,
    when: 'The ticket was cancelled (at the box office, or its event was deleted).',
    example: { cancelledAt: '2026-11-30T16:02:11.000Z' },
  },
  'cancel-checked-in': {
    status: 409,
    type: 'urn:museum:problem:ticket-checked-in',
    detail: ({ checkedInAt }) =>
      `This ticket was checked in on ${checkedInAt}: a ticket that admitted its holder cannot be cancelled.`,
    when: 'The ticket was checked in: it admitted its holder, so it is not cancelled; the detail says when.',
    example: { checkedInAt: '2026-12-01T09:14:03.120Z' },
  },
  'invalid-search': {
    status: 400,
    errors: ({ errors }) => errors,
    when: 'A ticket search has a `cursor` not issued for its filters, or a CSV export has `limit` or `cursor`.',
    example: {
      errors: [{ field: 'cursor', message: 'cursor is not one this service issued for these filters' }],
    },
  },
  'search-by-email': {
    status: 403,
    detail: () =>
      "Searching tickets by email needs the box-office role or higher: the buyer's address is not for viewers.",
    when: "A viewer searches tickets by `email`: the buyer's address is for box-office and up.",
    example: {},
  },
});
