import { ApiProperty } from '@nestjs/swagger';
import { IsFiniteNumberInRange, IsVisibleText } from '../../src/common/validation/validators.js';

/** The body of PUT /exhibits/{exhibitId}, and the answer of its GETs. */
export class ExhibitDto {
  @ApiProperty({ minLength: 1, maxLength: 100, example: 'Sundial' })
  @IsVisibleText(100)
  title: string;

  @ApiProperty({ minimum: 1, maximum: 50, example: 3 })
  @IsFiniteNumberInRange(1, 50)
  room: number;
}
