import { Refusal } from '../domain/refusal.js';

/** Why the calendar module refuses a request. */
export interface CalendarReasons {
  'no-token': { readonly tokenId: string };
  'unknown-feed-token': Record<string, never>;
}

export class CalendarRefusal<R extends keyof CalendarReasons = keyof CalendarReasons> extends Refusal<
  CalendarReasons,
  R
> {}
