import { ApiProperty } from '@nestjs/swagger';
import { rule } from '../../common/validation/validators.js';
import type { Weekday } from '../museum-days.js';
import { dayHoursProblems, DayHoursDto } from './day-hours.dto.js';

const dayRule = (): PropertyDecorator =>
  rule('isDayHours', (value) => {
    if (value === null) return null;
    const problems = dayHoursProblems(value);
    return problems.length === 0 ? null : `is invalid: ${problems.join('; ')}`;
  });

const day = (name: Weekday): PropertyDecorator =>
  ApiProperty({
    type: DayHoursDto,
    nullable: true,
    description: `The hours on ${name[0].toUpperCase()}${name.slice(1)}s, or null: closed.`,
  });

/**
 * The regular week (the body of PUT /museum-hours/weekly and the answer of both weekly
 * operations): all seven days, each `{timeOpen, timeClose, capacity?}` or null for closed.
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
