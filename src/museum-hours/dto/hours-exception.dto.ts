import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ValidateIf } from 'class-validator';
import type { FieldError } from '../../common/problem/problem.js';
import { rule } from '../../common/validation/validators.js';
import { isCalendarDate } from '../../domain/calendar-dates.js';
import { type DayException, SLOT_CAPACITY_MAX, SLOT_MINUTES } from '../museum-days.js';
import {
  CAPACITY_MAX,
  capacityProblem,
  slotCapacityProblem,
  slotGridOf,
  slotMinutesProblem,
  slotPairProblem,
  timeProblem,
} from './day-hours.dto.js';

const present = (_object: object, value: unknown): boolean => value !== undefined;

/**
 * The body of PUT /museum-hours/{date}: `{timeOpen, timeClose, capacity?, slotMinutes?, slotCapacity?}` (the date's own
 * hours), or `{"closed": true}`. Each field's own rule is checked by the pipe; which fields go
 * together, by `exceptionOf`.
 */
export class HoursExceptionDto {
  @ApiPropertyOptional({
    type: Boolean,
    enum: [true],
    description: '`true`: the museum is closed that date. Alone: not with the hours.',
    example: true,
  })
  @ValidateIf(present)
  @rule('isClosedTrue', (value) => (value === true ? null : 'must be true (to close the day), or left out'))
  closed?: true;

  @ApiPropertyOptional({
    type: String,
    pattern: '^([01]\\d|2[0-3]):([0-5]\\d)$',
    description: 'Time the museum opens that date, 24-hour `HH:mm`. Required unless `closed`.',
    example: '10:00',
  })
  @ValidateIf(present)
  @rule('isTime', timeProblem)
  timeOpen?: string;

  @ApiPropertyOptional({
    type: String,
    pattern: '^([01]\\d|2[0-3]):([0-5]\\d)$',
    description:
      'Time the museum closes that date, after timeOpen (no day runs past midnight). Required unless `closed`.',
    example: '22:00',
  })
  @ValidateIf(present)
  @rule('isTime', timeProblem)
  timeClose?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: CAPACITY_MAX,
    description: 'General-admission tickets for that date; absent: no limit. Not with `closed`.',
    example: 200,
  })
  @ValidateIf(present)
  @rule('isCapacity', capacityProblem)
  capacity?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: SLOT_MINUTES.min,
    maximum: SLOT_MINUTES.max,
    description:
      'Time slots that date: general admission is sold per slot, one starting at timeOpen and every slotMinutes ' +
      'after it, the last starting before timeClose. With slotCapacity; both absent: no slots. Not with `closed`.',
    example: 30,
  })
  @ValidateIf(present)
  @rule('isSlotMinutes', slotMinutesProblem)
  slotMinutes?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: SLOT_CAPACITY_MAX,
    description: 'General-admission tickets per slot that date. With slotMinutes.',
    example: 100,
  })
  @ValidateIf(present)
  @rule('isSlotCapacity', slotCapacityProblem)
  slotCapacity?: number;
}

/** The exception a valid body means, or the fields that do not go together. */
export function exceptionOf(body: HoursExceptionDto): DayException | FieldError[] {
  if (body.closed === true) {
    const extra = (['timeOpen', 'timeClose', 'capacity', 'slotMinutes', 'slotCapacity'] as const).filter(
      (key) => body[key] !== undefined,
    );
    if (extra.length === 0) return { closed: true };
    return extra.map((field) => ({ field, message: `${field} must be left out when closed is true` }));
  }
  const missing = (['timeOpen', 'timeClose'] as const).filter((key) => body[key] === undefined);
  if (missing.length > 0) {
    return missing.map((field) => ({ field, message: `${field} is required (or send {"closed": true})` }));
  }
  const timeOpen = body.timeOpen as string;
  const timeClose = body.timeClose as string;
  const pair = slotPairProblem(body.slotMinutes, body.slotCapacity);
  if (pair !== null) return [{ field: body.slotMinutes === undefined ? 'slotMinutes' : 'slotCapacity', message: pair }];
  if (timeClose <= timeOpen) {
    const message =
      body.slotMinutes === undefined
        ? 'timeClose must be after timeOpen (a day may not run past midnight)'
        : 'timeClose must be after timeOpen, so that the first slot (at timeOpen) starts before close';
    return [{ field: 'timeClose', message }];
  }
  const slots = slotGridOf(body.slotMinutes, body.slotCapacity);
  return { closed: false, timeOpen, timeClose, capacity: body.capacity ?? null, ...(slots ? { slots } : {}) };
}

/** The `{date}` path parameter. */
export class HoursDateParams {
  @ApiProperty({ type: String, format: 'date', description: 'The date, YYYY-MM-DD.', example: '2026-12-24' })
  @rule('isDate', (value) =>
    typeof value === 'string' && isCalendarDate(value)
      ? null
      : 'must be a date in the form YYYY-MM-DD, e.g. 2026-12-24',
  )
  date: string;
}

/** A date's exception as stored (the answer of PUT /museum-hours/{date}). */
export class HoursExceptionResponse {
  @ApiProperty({ type: String, format: 'date', example: '2026-12-24' })
  date: string;

  @ApiPropertyOptional({
    type: Boolean,
    enum: [true],
    description: 'Present (true) when the museum is closed that date.',
  })
  closed?: true;

  @ApiPropertyOptional({ type: String, example: '10:00', description: 'Absent when closed.' })
  timeOpen?: string;

  @ApiPropertyOptional({ type: String, example: '14:00', description: 'Absent when closed.' })
  timeClose?: string;

  @ApiPropertyOptional({
    type: 'integer',
    example: 200,
    description: 'Absent: no limit (and when closed).',
  })
  capacity?: number;

  @ApiPropertyOptional({ type: 'integer', example: 30, description: 'Absent: no time slots (and when closed).' })
  slotMinutes?: number;

  @ApiPropertyOptional({ type: 'integer', example: 100, description: 'Absent: no time slots (and when closed).' })
  slotCapacity?: number;
}
