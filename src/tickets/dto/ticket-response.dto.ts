import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TICKET_STATUSES, TICKET_TYPES, type TicketStatus, type TicketType } from '../ticket.entity.js';

const CODE_DESCRIPTION =
  'Unique confirmation code that verifies the purchase: what the QR code (getTicketCode) holds, and what a door ' +
  'scanner sends to POST /check-ins. `ticket-` and 128 random bits; keep it like a password.';

const CATEGORY_DESCRIPTION =
  'The price category the ticket was bought in (an addition to the Museum API); absent for a ticket bought with none.';

/** The answer to POST /tickets: the Museum API's MuseumTicketsConfirmation. */
export class TicketConfirmationResponse {
  @ApiProperty({ type: String, example: 'Museum special event ticket purchased' })
  message: string;

  @ApiProperty({
    format: 'uuid',
    description: 'Unique identifier for the ticket. Generated when purchased (a UUIDv7).',
  })
  ticketId: string;

  @ApiProperty({ enum: TICKET_TYPES, example: 'event' })
  ticketType: TicketType;

  @ApiProperty({ type: String, format: 'date', description: 'Date when this ticket can be used for museum entry.' })
  ticketDate: string;

  @ApiPropertyOptional({
    type: String,
    description:
      "The time the ticket admits from (`HH:MM`, the museum's time zone): its general-admission slot, or its " +
      'event session. Entry opens ENTRY_EARLY_MINUTES before it. Absent: the whole day.',
    example: '10:30',
  })
  ticketTime?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'The special event; only on an event ticket.' })
  eventId?: string;

  @ApiPropertyOptional({ type: String, description: CATEGORY_DESCRIPTION, example: 'adult' })
  category?: string;

  @ApiProperty({ type: String, description: CODE_DESCRIPTION, example: 'ticket-3q2-7wVk9mRr1bXoYl0Tfg' })
  confirmationCode: string;
}

/** A ticket as GET /tickets/{ticketId} and the check-ins return it. */
export class TicketResponse {
  @ApiProperty({ format: 'uuid' })
  ticketId: string;

  @ApiProperty({ enum: TICKET_TYPES, example: 'event' })
  ticketType: TicketType;

  @ApiProperty({ type: String, format: 'date' })
  ticketDate: string;

  @ApiPropertyOptional({
    type: String,
    description:
      "The time the ticket admits from (`HH:MM`, the museum's time zone): its general-admission slot, or its " +
      'event session. Entry opens ENTRY_EARLY_MINUTES before it. Absent: the whole day.',
    example: '10:30',
  })
  ticketTime?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'The special event; only on an event ticket.' })
  eventId?: string;

  @ApiPropertyOptional({
    type: String,
    format: 'email',
    nullable: true,
    description: "The buyer's address, when one was given. Only for box-office and up: absent for a viewer.",
  })
  email?: string | null;

  // Typed to admit null so that an order's ticket (OrderTicketResponse) may say null for none;
  // a ticket read leaves the key out instead.
  @ApiPropertyOptional({ type: String, description: CATEGORY_DESCRIPTION, example: 'adult' })
  category?: string | null;

  @ApiProperty({
    type: Number,
    description:
      "What was paid, at the moment of purchase: the event's price, or GENERAL_ADMISSION_PRICE, or the price of the " +
      "ticket's category. A later change of prices leaves it as it is.",
    example: 25,
  })
  price: number;

  @ApiPropertyOptional({
    type: String,
    description: `${CODE_DESCRIPTION} Only for box-office and up: absent for a viewer.`,
  })
  confirmationCode?: string;

  @ApiProperty({
    enum: TICKET_STATUSES,
    description:
      '`active` until it is checked in at the door (`checked-in`), or cancelled for good (`cancelled`): at the box ' +
      '(POST /tickets/{ticketId}/cancel) or because its event was deleted.',
  })
  status: TicketStatus;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When it was checked in.' })
  checkedInAt: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When it was cancelled (at the box office, or its event was deleted).',
  })
  cancelledAt: string | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      'What the buyer is owed for the cancellation, recorded with it: what was paid for a ticket cancelled while ' +
      'active, 0 for a checked-in ticket whose event was deleted. null while the ticket is not cancelled. The service ' +
      'takes no payment: someone pays this back.',
    example: null,
  })
  refundDue: number | null;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'The order the ticket was sold in (POST /orders); absent for a ticket bought alone.',
  })
  orderId?: string;
}
