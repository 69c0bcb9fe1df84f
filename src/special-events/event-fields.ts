import type { ApiPropertyOptions } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsFiniteNumberInRange,
  IsRfc9562Uuid,
  IsVisibleText,
  rule,
  stringListProblem,
} from '../common/validation/validators.js';
import { sessionTimeProblem } from '../domain/event-sessions.js';
import { priceListProblem, priceListSchema } from '../domain/price-categories.js';
import { EVENT_EXAMPLE, EVENT_RULES as R } from './special-event.rules.js';

type Field =
  | 'eventId'
  | 'name'
  | 'location'
  | 'eventDescription'
  | 'dates'
  | 'price'
  | 'capacity'
  | 'capacityPerDate'
  | 'durationMinutes'
  | 'prices';

/**
 * Each field's documented shape, once: the create and update bodies and the response add only
 * what differs between them (required or not, nullable, the description), so a limit changed in
 * EVENT_RULES changes every schema that shows it.
 */
export const FIELD_SCHEMA = {
  eventId: { type: String, format: 'uuid', example: EVENT_EXAMPLE.eventId },
  name: { minLength: 1, maxLength: R.nameMax, example: EVENT_EXAMPLE.name },
  location: { minLength: 1, maxLength: R.locationMax, example: EVENT_EXAMPLE.location },
  eventDescription: { minLength: 1, maxLength: R.descriptionMax, example: EVENT_EXAMPLE.eventDescription },
  dates: {
    type: 'array',
    items: { type: 'string', minLength: R.dateMin, maxLength: R.dateMax },
    minItems: 0,
    maxItems: R.datesMaxItems,
    example: EVENT_EXAMPLE.dates,
  },
  price: { type: Number, format: 'double', minimum: R.priceMin, maximum: R.priceMax, example: EVENT_EXAMPLE.price },
  capacity: { type: 'integer', minimum: R.capacityMin, maximum: R.capacityMax, example: 120 },
  capacityPerDate: { type: 'integer', minimum: R.capacityPerDateMin, maximum: R.capacityPerDateMax, example: 25 },
  durationMinutes: { type: 'integer', minimum: R.durationMin, maximum: R.durationMax, example: 60 },
  prices: priceListSchema({ min: R.priceMin, max: R.priceMax }),
} as const satisfies Record<Field, ApiPropertyOptions>;

/**
 * Each field's rule, once: the decorator that validates a value that is there. Whether the field
 * may be absent or null is the body's own decision (create and update differ).
 */
export const FieldRule = {
  eventId: (): PropertyDecorator => IsRfc9562Uuid(),
  name: (): PropertyDecorator => IsVisibleText(R.nameMax),
  location: (): PropertyDecorator => IsVisibleText(R.locationMax),
  eventDescription: (): PropertyDecorator => IsVisibleText(R.descriptionMax),
  dates: (): PropertyDecorator => rule('isDateList', datesProblem),
  price: (): PropertyDecorator => IsFiniteNumberInRange(R.priceMin, R.priceMax),
  capacity: (): PropertyDecorator =>
    rule('isCapacity', (value) =>
      typeof value === 'number' && Number.isInteger(value) && value >= R.capacityMin && value <= R.capacityMax
        ? null
        : `must be a whole JSON number from ${R.capacityMin} to ${R.capacityMax}, or null for no limit`,
    ),
  capacityPerDate: (): PropertyDecorator =>
    rule('isCapacityPerDate', (value) =>
      typeof value === 'number' &&
      Number.isInteger(value) &&
      value >= R.capacityPerDateMin &&
      value <= R.capacityPerDateMax
        ? null
        : `must be a whole JSON number from ${R.capacityPerDateMin} to ${R.capacityPerDateMax}, or null for no limit`,
    ),
  durationMinutes: (): PropertyDecorator =>
    rule('isDurationMinutes', (value) =>
      typeof value === 'number' && Number.isInteger(value) && value >= R.durationMin && value <= R.durationMax
        ? null
        : `must be a whole JSON number of minutes from ${R.durationMin} to ${R.durationMax}, or null for none`,
    ),
  prices: (): PropertyDecorator =>
    rule('isPriceList', (value) => priceListProblem(value, { min: R.priceMin, max: R.priceMax })),
} as const satisfies Record<Field, () => PropertyDecorator>;

/**
 * The dates' rule: a list of strings (stringListProblem), and no item in the session form
 * (`YYYY-MM-DDTHH:MM`) with a time no day has: such an item would otherwise be kept as a date
 * whose time silently means nothing.
 */
function datesProblem(value: unknown): string | null {
  const listProblem = stringListProblem(value, { maxItems: R.datesMaxItems, itemMin: R.dateMin, itemMax: R.dateMax });
  if (listProblem !== null || !Array.isArray(value)) return listProblem;
  const failures: string[] = [];
  for (let i = 0; i < value.length && failures.length < 5; i++) {
    const problem = sessionTimeProblem(value[i] as string);
    if (problem !== null) failures.push(`item ${i} (${value[i] as string}) ${problem}`);
  }
  return failures.length === 0 ? null : failures.join('; ');
}

/** An eventId in any letter case is the same id: stored and compared in lowercase. */
export const LowercaseId = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }): unknown => (typeof value === 'string' ? value.toLowerCase() : value));
