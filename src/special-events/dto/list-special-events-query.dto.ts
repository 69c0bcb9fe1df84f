import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ValidateIf } from 'class-validator';
import { rule } from '../../common/validation/validators.js';
import { isCalendarDate } from '../../domain/calendar-dates.js';
import { LIST_LIMIT, type ListQuery, MAX_OFFSET } from '../special-events.types.js';

const DIGITS = /^[0-9]{1,9}$/;

/** A query value of digits only becomes a number; anything else stays as sent and fails the rule. */
const integer = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && DIGITS.test(value) ? Number(value) : value;

const dateRule = (value: unknown): string | null =>
  typeof value === 'string' && isCalendarDate(value) ? null : 'must be a date in the form YYYY-MM-DD, e.g. 2026-12-01';

const integerRule =
  (min: number, max: number) =>
  (value: unknown): string | null =>
    typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max
      ? null
      : `must be a whole number from ${min} to ${max}`;

/**
 * The query of GET /special-events (the Museum API's listSpecialEvents, plus `cursor`). Every
 * parameter is optional; given once, it must be valid (a repeated parameter is an array: 400).
 */
export class ListSpecialEventsQuery implements ListQuery {
  @ApiPropertyOptional({
    type: String,
    format: 'date',
    description:
      'Only events with an ISO date (YYYY-MM-DD, or the date part of an ISO date-time) on or after this date. ' +
      'Without `startDate` and `endDate`, every event is listed, those whose dates are free text too.',
  })
  @ValidateIf((_object, value) => value !== undefined)
  @rule('isListDate', dateRule)
  startDate?: string;

  @ApiPropertyOptional({
    type: String,
    format: 'date',
    description: 'Only events with an ISO date on or before this date. Must not be before `startDate`.',
  })
  @ValidateIf((_object, value) => value !== undefined)
  @rule('isListDate', dateRule)
  endDate?: string;

  @ApiPropertyOptional({
    type: Number,
    minimum: 1,
    maximum: MAX_OFFSET + 1,
    default: 1,
    description: `Page number, from 1. A page may skip at most ${MAX_OFFSET} events ((page − 1) × limit ≤ ${MAX_OFFSET}); deeper pages are refused: follow the \`next\` links instead. Not together with \`cursor\`.`,
    example: 1,
  })
  @Transform(integer)
  @ValidateIf((_object, value) => value !== undefined)
  @rule('isPage', integerRule(1, Number.MAX_SAFE_INTEGER))
  page?: number;

  @ApiPropertyOptional({
    type: Number,
    minimum: LIST_LIMIT.min,
    maximum: LIST_LIMIT.max,
    default: LIST_LIMIT.default,
    description: 'Number of events per page.',
    example: 15,
  })
  @Transform(integer)
  @ValidateIf((_object, value) => value !== undefined)
  @rule('isLimit', integerRule(LIST_LIMIT.min, LIST_LIMIT.max))
  limit?: number;

  @ApiPropertyOptional({
    type: String,
    description:
      'Opaque position from the `Link: <…>; rel="next"` header of the previous page (keyset paging: every page costs ' +
      'the same, and following the links visits each matching event once even while others are created or deleted). ' +
      'Valid only with the startDate and endDate it was issued for.',
  })
  @ValidateIf((_object, value) => value !== undefined)
  @rule('isCursor', (value) =>
    typeof value === 'string' && value.length > 0 && value.length <= 200 ? null : 'must be a cursor from a Link header',
  )
  cursor?: string;
}
