import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional } from 'class-validator';
import {
  IsFiniteNumberInRange,
  IsRfc9562Uuid,
  IsStringList,
  IsVisibleText,
} from '../../common/validation/validators.js';
import { EVENT_EXAMPLE, EVENT_RULES as R } from '../special-event.rules.js';

const lowercase = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? value.toLowerCase() : value);

/** The body of POST /special-events. Lengths count Unicode code points. */
export class CreateSpecialEventDto {
  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description:
      'Any RFC 9562 UUID, any letter case; stored and returned in lowercase. Absent or null: the service generates a UUIDv7.',
    // null rather than an id: Swagger UI's "Try it out" sends the example, and a fixed id would
    // give the first caller a 201 and everyone after a 409.
    example: null,
  })
  @Transform(lowercase)
  @IsOptional()
  @IsRfc9562Uuid()
  eventId?: string | null;

  @ApiProperty({
    minLength: 1,
    maxLength: R.nameMax,
    description: 'Must contain visible characters.',
    example: EVENT_EXAMPLE.name,
  })
  @IsVisibleText(R.nameMax)
  name: string;

  @ApiProperty({
    minLength: 1,
    maxLength: R.locationMax,
    description: 'Must contain visible characters.',
    example: EVENT_EXAMPLE.location,
  })
  @IsVisibleText(R.locationMax)
  location: string;

  @ApiProperty({
    minLength: 1,
    maxLength: R.descriptionMax,
    description: 'Must contain visible characters.',
    example: EVENT_EXAMPLE.eventDescription,
  })
  @IsVisibleText(R.descriptionMax)
  eventDescription: string;

  @ApiProperty({
    type: 'array',
    items: { type: 'string', minLength: R.dateMin, maxLength: R.dateMax },
    minItems: 0,
    maxItems: R.datesMaxItems,
    description: 'Kept in the order sent. Free text; ISO 8601 dates (YYYY-MM-DD) are recommended.',
    example: EVENT_EXAMPLE.dates,
  })
  @IsStringList({ maxItems: R.datesMaxItems, itemMin: R.dateMin, itemMax: R.dateMax })
  dates: string[];

  @ApiProperty({
    type: Number,
    format: 'double',
    minimum: R.priceMin,
    maximum: R.priceMax,
    description: 'Price of one ticket; returned exactly as stored (19.99 stays 19.99).',
    example: EVENT_EXAMPLE.price,
  })
  @IsFiniteNumberInRange(R.priceMin, R.priceMax)
  price: number;
}
