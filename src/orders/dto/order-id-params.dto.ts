import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsRfc9562Uuid } from '../../common/validation/validators.js';

/** The `{orderId}` path parameter: a UUID, any letter case. */
export class OrderIdParams {
  @ApiProperty({
    format: 'uuid',
    description: 'Identifier of an order, as POST /orders returned it. Letter case does not matter.',
    example: '0196a8f4-6e2b-7c3d-9e4f-5a6b7c8d9e0f',
  })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toLowerCase() : value))
  @IsRfc9562Uuid()
  orderId: string;
}
