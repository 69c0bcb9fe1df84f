import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsRfc9562Uuid } from '../../common/validation/validators.js';
import { EVENT_EXAMPLE } from '../special-event.rules.js';

/** The `{eventId}` path parameter: any RFC 9562 UUID, any letter case. */
export class EventIdParams {
  @ApiProperty({ format: 'uuid', description: 'Letter case does not matter.', example: EVENT_EXAMPLE.eventId })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toLowerCase() : value))
  @IsRfc9562Uuid()
  eventId: string;
}
