import { ApiProperty } from '@nestjs/swagger';
import { EVENT_EXAMPLE, EVENT_RULES as R } from '../special-event.rules.js';

/** A stored special event, as the service returns it (documentation only). */
export class SpecialEventResponse {
  @ApiProperty({ format: 'uuid', description: 'Lowercase.', example: EVENT_EXAMPLE.eventId })
  eventId: string;

  @ApiProperty({ minLength: 1, maxLength: R.nameMax, example: EVENT_EXAMPLE.name })
  name: string;

  @ApiProperty({ minLength: 1, maxLength: R.locationMax, example: EVENT_EXAMPLE.location })
  location: string;

  @ApiProperty({ minLength: 1, maxLength: R.descriptionMax, example: EVENT_EXAMPLE.eventDescription })
  eventDescription: string;

  @ApiProperty({
    type: 'array',
    items: { type: 'string', minLength: R.dateMin, maxLength: R.dateMax },
    maxItems: R.datesMaxItems,
    example: EVENT_EXAMPLE.dates,
  })
  dates: string[];

  @ApiProperty({
    type: Number,
    format: 'double',
    minimum: R.priceMin,
    maximum: R.priceMax,
    example: EVENT_EXAMPLE.price,
  })
  price: number;
}
