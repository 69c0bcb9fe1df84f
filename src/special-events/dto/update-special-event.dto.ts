import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ValidateIf } from 'class-validator';
import {
  IsFiniteNumberInRange,
  IsRfc9562Uuid,
  IsStringList,
  IsVisibleText,
} from '../../common/validation/validators.js';
import { EVENT_EXAMPLE, EVENT_RULES as R } from '../special-event.rules.js';

const lowercase = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? value.toLowerCase() : value);

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
export class UpdateSpecialEventDto {
  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description: "Optional; when given it must be the path's eventId (any letter case). eventId cannot change.",
    example: EVENT_EXAMPLE.eventId,
  })
  @Transform(lowercase)
  @ValidateIf((_object, value) => value !== undefined && value !== null)
  @IsRfc9562Uuid()
  eventId?: string | null;

  @ApiPropertyOptional({ minLength: 1, maxLength: R.nameMax, description: NOT_NULL, example: EVENT_EXAMPLE.name })
  @WhenPresent()
  @IsVisibleText(R.nameMax)
  name?: string;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: R.locationMax,
    description: NOT_NULL,
    example: EVENT_EXAMPLE.location,
  })
  @WhenPresent()
  @IsVisibleText(R.locationMax)
  location?: string;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: R.descriptionMax,
    description: NOT_NULL,
    example: EVENT_EXAMPLE.eventDescription,
  })
  @WhenPresent()
  @IsVisibleText(R.descriptionMax)
  eventDescription?: string;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', minLength: R.dateMin, maxLength: R.dateMax },
    minItems: 0,
    maxItems: R.datesMaxItems,
    description: `Replaces the stored dates as a whole (a merge patch replaces arrays). ${NOT_NULL}`,
    example: EVENT_EXAMPLE.dates,
  })
  @WhenPresent()
  @IsStringList({ maxItems: R.datesMaxItems, itemMin: R.dateMin, itemMax: R.dateMax })
  dates?: string[];

  @ApiPropertyOptional({
    type: Number,
    format: 'double',
    minimum: R.priceMin,
    maximum: R.priceMax,
    description: NOT_NULL,
    example: EVENT_EXAMPLE.price,
  })
  @WhenPresent()
  @IsFiniteNumberInRange(R.priceMin, R.priceMax)
  price?: number;
}
