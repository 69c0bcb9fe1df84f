import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import type { CategoryPrice } from '../../domain/price-categories.js';
import { FIELD_SCHEMA, FieldRule, LowercaseId } from '../event-fields.js';
import type { NewSpecialEvent } from '../special-events.types.js';

const VISIBLE = 'Must contain visible characters.';

/** The body of POST /special-events. Lengths count Unicode code points. */
export class CreateSpecialEventDto implements NewSpecialEvent {
  @ApiPropertyOptional({
    ...FIELD_SCHEMA.eventId,
    nullable: true,
    description:
      'Any RFC 9562 UUID, any letter case; stored and returned in lowercase. Absent or null: the service generates a UUIDv7.',
    // null rather than an id: Swagger UI's "Try it out" sends the example, and a fixed id would
    // give the first caller a 201 and everyone after a 409.
    example: null,
  })
  @LowercaseId()
  @IsOptional()
  @FieldRule.eventId()
  eventId?: string | null;

  @ApiProperty({ ...FIELD_SCHEMA.name, description: VISIBLE })
  @FieldRule.name()
  name: string;

  @ApiProperty({ ...FIELD_SCHEMA.location, description: VISIBLE })
  @FieldRule.location()
  location: string;

  @ApiProperty({ ...FIELD_SCHEMA.eventDescription, description: VISIBLE })
  @FieldRule.eventDescription()
  eventDescription: string;

  @ApiProperty({
    ...FIELD_SCHEMA.dates,
    description:
      'Kept in the order sent. Free text; ISO 8601 dates (YYYY-MM-DD) are recommended. An item YYYY-MM-DDTHH:MM is a ' +
      "session starting at that local time in the museum's time zone (MUSEUM_TIME_ZONE); its time must exist (25:00: 400).",
  })
  @FieldRule.dates()
  dates: string[];

  @ApiProperty({
    ...FIELD_SCHEMA.price,
    description: 'Price of one ticket; returned exactly as stored (19.99 stays 19.99).',
  })
  @FieldRule.price()
  price: number;

  @ApiPropertyOptional({
    ...FIELD_SCHEMA.capacity,
    nullable: true,
    description:
      'Tickets the event may sell in all, over all its dates (an addition to the Museum API). Absent or null: no limit.',
  })
  @IsOptional()
  @FieldRule.capacity()
  capacity?: number | null;

  @ApiPropertyOptional({
    ...FIELD_SCHEMA.capacityPerDate,
    nullable: true,
    description:
      'Tickets each ISO date of the event may sell (its sessions on one date share them), checked as well as ' +
      'capacity (an addition to the Museum API). Absent or null: no limit per date.',
  })
  @IsOptional()
  @FieldRule.capacityPerDate()
  capacityPerDate?: number | null;

  @ApiPropertyOptional({
    ...FIELD_SCHEMA.durationMinutes,
    nullable: true,
    description:
      'How long each session (a date item YYYY-MM-DDTHH:MM) lasts, in minutes: it gives the session its end (an ' +
      'addition to the Museum API). Absent or null: sessions have no end given.',
  })
  @IsOptional()
  @FieldRule.durationMinutes()
  durationMinutes?: number | null;

  @ApiPropertyOptional({
    ...FIELD_SCHEMA.prices,
    nullable: true,
    description:
      "Prices by category (an addition to the Museum API): a ticket bought with a `category` costs its entry's " +
      'price; `price` stays the price of a ticket bought with none. Up to 20 entries, each category once. Absent, ' +
      'null or []: no categories.',
  })
  @IsOptional()
  @FieldRule.prices()
  prices?: CategoryPrice[] | null;
}
