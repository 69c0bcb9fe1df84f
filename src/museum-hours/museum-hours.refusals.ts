import { Refusal } from '../domain/refusal.js';

/** Why the museum's hours are not changed as asked. */
export interface MuseumHoursReasons {
  'tickets-sold-on-closing': { readonly date: string; readonly sold: number };
  'tickets-sold-above-capacity': { readonly date: string; readonly sold: number };
  'no-exception': { readonly date: string };
  'closed-day': { readonly date: string };
}

export class MuseumHoursRefusal<R extends keyof MuseumHoursReasons = keyof MuseumHoursReasons> extends Refusal<
  MuseumHoursReasons,
  R
> {}
