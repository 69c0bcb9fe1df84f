import type { Ticket } from '../tickets/ticket.entity.js';
import { toResponse } from '../tickets/tickets.service.js';
import type { OrderResponse, OrderStatus, OrderTicketResponse } from './dto/order-response.dto.js';
import type { Order } from './order.entity.js';

/** Its tickets say what became of an order: cancelled, all of them or some. */
function statusOf(tickets: readonly Ticket[]): OrderStatus {
  const cancelled = tickets.filter((ticket) => ticket.status === 'cancelled').length;
  if (cancelled === 0) return 'placed';
  return cancelled === tickets.length ? 'cancelled' : 'partly-cancelled';
}

/** A sum of prices without the binary fractions' noise (19.99 × 3 is 59.97, not 59.970000000000006). */
export const sumOf = (values: readonly number[]): number =>
  Number(values.reduce((sum, value) => sum + value, 0).toFixed(9));

/** The order as answered; `withSecrets` false leaves out the email and the tickets' codes. */
export function toOrderResponse(order: Order, tickets: readonly Ticket[], withSecrets: boolean): OrderResponse {
  const cancelled = tickets.filter((ticket) => ticket.status === 'cancelled');
  return {
    orderId: order.orderId,
    ...(withSecrets ? { email: order.email } : {}),
    status: statusOf(tickets),
    total: order.total,
    refundDue: cancelled.length === 0 ? null : sumOf(cancelled.map((ticket) => ticket.refundDue ?? 0)),
    createdAt: new Date(order.createdAt).toISOString(),
    // A ticket's own category, once tickets keep one, overrides the null.
    tickets: tickets.map((ticket): OrderTicketResponse =>
      Object.assign({ category: null }, toResponse(ticket, withSecrets)),
    ),
  };
}
