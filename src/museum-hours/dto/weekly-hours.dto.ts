import { ApiProperty } from '@nestjs/swagger';
import { rule } from '../../common/validation/validators.js';
import type { Weekday } from '../museum-days.js';
import { SLOT_CAPACITY_MAX, SLOT_MINUTES } from '../museum-days.js';
import { CAPACITY_MAX, dayHoursProblems, type DayHoursDto, TIME_SCHEMA_PATTERN } from './day-hours.dto.js';

const dayRule = (): PropertyDecorator =>
  rule('isDayHours', (value) => {
    if (value === null) return null;
    const problems = dayHoursProblems(value);
    return problems.length === 0 ? null : `is invalid: ${problems.join('; ')}`;
  });

/**
 * Written out rather than a $ref to DayHoursDto: OpenAPI 3.0's `nullable` applies to the `type`
 * beside it, and a $ref (in allOf) would still demand an object, so null would not validate.
 */
const day = (name: Weekday): PropertyDecorator =>
  ApiProperty({
    type: 'object',
    nullable: true,
    properties: {
      timeOpen: {
        type: 'string',
        pattern: TIME_SCHEMA_PATTERN,
        description: 'Opening time, 24-hour HH:mm.',
        example: '09:00',
      },
      timeClose: {
        type: 'string',
        pattern: TIME_SCHEMA_PATTERN,
        description: 'Closing time, after timeOpen (a day does not run past midnight).',
        example: '18:00',
      },
      capacity: {
        type: 'integer',
        minimum: 1,
        maximum: CAPACITY_MAX,
        description: 'General-admission tickets for the day; absent: no limit.',
        example: 500,
      },
      slotMinutes: {
        type: 'integer',
        minimum: SLOT_MINUTES.min,
        maximum: SLOT_MINUTES.max,
        description:
          'Time slots: general admission is sold per slot, one starting at timeOpen and every slotMinutes after it, ' +
          'the last starting before timeClose. With slotCapacity; both absent: no slots.',
        example: 30,
      },
      slotCapacity: {
        type: 'integer',
        minimum: 1,
        maximum: SLOT_CAPACITY_MAX,
        description: 'General-admission tickets per slot. With slotMinutes.',
        example: 100,
      },
    },
    required: ['timeOpen', 'timeClose'],
    additionalProperties: false,
    description: `The hours on ${name[0].toUpperCase()}${name.slice(1)}s, or null: closed.`,
  });

/**
 * The regular week (the body of PUT /museum-hours/weekly and the answer of both weekly
 * operations): all seven days, each `{timeOpen, timeClose, capacity?, slotMinutes?, slotCapacity?}` or null for closed.
 */
export class WeeklyHoursDto implements Record<Weekday, DayHoursDto | null> {
  @day('monday')
  @dayRule()
  monday: DayHoursDto | null;

  @day('tuesday')
  @dayRule()
  tuesday: DayHoursDto | null;

  @day('wednesday')
  @dayRule()
  wednesday: DayHoursDto | null;

  @day('thursday')
  @dayRule()
  thursday: DayHoursDto | null;

  @day('friday')
  @dayRule()
  friday: DayHoursDto | null;

  @day('saturday')
  @dayRule()
  saturday: DayHoursDto | null;

  @day('sunday')
  @dayRule()
  sunday: DayHoursDto | null;
}
