import { describe, expect, it } from 'vitest';
import type { Ticket } from './ticket.entity.js';
import type { TicketPageRow } from './tickets.repository.js';
import { pageRowToResponse, toResponse } from './tickets.responses.js';

const SOLD = Date.UTC(2026, 10, 28, 9, 15, 30, 123);

/** A ticket's fields as a plain object (the entity is a class). */
type TicketFields = { [K in keyof Ticket]: Ticket[K] };

const ACTIVE: TicketFields = {
  ticketId: '0196a8f4-6e2b-7c3d-9e4f-5a6b7c8d9e0f',
  ticketType: 'event',
  ticketDate: '2026-12-05',
  ticketTime: null,
  eventId: '0196a8f4-0000-7c3d-9e4f-5a6b7c8d9e0f',
  email: 'visitor@example.org',
  category: null,
  pricePaid: 19.99,
  confirmationCode: 'ticket-3q2-7wVk9mRr1bXoYl0Tfg',
  status: 'active',
  createdAt: SOLD,
  checkedInAt: null,
  cancelledAt: null,
  refundDue: null,
  orderId: null,
};

/** Every optional field present, and the opposite of ACTIVE's nulls. */
const CANCELLED_IN_ORDER: TicketFields = {
  ...ACTIVE,
  ticketType: 'general',
  ticketTime: '10:30',
  eventId: null,
  email: null,
  category: 'adult',
  pricePaid: 0,
  status: 'cancelled',
  checkedInAt: SOLD + 60_000,
  cancelledAt: SOLD + 120_000,
  refundDue: 0,
  orderId: '0196a8f4-1111-7c3d-9e4f-5a6b7c8d9e0f',
};

/** The row the page's SELECT reads for `ticket`; epoch milliseconds as MySQL's BIGINT strings when asked. */
function rowOf(ticket: Ticket, bigintAsString = false): TicketPageRow {
  const epoch = (ms: number | null) => (ms === null || !bigintAsString ? ms : String(ms));
  return [
    ticket.ticketId,
    ticket.ticketType,
    ticket.ticketDate,
    ticket.ticketTime,
    ticket.eventId,
    ticket.email,
    ticket.category,
    ticket.pricePaid,
    ticket.confirmationCode,
    ticket.status,
    epoch(ticket.createdAt) as number | string,
    epoch(ticket.checkedInAt),
    epoch(ticket.cancelledAt),
    ticket.refundDue,
    ticket.orderId,
  ];
}

describe('a search page ticket answered from its row', () => {
  for (const [name, ticket] of [
    ['active, no time, category or order', ACTIVE],
    ['cancelled after check-in, with a time, category and order', CANCELLED_IN_ORDER],
  ] as const) {
    for (const withSecrets of [true, false]) {
      it(`is toResponse's answer byte for byte: ${name}, ${withSecrets ? 'with' : 'without'} secrets`, () => {
        const expected = JSON.stringify(toResponse(ticket, withSecrets));
        expect(JSON.stringify(pageRowToResponse(rowOf(ticket), withSecrets))).toBe(expected);
        expect(JSON.stringify(pageRowToResponse(rowOf(ticket, true), withSecrets))).toBe(expected);
      });
    }
  }

  it('leaves out the email and code without secrets, and keeps a null email with them', () => {
    const withSecrets = pageRowToResponse(rowOf(CANCELLED_IN_ORDER), true);
    expect(Object.keys(withSecrets)).toContain('email');
    expect(withSecrets.email).toBeNull();
    const without = pageRowToResponse(rowOf(ACTIVE), false);
    expect(Object.keys(without)).not.toContain('email');
    expect(Object.keys(without)).not.toContain('confirmationCode');
  });
});
