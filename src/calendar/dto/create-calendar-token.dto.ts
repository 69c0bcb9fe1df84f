import { ApiPropertyOptional } from '@nestjs/swagger';
import { ValidateIf } from 'class-validator';
import { rule, textProblem } from '../../common/validation/validators.js';

export const TOKEN_DESCRIPTION_MAX = 200;

/** The body of POST /calendar-tokens. */
export class CreateCalendarTokenDto {
  @ApiPropertyOptional({
    type: String,
    maxLength: TOKEN_DESCRIPTION_MAX,
    description: 'What the token is for (whose calendar, which application); absent: empty. Up to 200 characters.',
    example: 'Front desk tablet',
  })
  @ValidateIf((_object, value) => value !== undefined)
  @rule('isTokenDescription', (value) => textProblem(value, TOKEN_DESCRIPTION_MAX, 0, false))
  description?: string;
}
