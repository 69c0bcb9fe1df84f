import { type FieldRule, Refusal } from '../domain/refusal.js';

/** Why an order is not placed, read or cancelled, with what each answer needs to say. */
export interface OrderReasons {
  'invalid-order': { readonly errors: readonly FieldRule[] };
  'line-no-event': { readonly line: number; readonly eventId: string };
  'line-not-an-event-date': { readonly line: number; readonly date: string; readonly dates: readonly string[] };
  'line-museum-closed': { readonly line: number; readonly date: string };
  'line-sold-out': {
    readonly line: number;
    readonly of: string;
    readonly asked: number;
    readonly left: number;
    readonly next?: readonly string[];
  };
  'no-order': { readonly orderId: string };
  'cancel-checked-in': { readonly ticketIds: readonly string[] };
}

export class OrderRefusal<R extends keyof OrderReasons = keyof OrderReasons> extends Refusal<OrderReasons, R> {}
