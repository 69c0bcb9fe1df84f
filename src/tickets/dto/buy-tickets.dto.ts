import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { isEmail, ValidateIf } from 'class-validator';
import { isRfc9562Uuid, rule, textProblem } from '../../common/validation/validators.js';
import { isCalendarDate } from '../../domain/calendar-dates.js';
import { PRICE_LIST_RULES } from '../../domain/price-categories.js';
import { TIME_PATTERN } from '../../museum-hours/museum-days.js';
import { TICKET_TYPES, type TicketType } from '../ticket.entity.js';
import type { TicketPurchase } from '../tickets.types.js';

/** RFC 5321's limit on a path, the longest address a mail server accepts. */
export const MAX_EMAIL_LENGTH = 254;

const typeRule = (value: unknown): string | null =>
  typeof value === 'string' && (TICKET_TYPES as readonly string[]).includes(value)
    ? null
    : `must be one of: ${TICKET_TYPES.join(', ')}`;

export const dateRule = (value: unknown): string | null =>
  typeof value === 'string' && isCalendarDate(value) ? null : 'must be a date in the form YYYY-MM-DD, e.g. 2026-12-01';

export const emailRule = (value: unknown): string | null => {
  if (typeof value !== 'string') return 'must be a string';
  if (value.length > MAX_EMAIL_LENGTH) return `must be at most ${MAX_EMAIL_LENGTH} characters long`;
  return isEmail(value) ? null : 'must be an email address, e.g. museum-lover@example.com';
};

/**
 * The body of POST /tickets: the Museum API's BuyMuseumTickets. `eventId` is required for an
 * event ticket and refused for a general one (a general ticket with an event would be ambiguous:
 * which capacity, which price?).
 */
export class BuyTicketsDto implements TicketPurchase {
  @ApiProperty({
    enum: TICKET_TYPES,
    description: 'Type of ticket being purchased: `general` for regular museum entry, `event` for a special event.',
    example: 'general',
  })
  @rule('isTicketType', typeRule)
  ticketType: TicketType;

  @ApiProperty({
    type: String,
    format: 'date',
    description:
      'Date when this ticket can be used for museum entry: today or later in the museum time zone (MUSEUM_TIME_ZONE). ' +
      "For an event ticket, one of the event's ISO dates; for a general ticket, a day the museum is open.",
    example: '2027-06-01',
  })
  @rule('isTicketDate', dateRule)
  ticketDate: string;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    description: 'The special event. Required for an event ticket; must be absent for a general one.',
    example: '0196a8f4-6e2b-7c3d-9e4f-5a6b7c8d9e0f',
  })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toLowerCase() : value))
  @ValidateIf((body: BuyTicketsDto, value) => body.ticketType === 'event' || value !== undefined)
  @rule('isTicketEventId', (value) => eventIdProblem(value))
  eventId?: string;

  @ApiPropertyOptional({
    type: String,
    format: 'email',
    maxLength: MAX_EMAIL_LENGTH,
    description: "Email address for the ticket's purchaser. Kept with the ticket.",
    example: 'museum-lover@example.com',
  })
  @ValidateIf((_body, value) => value !== undefined)
  @rule('isTicketEmail', emailRule)
  email?: string;

  @ApiPropertyOptional({
    type: String,
    pattern: '^([01]\\d|2[0-3]):([0-5]\\d)$',
    description:
      "The time the ticket admits from, 24-hour `HH:MM` in the museum's time zone. For a general ticket on a day " +
      'with time slots, required: one of its slots (GET /museum-hours/{date}/slots); on a day without slots, ' +
      "refused. For an event ticket, the session: one of the event's date items `YYYY-MM-DDTHH:MM` on " +
      '`ticketDate`; required when the event has several sessions that day, optional when it has one (the ticket ' +
      'takes its time), refused when it has none.',
    example: '10:30',
  })
  @ValidateIf((_body, value) => value !== undefined)
  @rule('isTicketTime', (value) =>
    typeof value === 'string' && TIME_PATTERN.test(value)
      ? null
      : 'must be a 24-hour time HH:MM from 00:00 to 23:59, e.g. 10:30',
  )
  ticketTime?: string;

  @ApiPropertyOptional({
    type: String,
    minLength: PRICE_LIST_RULES.categoryMin,
    maxLength: PRICE_LIST_RULES.categoryMax,
    description:
      "The price category (an addition to the Museum API): one of the event's `prices` for an event ticket, one of " +
      'GET /admission-prices for a general one, compared exactly; the ticket keeps it and its price at the moment ' +
      "of purchase. Absent: the base price (the event's `price`, or GENERAL_ADMISSION_PRICE). An unknown category " +
      'is a 400 naming the valid ones.',
    example: 'adult',
  })
  @ValidateIf((_body, value) => value !== undefined)
  @rule('isTicketCategory', (value) =>
    textProblem(value, PRICE_LIST_RULES.categoryMax, PRICE_LIST_RULES.categoryMin, false),
  )
  category?: string;
}

/** Checked with the type in view: the message says why, for either kind of ticket. */
function eventIdProblem(value: unknown): string | null {
  if (value === undefined) return 'is required';
  if (!isRfc9562Uuid(value)) return 'must be a UUID (RFC 9562), e.g. 0196a8f4-6e2b-7c3d-9e4f-5a6b7c8d9e0f';
  return null;
}

/**
 * The request examples of POST /tickets, the first being what "Try it out" sends: a general
 * ticket needs no event to exist, only an open day (an editor sets the week first).
 */
export const BUY_TICKETS_EXAMPLES = {
  general: {
    summary: 'General admission',
    value: { ticketType: 'general', ticketDate: '2027-06-01', email: 'museum-lover@example.com' },
  },
  event: {
    summary: 'A special event (put the eventId of an event with this date)',
    value: {
      ticketType: 'event',
      ticketDate: '2027-06-01',
      eventId: '0196a8f4-6e2b-7c3d-9e4f-5a6b7c8d9e0f',
      email: 'museum-lover@example.com',
    },
  },
};
