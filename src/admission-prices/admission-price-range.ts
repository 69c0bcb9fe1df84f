import { EVENT_RULES } from '../special-events/special-event.rules.js';

/** A category's price follows the rules of an event's price: from 0 to 1,000,000,000. */
export const ADMISSION_PRICE_RANGE = { min: EVENT_RULES.priceMin, max: EVENT_RULES.priceMax } as const;
