import { type Role, roleAllows } from '../auth/roles.js';
import type { TicketConfirmationResponse, TicketResponse } from './dto/ticket-response.dto.js';
import type { Ticket } from './ticket.entity.js';
import type { TicketPageRow } from './tickets.repository.js';
import type { TicketSale } from './tickets.types.js';

/**
 * The least role that reads a ticket's confirmation code (what admits its holder, so its QR code
 * too) and the buyer's email: those who sell tickets and admit visitors. A viewer (a kiosk, a
 * report) sees a ticket without them.
 */
export const READS_TICKET_SECRETS: Role = 'box-office';

/** Whether `reader` sees a ticket's confirmation code and buyer's email (READS_TICKET_SECRETS). */
export function seesSecrets(reader: Role): boolean {
  return roleAllows(reader, READS_TICKET_SECRETS);
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** The ticket as answered; `withSecrets` false leaves out what admits or reaches its holder. */
export function toResponse(ticket: Ticket, withSecrets = true): TicketResponse {
  return {
    ticketId: ticket.ticketId,
    ticketType: ticket.ticketType,
    ticketDate: ticket.ticketDate,
    ...(ticket.ticketTime === null ? {} : { ticketTime: ticket.ticketTime }),
    ...(ticket.eventId === null ? {} : { eventId: ticket.eventId }),
    ...(withSecrets ? { email: ticket.email } : {}),
    ...(ticket.category === null ? {} : { category: ticket.category }),
    price: ticket.pricePaid,
    ...(withSecrets ? { confirmationCode: ticket.confirmationCode } : {}),
    status: ticket.status,
    createdAt: new Date(ticket.createdAt).toISOString(),
    checkedInAt: iso(ticket.checkedInAt),
    cancelledAt: iso(ticket.cancelledAt),
    refundDue: ticket.refundDue,
    ...(ticket.orderId === null ? {} : { orderId: ticket.orderId }),
  };
}

/**
 * A search page's ticket as answered: toResponse's fields in toResponse's order, read from the
 * page's row itself (TicketsRepository.search) with no Ticket made first. A page is twenty such
 * answers and more; tickets.responses.spec.ts holds it to toResponse byte for byte.
 */
export function pageRowToResponse(row: TicketPageRow, withSecrets: boolean): TicketResponse {
  const response = { ticketId: row[0], ticketType: row[1], ticketDate: row[2] } as TicketResponse;
  if (row[3] !== null) response.ticketTime = row[3];
  if (row[4] !== null) response.eventId = row[4];
  if (withSecrets) response.email = row[5];
  if (row[6] !== null) response.category = row[6];
  response.price = Number(row[7]);
  if (withSecrets) response.confirmationCode = row[8];
  response.status = row[9];
  response.createdAt = new Date(Number(row[10])).toISOString();
  response.checkedInAt = row[11] === null ? null : new Date(Number(row[11])).toISOString();
  response.cancelledAt = row[12] === null ? null : new Date(Number(row[12])).toISOString();
  response.refundDue = row[13] === null ? null : Number(row[13]);
  if (row[14] !== null) response.orderId = row[14];
  return response;
}

/** The answer to a sale: the Museum API's MuseumTicketsConfirmation, its message first. */
export function toConfirmation(sale: TicketSale): TicketConfirmationResponse {
  const message =
    sale.ticketType === 'event' ? 'Museum special event ticket purchased' : 'Museum general entry ticket purchased';
  return { message, ...sale };
}
