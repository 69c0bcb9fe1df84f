import { ApiProperty } from '@nestjs/swagger';
import { TIME_SCHEMA_PATTERN } from './day-hours.dto.js';

/** One time slot of a day (GET /museum-hours/{date}/slots). */
export class SlotResponse {
  @ApiProperty({
    type: String,
    pattern: TIME_SCHEMA_PATTERN,
    description: "The slot's start, 24-hour `HH:MM` in the museum's time zone: what `ticketTime` names.",
    example: '10:30',
  })
  time: string;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description: "The slot's capacity (the day's slotCapacity).",
    example: 100,
  })
  capacity: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description:
      "General tickets still for sale in the slot: the smaller of the slot's places left and the day's (its " +
      '`capacity`, if set), never below 0.',
    example: 42,
  })
  ticketsAvailable: number;
}
