import { Injectable } from '@nestjs/common';
import { uuidv7 } from '../domain/time-ordered-ids.js';
import { MuseumClock } from '../domain/museum-clock.js';
import { type LineRefusal, TicketBatchService } from '../tickets/ticket-batch.service.js';
import type { Order } from './order.entity.js';
import { OrderRefusal } from './orders.refusals.js';
import { OrdersRepository } from './orders.repository.js';
import { type NewOrder, type OrderWithTickets, sumOf } from './orders.types.js';

/**
 * Orders: several tickets bought together, all or nothing, and cancelled together. The tickets
 * are sold and cancelled by the tickets module (TicketBatchService), the order's row joined to
 * the same transaction; this module never reads the tickets' or the places' tables.
 */
@Injectable()
export class OrdersService {
  constructor(
    private readonly orders: OrdersRepository,
    private readonly batches: TicketBatchService,
    private readonly clock: MuseumClock,
  ) {}

  /** Places the order: every line's tickets sold in one transaction with the order's row, or nothing. */
  async place(asked: NewOrder): Promise<OrderWithTickets> {
    const orderId = uuidv7();
    let order: Order | undefined;
    const sale = await this.batches.sell(asked.lines, { email: asked.email, orderId }, (tickets) => {
      order = {
        orderId,
        email: asked.email,
        total: sumOf(tickets.map((ticket) => ticket.pricePaid)),
        createdAt: this.clock.now(),
      };
      return [this.orders.insertStatement(order)];
    });
    if (sale.kind === 'invalid') throw new OrderRefusal('invalid-order', { errors: sale.errors });
    if (sale.kind === 'refused') throw lineRefusal(sale.line, sale.why);
    return { order: order as Order, tickets: await this.batches.ofOrder(orderId) };
  }

  /** The order and its tickets. */
  async get(orderId: string): Promise<OrderWithTickets> {
    const order = await this.find(orderId);
    return { order, tickets: await this.batches.ofOrder(orderId) };
  }

  /**
   * Cancels every active ticket of the order, giving their places back in the same transaction,
   * and answers the order as it then is. A checked-in ticket refuses the whole cancel (409); an
   * order already cancelled answers as it is (a second cancel changes nothing, refundDue included).
   */
  async cancel(orderId: string): Promise<OrderWithTickets> {
    const order = await this.find(orderId);
    const outcome = await this.batches.cancelOrder(orderId);
    if (outcome.kind === 'checked-in') {
      throw new OrderRefusal('cancel-checked-in', { ticketIds: outcome.tickets.map((ticket) => ticket.ticketId) });
    }
    return { order, tickets: outcome.tickets };
  }

  private async find(orderId: string): Promise<Order> {
    const order = await this.orders.find(orderId);
    if (order === undefined) throw new OrderRefusal('no-order', { orderId });
    return order;
  }
}

/** Why line `line` of an order was not served, as the order's refusal. */
function lineRefusal(line: number, why: LineRefusal): OrderRefusal {
  switch (why.reason) {
    case 'no-event':
      return new OrderRefusal('line-no-event', { line, eventId: why.eventId });
    case 'not-an-event-date':
      return new OrderRefusal('line-not-an-event-date', { line, date: why.date, dates: why.dates });
    case 'museum-closed':
      return new OrderRefusal('line-museum-closed', { line, date: why.date });
    case 'sold-out':
      return new OrderRefusal('line-sold-out', { line, of: why.of, asked: why.asked, left: why.left, next: why.next });
  }
}
