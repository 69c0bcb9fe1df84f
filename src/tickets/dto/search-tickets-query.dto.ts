import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ValidateIf } from 'class-validator';
import { isRfc9562Uuid, rule } from '../../common/validation/validators.js';
import { TICKET_STATUSES, type TicketStatus } from '../ticket.entity.js';
import { dateRule, emailRule, MAX_EMAIL_LENGTH } from './buy-tickets.dto.js';

/** A search page's size, as the special-events list's. */
export const SEARCH_LIMIT = { min: 1, max: 100, default: 10 } as const;

/** The longest cursor a Link header gives (a ticket id, a key id and a MAC), with room to spare. */
export const MAX_CURSOR_LENGTH = 200;

const DIGITS = /^[0-9]{1,9}$/;

/** A query value of digits only becomes a number; anything else stays as sent and fails the rule. */
const integer = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && DIGITS.test(value) ? Number(value) : value;

const lowerCase = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? value.toLowerCase() : value);

const present = (_object: object, value: unknown): boolean => value !== undefined;

/**
 * The query of GET /tickets: filters that all must hold (none: every ticket), a page size and the
 * cursor of a `next` link. Every parameter is optional; given once, it must be valid (a repeated
 * parameter is an array: 400), and an unknown one is a 400 naming it (StrictValidationPipe).
 */
export class SearchTicketsQuery {
  @ApiPropertyOptional({ type: String, format: 'uuid', description: 'Only tickets of this special event.' })
  @Transform(lowerCase)
  @ValidateIf(present)
  @rule('isTicketEventId', (value) =>
    isRfc9562Uuid(value) ? null : 'must be a UUID (RFC 9562), e.g. 0196a8f4-6e2b-7c3d-9e4f-5a6b7c8d9e0f',
  )
  eventId?: string;

  @ApiPropertyOptional({ type: String, format: 'date', description: 'Only tickets for this date (YYYY-MM-DD).' })
  @ValidateIf(present)
  @rule('isTicketDate', dateRule)
  ticketDate?: string;

  @ApiPropertyOptional({ enum: TICKET_STATUSES, description: 'Only tickets with this status.' })
  @ValidateIf(present)
  @rule('isTicketStatus', (value) =>
    typeof value === 'string' && (TICKET_STATUSES as readonly string[]).includes(value)
      ? null
      : `must be one of: ${TICKET_STATUSES.join(', ')}`,
  )
  status?: TicketStatus;

  @ApiPropertyOptional({
    type: String,
    format: 'email',
    maxLength: MAX_EMAIL_LENGTH,
    description:
      "Only tickets bought with exactly this address (as given at purchase, letter case included). The buyer's " +
      'address is for box-office and up: a viewer searching by it gets `403`.',
  })
  @ValidateIf(present)
  @rule('isTicketEmail', emailRule)
  email?: string;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    description: 'Only tickets sold in this order (POST /orders).',
  })
  @Transform(lowerCase)
  @ValidateIf(present)
  @rule('isTicketOrderId', (value) =>
    isRfc9562Uuid(value) ? null : 'must be a UUID (RFC 9562), e.g. 0196a8f4-6e2b-7c3d-9e4f-5a6b7c8d9e0f',
  )
  orderId?: string;

  @ApiPropertyOptional({
    type: Number,
    minimum: SEARCH_LIMIT.min,
    maximum: SEARCH_LIMIT.max,
    default: SEARCH_LIMIT.default,
    description: 'Number of tickets per page. Not with `Accept: text/csv`, which streams every match.',
    example: 20,
  })
  @Transform(integer)
  @ValidateIf(present)
  @rule('isLimit', (value) =>
    typeof value === 'number' && Number.isInteger(value) && value >= SEARCH_LIMIT.min && value <= SEARCH_LIMIT.max
      ? null
      : `must be a whole number from ${SEARCH_LIMIT.min} to ${SEARCH_LIMIT.max}`,
  )
  limit?: number;

  @ApiPropertyOptional({
    type: String,
    description:
      'Opaque position from the `Link: <…>; rel="next"` header of the previous page (keyset paging, in ticket ' +
      'order: every page costs the same). Valid only with the filters it was issued for. Not with ' +
      '`Accept: text/csv`.',
  })
  @ValidateIf(present)
  @rule('isCursor', (value) =>
    typeof value === 'string' && value.length > 0 && value.length <= MAX_CURSOR_LENGTH
      ? null
      : 'must be a cursor from a Link header',
  )
  cursor?: string;
}
