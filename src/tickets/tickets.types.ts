import type { TicketStatus, TicketType } from './ticket.entity.js';

/**
 * What TicketsService and BoxOfficeService take and return besides Ticket itself: the controllers
 * map their DTOs to these (a DTO class with the same fields satisfies them as it is) and the
 * services' answers to responses, so the services know no request or response shape.
 */

/** A search page's size, as the special-events list's. */
export const SEARCH_LIMIT = { min: 1, max: 100, default: 10 } as const;

/** A ticket asked for: for general admission, or for an event's date (`eventId`). */
export interface TicketPurchase {
  readonly ticketType: TicketType;
  readonly ticketDate: string;
  readonly eventId?: string;
  readonly email?: string;
  readonly ticketTime?: string;
  /** A price category of the event's or general admission's; none: the price with no category. */
  readonly category?: string;
}

/** A ticket sold: what its buyer is told. `ticketTime` only for a time slot or an event's session. */
export interface TicketSale {
  readonly ticketId: string;
  readonly ticketType: TicketType;
  readonly ticketDate: string;
  readonly eventId?: string;
  readonly ticketTime?: string;
  readonly confirmationCode: string;
}

/** A ticket search: filters that all must hold, a page size and where the page starts. */
export interface TicketSearch {
  readonly eventId?: string;
  readonly ticketDate?: string;
  readonly status?: TicketStatus;
  readonly email?: string;
  readonly orderId?: string;
  readonly limit?: number;
  readonly cursor?: string;
}
