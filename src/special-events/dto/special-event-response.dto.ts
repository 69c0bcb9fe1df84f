import { ApiProperty } from '@nestjs/swagger';
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
}
