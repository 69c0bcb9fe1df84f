import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { isRfc9562Uuid, rule } from '../../common/validation/validators.js';
import type { FieldRule } from '../../domain/refusal.js';
import { TIME_PATTERN } from '../../museum-hours/museum-days.js';
import type { BatchLine } from '../../tickets/ticket-batch.service.js';
import { dateRule, emailRule, MAX_EMAIL_LENGTH } from '../../tickets/dto/buy-tickets.dto.js';
import { TICKET_TYPES, type TicketType } from '../../tickets/ticket.entity.js';

/** Lines an order holds, and tickets a line asks for. */
export const ORDER_LINES = { min: 1, max: 20 } as const;
export const LINE_QUANTITY = { min: 1, max: 50 } as const;

/** One line of POST /orders: `quantity` tickets of one kind, for one date (and time). */
export class OrderLineDto {
  @ApiProperty({ enum: TICKET_TYPES, description: 'As POST /tickets: `general` or `event`.', example: 'event' })
  ticketType: TicketType;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    description: 'The special event. Required for an event line; must be absent for a general one.',
    example: '0196a8f4-6e2b-7c3d-9e4f-5a6b7c8d9e0f',
  })
  eventId?: string;

  @ApiProperty({
    type: String,
    format: 'date',
    description:
      "As POST /tickets: today or later, up to 366 days ahead; for an event line one of the event's ISO dates.",
    example: '2027-06-01',
  })
  ticketDate: string;

  @ApiPropertyOptional({
    type: String,
    pattern: '^([01]\\d|2[0-3]):([0-5]\\d)$',
    description: 'As POST /tickets: the slot of a general line on a day with time slots; not taken otherwise.',
    example: '14:00',
  })
  ticketTime?: string;

  @ApiPropertyOptional({
    type: String,
    description: "The price category of the line's tickets (`adult`, `child`): what prices them.",
    example: 'adult',
  })
  category?: string;

  @ApiProperty({
    type: Number,
    minimum: LINE_QUANTITY.min,
    maximum: LINE_QUANTITY.max,
    description: 'How many tickets of this line.',
    example: 2,
  })
  quantity: number;
}

/** The body of POST /orders. */
export class PlaceOrderDto {
  @ApiProperty({
    type: String,
    format: 'email',
    maxLength: MAX_EMAIL_LENGTH,
    description: "The buyer's address, kept with the order and each of its tickets.",
    example: 'museum-lover@example.com',
  })
  @rule('isOrderEmail', emailRule)
  email: string;

  @ApiProperty({
    type: [OrderLineDto],
    minItems: ORDER_LINES.min,
    maxItems: ORDER_LINES.max,
    description: 'What is bought: all of it, or nothing.',
  })
  @rule('isOrderLines', (value) =>
    Array.isArray(value) && value.length >= ORDER_LINES.min && value.length <= ORDER_LINES.max
      ? null
      : `must be an array of ${ORDER_LINES.min} to ${ORDER_LINES.max} lines` +
        (Array.isArray(value) ? ` (it has ${value.length})` : ''),
  )
  lines: unknown[];
}

const LINE_FIELDS = new Set(['ticketType', 'eventId', 'ticketDate', 'ticketTime', 'category', 'quantity']);

/** Why each line's field breaks its rule, each error naming `lines[i].field`; none: the lines as sold. */
export function orderLines(lines: readonly unknown[]): { errors: FieldRule[] } | { lines: BatchLine[] } {
  const errors: FieldRule[] = [];
  const valid: BatchLine[] = [];
  for (const [index, line] of lines.entries()) {
    const fail = (name: string, message: string) => errors.push({ field: `lines[${index}].${name}`, message });
    if (line === null || typeof line !== 'object' || Array.isArray(line)) {
      errors.push({ field: `lines[${index}]`, message: 'must be an object' });
      continue;
    }
    const fields = line as Record<string, unknown>;
    for (const key of Object.keys(fields)) if (!LINE_FIELDS.has(key)) fail(key, 'not a property of an order line');
    const { ticketType, eventId, ticketDate, ticketTime, category, quantity } = fields;
    if (typeof ticketType !== 'string' || !(TICKET_TYPES as readonly string[]).includes(ticketType)) {
      fail('ticketType', `must be one of: ${TICKET_TYPES.join(', ')}`);
    }
    if (eventId === undefined ? ticketType === 'event' : !isRfc9562Uuid(eventId)) {
      fail('eventId', eventId === undefined ? 'is required for an event line' : 'must be a UUID (RFC 9562)');
    }
    const dateProblem = dateRule(ticketDate);
    if (dateProblem !== null) fail('ticketDate', dateProblem);
    if (ticketTime !== undefined && (typeof ticketTime !== 'string' || !TIME_PATTERN.test(ticketTime))) {
      fail('ticketTime', 'must be a 24-hour time HH:MM from 00:00 to 23:59, e.g. 10:30');
    }
    if (category !== undefined && typeof category !== 'string') fail('category', 'must be a string');
    if (
      typeof quantity !== 'number' ||
      !Number.isInteger(quantity) ||
      quantity < LINE_QUANTITY.min ||
      quantity > LINE_QUANTITY.max
    ) {
      fail('quantity', `must be a whole number from ${LINE_QUANTITY.min} to ${LINE_QUANTITY.max}`);
    }
    valid.push({
      ticketType: ticketType as TicketType,
      ...(typeof eventId === 'string' ? { eventId: eventId.toLowerCase() } : {}),
      ticketDate: ticketDate as string,
      ...(ticketTime === undefined ? {} : { ticketTime: ticketTime as string }),
      ...(category === undefined ? {} : { category: category as string }),
      quantity: quantity as number,
    });
  }
  return errors.length > 0 ? { errors } : { lines: valid };
}

/** The request examples of POST /orders: the family at the box office. */
export const PLACE_ORDER_EXAMPLES = {
  family: {
    summary: 'Two adults and two children for the 14:00 slot',
    value: {
      email: 'museum-lover@example.com',
      lines: [
        { ticketType: 'general', ticketDate: '2027-06-01', ticketTime: '14:00', category: 'adult', quantity: 2 },
        { ticketType: 'general', ticketDate: '2027-06-01', ticketTime: '14:00', category: 'child', quantity: 2 },
      ],
    },
  },
};
