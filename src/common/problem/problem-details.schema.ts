import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

class FieldErrorSchema {
  @ApiProperty({ example: 'price' })
  field: string;

  @ApiProperty({ example: 'price must be a finite JSON number' })
  message: string;
}

/** RFC 9457 problem details (documentation only; see ProblemException). */
export class ProblemDetailsSchema {
  @ApiProperty({
    description: '`about:blank` when the status code says it all; `urn:museum:problem:validation` for invalid input.',
    example: 'urn:museum:problem:validation',
  })
  type: string;

  @ApiProperty({ description: 'The HTTP reason phrase of the status.', example: 'Bad Request' })
  title: string;

  @ApiProperty({ example: 400 })
  status: number;

  @ApiProperty({ example: 'The request is invalid: check price.' })
  detail: string;

  @ApiProperty({ description: 'The path of the request.', example: '/special-events' })
  instance: string;

  @ApiPropertyOptional({ type: [FieldErrorSchema], description: 'Every failing field (validation errors only).' })
  errors?: FieldErrorSchema[];

  @ApiPropertyOptional({
    type: Number,
    description: "The index in `lines` (from 0) of an order's line that could not be served (POST /orders only).",
    example: 1,
  })
  line?: number;
}
