import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TIME_SCHEMA_PATTERN } from './day-hours.dto.js';

const SOLD = {
  type: 'integer',
  minimum: 0,
  description: 'General tickets held: active or checked in (the admissions they take).',
} as const;
const CHECKED_IN = {
  type: 'integer',
  minimum: 0,
  description: 'Of `sold`, the tickets checked in at the door.',
} as const;
const CANCELLED = {
  type: 'integer',
  minimum: 0,
  description: 'General tickets that were cancelled (not counted in `sold`).',
} as const;

/** One slot's general-admission attendance (documentation only). */
export class SlotAttendanceResponse {
  @ApiProperty({
    type: String,
    pattern: TIME_SCHEMA_PATTERN,
    description: "The slot's start, 24-hour `HH:MM` in the museum's time zone.",
    example: '10:30',
  })
  time: string;

  @ApiProperty({ ...SOLD, example: 40 })
  sold: number;

  @ApiProperty({ ...CHECKED_IN, example: 31 })
  checkedIn: number;

  @ApiProperty({ ...CANCELLED, example: 1 })
  cancelled: number;
}

/** One day's general-admission attendance, as GET /museum-hours/{date}/attendance answers (documentation only). */
export class DayAttendanceResponse {
  @ApiProperty({ type: String, format: 'date', example: '2026-12-24', description: 'The date asked for.' })
  date: string;

  @ApiProperty({ ...SOLD, description: `${SOLD.description} Of the whole day, every slot included.`, example: 120 })
  sold: number;

  @ApiProperty({ ...CHECKED_IN, example: 87 })
  checkedIn: number;

  @ApiProperty({ ...CANCELLED, example: 3 })
  cancelled: number;

  @ApiPropertyOptional({
    type: SlotAttendanceResponse,
    isArray: true,
    description:
      "Present when the day has time slots: each slot of the day's hours in time order, none sold included, and any " +
      'other start that tickets were sold for (before the hours changed). Tickets of the whole day count in the ' +
      "day's figures only.",
  })
  slots?: SlotAttendanceResponse[];
}
