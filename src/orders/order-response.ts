import type { Ticket } from '../tickets/ticket.entity.js';
import { toResponse } from '../tickets/tickets.responses.js';
import type { OrderResponse, OrderStatus, OrderTicketResponse } from './dto/order-response.dto.js';
import type { OrderWithTickets } from './orders.types.js';
import { sumOf } from './orders.types.js';

/** Its tickets say what became of an order: cancelled, all of them or some. */
function statusOf(tickets: readonly Ticket[]): OrderStatus {
  const cancelled = tickets.filter((ticket) => ticket.status === 'cancelled').length;
  if (cancelled === 0) return 'placed';
  return cancelled === tickets.length ? 'cancelled' : 'partly-cancelled';
}

/** The order as answered; `withSecrets` false leaves out the email and the tickets' codes. */
export function toOrderResponse({ order, tickets }: OrderWithTickets, withSecrets: boolean): OrderResponse {
  const cancelled = tickets.filter((ticket) => ticket.status === 'cancelled');
  return {
    orderId: order.orderId,
    ...(withSecrets ? { email: order.email } : {}),
    status: statusOf(tickets),
    total: order.total,
    refundDue: cancelled.length === 0 ? null : sumOf(cancelled.map((ticket) => ticket.refundDue ?? 0)),
    createdAt: new Date(order.createdAt).toISOString(),
    // A ticket with a category shows it (toResponse); one without, null.
    tickets: tickets.map((ticket): OrderTicketResponse =>
      Object.assign({ category: null }, toResponse(ticket, withSecrets)),
    ),
  };
}
