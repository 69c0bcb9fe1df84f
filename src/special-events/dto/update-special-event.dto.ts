import { ApiPropertyOptional } from '@nestjs/swagger';
import { ValidateIf } from 'class-validator';
import type { CategoryPrice } from '../../domain/price-categories.js';
import { FIELD_SCHEMA, FieldRule, LowercaseId } from '../event-fields.js';
import type { SpecialEventChanges } from '../special-events.types.js';

/**
 * Validated whenever present, `null` included: a required field cannot be removed, so `null`
 * fails its rule (class-validator's @IsOptional would let it through).
 */
const WhenPresent = (): PropertyDecorator => ValidateIf((_object, value) => value !== undefined);

const NOT_NULL = 'Not null: the field cannot be removed (omit it to keep the stored value).';

/**
 * The body of PATCH /special-events/{eventId}: a JSON merge patch (RFC 7396) of the event, or the
 * Museum API's SpecialEventFields as application/json; the same document either way. Every field
 * is optional and follows create's rule when given. `eventId` may be given (any case) but must be
 * the path's; `null` there means the same as absent.
 */
export class UpdateSpecialEventDto implements SpecialEventChanges {
  @ApiPropertyOptional({
    ...FIELD_SCHEMA.eventId,
    nullable: true,
    description: "Optional; when given it must be the path's eventId (any letter case). eventId cannot change.",
  })
  @LowercaseId()
  @ValidateIf((_object, value) => value !== undefined && value !== null)
  @FieldRule.eventId()
  eventId?: string | null;

  @ApiPropertyOptional({ ...FIELD_SCHEMA.name, description: NOT_NULL })
  @WhenPresent()
  @FieldRule.name()
  name?: string;

  @ApiPropertyOptional({ ...FIELD_SCHEMA.location, description: NOT_NULL })
  @WhenPresent()
  @FieldRule.location()
  location?: string;

  @ApiPropertyOptional({ ...FIELD_SCHEMA.eventDescription, description: NOT_NULL })
  @WhenPresent()
  @FieldRule.eventDescription()
  eventDescription?: string;

  @ApiPropertyOptional({
    ...FIELD_SCHEMA.dates,
    description: `Replaces the stored dates as a whole (a merge patch replaces arrays); an item YYYY-MM-DDTHH:MM is a session, as on create. ${NOT_NULL}`,
  })
  @WhenPresent()
  @FieldRule.dates()
  dates?: string[];

  @ApiPropertyOptional({ ...FIELD_SCHEMA.price, description: NOT_NULL })
  @WhenPresent()
  @FieldRule.price()
  price?: number;

  @ApiPropertyOptional({
    ...FIELD_SCHEMA.capacity,
    nullable: true,
    description:
      'Tickets the event may sell in all (an addition to the Museum API); null removes the limit. Below the tickets ' +
      'already sold: 409, nothing changed.',
  })
  @ValidateIf((_object, value) => value !== undefined && value !== null)
  @FieldRule.capacity()
  capacity?: number | null;

  @ApiPropertyOptional({
    ...FIELD_SCHEMA.capacityPerDate,
    nullable: true,
    description:
      'Tickets each ISO date may sell (an addition to the Museum API); null removes the limit. Below the tickets ' +
      'already sold on a date: 409 naming the date, nothing changed.',
  })
  @ValidateIf((_object, value) => value !== undefined && value !== null)
  @FieldRule.capacityPerDate()
  capacityPerDate?: number | null;

  @ApiPropertyOptional({
    ...FIELD_SCHEMA.durationMinutes,
    nullable: true,
    description: 'How long each session lasts, in minutes (an addition to the Museum API); null removes it.',
  })
  @ValidateIf((_object, value) => value !== undefined && value !== null)
  @FieldRule.durationMinutes()
  durationMinutes?: number | null;

  @ApiPropertyOptional({
    ...FIELD_SCHEMA.prices,
    nullable: true,
    description:
      'Replaces the prices by category as a whole (an addition to the Museum API); null or [] removes them. Tickets ' +
      'already sold keep the price they were sold at.',
  })
  @ValidateIf((_object, value) => value !== undefined && value !== null)
  @FieldRule.prices()
  prices?: CategoryPrice[] | null;
}
