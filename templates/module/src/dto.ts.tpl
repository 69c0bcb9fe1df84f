import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsRfc9562Uuid, IsVisibleText } from '../../common/validation/validators.js';

/** The `{{{singularCamel}}Id}` path parameter: a UUID, any letter case. */
export class {{Singular}}IdParams {
  @ApiProperty({
    format: 'uuid',
    description: 'Identifier of {{a}} {{singularWords}}, chosen by the client that stores it. Letter case does not matter.',
    example: '0196a8f4-6e2b-7c3d-9e4f-5a6b7c8d9e0f',
  })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toLowerCase() : value))
  @IsRfc9562Uuid()
  {{singularCamel}}Id: string;
}

/** The body of PUT /{{plural}}/{{{singularCamel}}Id}. */
export class Store{{Singular}}Dto {
  @ApiProperty({ minLength: 1, maxLength: 200, example: 'Friends of the museum' })
  @IsVisibleText(200)
  name: string;
}

/** {{A}} {{singularWords}} as answered. */
export class {{Singular}}Response {
  @ApiProperty({ format: 'uuid', example: '0196a8f4-6e2b-7c3d-9e4f-5a6b7c8d9e0f' })
  {{singularCamel}}Id: string;

  @ApiProperty({ minLength: 1, maxLength: 200, example: 'Friends of the museum' })
  name: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-28T10:00:00.000Z' })
  updatedAt: string;
}
