import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TicketResponse } from '../../tickets/dto/ticket-response.dto.js';

export const ORDER_STATUSES = ['placed', 'partly-cancelled', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** A ticket of an order: a ticket as GET /tickets/{ticketId} answers it, with its price category. */
export class OrderTicketResponse extends TicketResponse {
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The price category the ticket was sold in; null: none (the price of a ticket with no category).',
    example: null,
  })
  override category: string | null = null;
}

/** An order as POST /orders, GET /orders/{orderId} and its cancel answer it. */
export class OrderResponse {
  @ApiProperty({ format: 'uuid', description: 'Generated when placed (a UUIDv7).' })
  orderId: string;

  @ApiPropertyOptional({
    type: String,
    format: 'email',
    description: "The buyer's address. Only for box-office and up: absent for a viewer.",
  })
  email?: string;

  @ApiProperty({
    enum: ORDER_STATUSES,
    description:
      '`placed` while none of its tickets is cancelled, `cancelled` once all are, `partly-cancelled` in between ' +
      '(a ticket cancelled on its own, or its event deleted).',
  })
  status: OrderStatus;

  @ApiProperty({ type: Number, description: 'What its tickets cost together when sold.', example: 40 })
  total: number;

  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      "What the buyer is owed for the order's cancelled tickets (each ticket's refundDue, added up); null while " +
      'none is cancelled. The service takes no payment: someone pays this back.',
    example: null,
  })
  refundDue: number | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: [OrderTicketResponse], description: 'Its tickets, in the order of its lines.' })
  tickets: OrderTicketResponse[];
}
