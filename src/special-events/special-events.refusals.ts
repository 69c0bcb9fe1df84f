import { type FieldRule, Refusal } from '../domain/refusal.js';
import type { EventRevision } from './special-events.types.js';

/** Why a special event is not listed, created, read, changed or deleted as asked. */
export interface SpecialEventReasons {
  invalid: { readonly errors: readonly FieldRule[] };
  exists: { readonly eventId: string };
  'not-found': { readonly eventId: string };
  'stale-if-match': { readonly current: EventRevision };
  'if-none-match-current': { readonly current: EventRevision };
  'capacity-below-sold': { readonly capacity: number; readonly sold: number };
  'capacity-per-date-below-sold': { readonly capacityPerDate: number; readonly date: string; readonly sold: number };
  'dates-have-tickets': { readonly dates: readonly string[] };
  busy: Record<string, never>;
}

export class SpecialEventRefusal<R extends keyof SpecialEventReasons = keyof SpecialEventReasons> extends Refusal<
  SpecialEventReasons,
  R
> {}
