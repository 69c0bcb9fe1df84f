import { type FieldRule, Refusal } from '../domain/refusal.js';

/** Why a ticket is not sold, read, found, checked in or cancelled, with what each answer needs to say. */
export interface TicketReasons {
  'invalid-purchase': { readonly errors: readonly FieldRule[] };
  'no-event': { readonly eventId: string };
  'not-an-event-date': { readonly date: string; readonly dates: readonly string[] };
  'museum-closed': { readonly date: string };
  'event-sold-out': { readonly capacity: number };
  'event-date-sold-out': { readonly date: string; readonly capacityPerDate: number };
  'admission-sold-out': { readonly date: string; readonly capacity: number };
  'slot-sold-out': {
    readonly date: string;
    readonly time: string;
    readonly capacity: number;
    readonly next: readonly string[];
  };
  'no-ticket': { readonly ticketId: string };
  'unknown-code': Record<string, never>;
  'too-many-unknown-codes': { readonly retryAfterSeconds: number };
  'already-checked-in': { readonly checkedInAt: string | null };
  'not-for-today': { readonly ticketDate: string; readonly today: string; readonly timeZone: string };
  'too-early': { readonly time: string; readonly opensAt: string };
  'entry-closed': { readonly time: string; readonly closedAt: string };
  cancelled: { readonly cancelledAt: string | null };
  'cancel-checked-in': { readonly checkedInAt: string | null };
  'invalid-search': { readonly errors: readonly FieldRule[] };
  'search-by-email': Record<string, never>;
}

export class TicketRefusal<R extends keyof TicketReasons = keyof TicketReasons> extends Refusal<TicketReasons, R> {}
