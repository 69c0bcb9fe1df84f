import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ValidateIf } from 'class-validator';
import { rule } from '../../common/validation/validators.js';
import { isCalendarDate } from '../../domain/calendar-dates.js';

export const HOURS_LIMIT = { min: 1, max: 30, default: 10 } as const;

const DIGITS = /^[0-9]{1,16}$/;

/** A query value of digits only becomes a number; anything else stays as sent and fails the rule. */
const integer = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && DIGITS.test(value) ? Number(value) : value;

const integerRule =
  (min: number, max: number) =>
  (value: unknown): string | null =>
    typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max
      ? null
      : `must be a whole number from ${min} to ${max}`;

/** The query of GET /museum-hours (the Museum API's getMuseumHours): every parameter optional. */
export class MuseumHoursQuery {
  @ApiPropertyOptional({
    type: String,
    format: 'date',
    description:
      "Starting date to retrieve future operating hours from. Defaults to today's date in the museum's time zone " +
      '(MUSEUM_TIME_ZONE). The list looks at most 366 days ahead of it.',
  })
  @ValidateIf((_object, value) => value !== undefined)
  @rule('isDate', (value) =>
    typeof value === 'string' && isCalendarDate(value)
      ? null
      : 'must be a date in the form YYYY-MM-DD, e.g. 2026-12-01',
  )
  startDate?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    default: 1,
    description: 'Page number to retrieve. A page past the open days of the 366 looked at is empty.',
    example: 1,
  })
  @Transform(integer)
  @ValidateIf((_object, value) => value !== undefined)
  @rule('isPage', integerRule(1, Number.MAX_SAFE_INTEGER))
  page?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: HOURS_LIMIT.min,
    maximum: HOURS_LIMIT.max,
    default: HOURS_LIMIT.default,
    description: 'Number of days per page.',
    example: 15,
  })
  @Transform(integer)
  @ValidateIf((_object, value) => value !== undefined)
  @rule('isLimit', integerRule(HOURS_LIMIT.min, HOURS_LIMIT.max))
  limit?: number;
}

/** One open day (the Museum API's MuseumDailyHours, plus ticketsAvailable). */
export class MuseumDailyHoursResponse {
  @ApiPropertyOptional({
    type: String,
    format: 'date',
    description: 'Date the operating hours apply to.',
    example: '2024-12-31',
  })
  date: string;

  @ApiPropertyOptional({
    type: String,
    pattern: '^([01]\\d|2[0-3]):?([0-5]\\d)$',
    description: 'Time the museum opens on a specific date. Uses 24 hour time format (`HH:mm`).',
    example: '09:00',
  })
  timeOpen: string;

  @ApiPropertyOptional({
    type: String,
    pattern: '^([01]\\d|2[0-3]):?([0-5]\\d)$',
    description: 'Time the museum closes on a specific date. Uses 24 hour time format (`HH:mm`).',
    example: '18:00',
  })
  timeClose: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    description:
      'Additive: on a day with a general-admission capacity, the tickets left (never below 0). Absent: no limit.',
    example: 120,
  })
  ticketsAvailable?: number;
}
