import { ApiProperty } from '@nestjs/swagger';
import { rule } from '../../common/validation/validators.js';
import { isConfirmationCode } from '../confirmation-code.js';

/** The body of POST /check-ins: what the door scanner read from the QR code, as it is. */
export class CheckInDto {
  @ApiProperty({
    type: String,
    description: "The QR code's text: the ticket's confirmation code.",
    example: 'ticket-3q2-7wVk9mRr1bXoYl0Tfg',
  })
  @rule('isConfirmationCode', (value) =>
    isConfirmationCode(value) ? null : 'must be a confirmation code as the QR code holds it: ticket- and 22 characters',
  )
  code: string;
}
