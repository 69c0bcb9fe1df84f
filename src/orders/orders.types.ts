import type { BatchLine } from '../tickets/ticket-batch.service.js';
import type { Ticket } from '../tickets/ticket.entity.js';
import type { Order } from './order.entity.js';

/**
 * What OrdersService takes and returns: the controller maps the request to a NewOrder and an
 * OrderWithTickets to the answer, so the service knows no request or response shape.
 */

/** An order asked for: its buyer and its lines, each already checked field by field. */
export interface NewOrder {
  readonly email: string;
  readonly lines: readonly BatchLine[];
}

/** An order as it is now, with every ticket it sold (cancelled ones included). */
export interface OrderWithTickets {
  readonly order: Order;
  readonly tickets: readonly Ticket[];
}

/** A sum of prices without the binary fractions' noise (19.99 × 3 is 59.97, not 59.970000000000006). */
export const sumOf = (values: readonly number[]): number =>
  Number(values.reduce((sum, value) => sum + value, 0).toFixed(9));
