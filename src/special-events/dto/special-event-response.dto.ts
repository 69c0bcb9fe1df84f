import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { CategoryPrice } from '../../domain/price-categories.js';
import { FIELD_SCHEMA } from '../event-fields.js';

/** A stored special event, as the service returns it (documentation only). */
export class SpecialEventResponse {
  @ApiProperty({ ...FIELD_SCHEMA.eventId, description: 'Lowercase.' })
  eventId: string;

  @ApiProperty(FIELD_SCHEMA.name)
  name: string;

  @ApiProperty(FIELD_SCHEMA.location)
  location: string;

  @ApiProperty(FIELD_SCHEMA.eventDescription)
  eventDescription: string;

  @ApiProperty(FIELD_SCHEMA.dates)
  dates: string[];

  @ApiProperty(FIELD_SCHEMA.price)
  price: number;

  @ApiPropertyOptional({
    ...FIELD_SCHEMA.durationMinutes,
    description:
      'Only for an event with a duration: how long each session (a date item YYYY-MM-DDTHH:MM) lasts, in minutes ' +
      '(an addition to the Museum API).',
  })
  durationMinutes?: number;

  @ApiPropertyOptional({
    ...FIELD_SCHEMA.prices,
    description:
      'Only for an event with price categories: the price of a ticket bought in each (an addition to the Museum ' +
      'API); `price` is the price of one bought with none.',
  })
  prices?: CategoryPrice[];

  @ApiPropertyOptional({
    ...FIELD_SCHEMA.capacity,
    description: 'Only for an event with a capacity: the tickets it may sell in all (an addition to the Museum API).',
  })
  capacity?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: FIELD_SCHEMA.capacity.maximum,
    example: 37,
    description:
      'Only for an event with a capacity: the tickets still for sale (capacity − tickets sold, never below 0). A sale ' +
      'changes it and the ETag, not the version; it is not announced by a webhook.',
  })
  ticketsAvailable?: number;

  @ApiPropertyOptional({
    ...FIELD_SCHEMA.capacityPerDate,
    description:
      'Only for an event with a limit per date, and not to anonymous readers: the tickets each ISO date may sell ' +
      "(an addition to the Museum API); GET /special-events/{eventId}/availability shows each date's.",
  })
  capacityPerDate?: number;
}
