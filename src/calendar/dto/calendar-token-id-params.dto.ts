import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsRfc9562Uuid } from '../../common/validation/validators.js';

/** The `{tokenId}` path parameter: any RFC 9562 UUID, any letter case. */
export class CalendarTokenIdParams {
  @ApiProperty({
    format: 'uuid',
    description: 'Letter case does not matter.',
    example: '3f0c5a8e-2b7d-4c1e-9a6f-0d4b8e2c7a15',
  })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toLowerCase() : value))
  @IsRfc9562Uuid()
  tokenId: string;
}
