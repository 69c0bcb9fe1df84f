import { Injectable } from '@nestjs/common';
import { AdmissionPricesService } from '../admission-prices/admission-prices.service.js';
import { type PriceOutcome, priceIn } from '../domain/price-categories.js';
import type { FieldRule } from '../domain/refusal.js';
import type { SpecialEvent } from '../special-events/special-event.entity.js';
import { TicketRefusal } from './tickets.refusals.js';

/** What a ticket is for, as far as its price goes: general admission, or an event as read for the sale. */
export type PricedTicket =
  | { readonly ticketType: 'general' }
  | { readonly ticketType: 'event'; readonly event: Pick<SpecialEvent, 'price' | 'prices'> };

/**
 * The price a ticket is sold at, for every way of selling one (POST /tickets, an order's lines):
 * with no category the event's `price` or GENERAL_ADMISSION_PRICE, with one that category's
 * price, or a refusal naming the categories there are.
 */
@Injectable()
export class TicketPrices {
  constructor(private readonly admission: AdmissionPricesService) {}

  /** The price of a ticket for `ticket` bought in `category` (none: the base price), or why not. */
  priceFor(ticket: PricedTicket, category: string | null | undefined): Promise<PriceOutcome> {
    return ticket.ticketType === 'event'
      ? Promise.resolve(this.forEvent(ticket.event, category))
      : this.forGeneral(category);
  }

  /**
   * An event ticket's price, from the event as read for the sale (the version whose seat it
   * takes), without a read of its own: what EventSeats' `joined` callback needs.
   */
  forEvent(event: Pick<SpecialEvent, 'price' | 'prices'>, category: string | null | undefined): PriceOutcome {
    return priceIn(event.price, event.prices, category);
  }

  /** A general ticket's price: GENERAL_ADMISSION_PRICE with no category (no read), else its category's. */
  forGeneral(category: string | null | undefined): Promise<PriceOutcome> {
    return this.admission.priceFor(category);
  }
}

/**
 * Why `field` (`category`, or an order line's) names none of the list, naming the categories
 * there are.
 */
export function unknownCategoryRule(
  outcome: Extract<PriceOutcome, { kind: 'unknown-category' }>,
  of: 'event' | 'general',
  field = 'category',
): FieldRule {
  const whose = of === 'event' ? "the event's" : "general admission's";
  const message =
    outcome.categories.length === 0
      ? `${field} "${outcome.category}" is not a price category: ${whose} tickets have none, leave ${field} out`
      : `${field} must be one of ${whose} price categories: ${outcome.categories.join(', ')} (or absent for the base price)`;
  return { field, message };
}

/** The 400 of a category that names none of the list (unknownCategoryRule). */
export function unknownCategory(
  outcome: Extract<PriceOutcome, { kind: 'unknown-category' }>,
  of: 'event' | 'general',
  field = 'category',
): TicketRefusal {
  return new TicketRefusal('invalid-purchase', { errors: [unknownCategoryRule(outcome, of, field)] });
}
