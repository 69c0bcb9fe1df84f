import type { SpecialEvent } from '../special-events/special-event.entity.js';

/** What prices a ticket: its event (none for general admission) and the category asked, if any. */
export interface PricedSale {
  readonly event: SpecialEvent | null;
  readonly category?: string;
}

/**
 * The price of one ticket of an order's line: the event's price in force at the moment of
 * purchase, or general admission's (GENERAL_ADMISSION_PRICE), as POST /tickets prices a ticket.
 * Every ticket of an order is priced here, so a ticket's category prices it in this one place.
 */
export function salePrice(sale: PricedSale, generalAdmissionPrice: number): number {
  return sale.event === null ? generalAdmissionPrice : sale.event.price;
}
