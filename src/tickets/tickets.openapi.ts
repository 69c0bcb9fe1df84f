import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiProduces } from '@nestjs/swagger';
import { ApiProblemResponses } from '../common/problem/api-problem-responses.js';
import { BUY_TICKETS_EXAMPLES, BuyTicketsDto } from './dto/buy-tickets.dto.js';
import { CheckInDto } from './dto/check-in.dto.js';
import { TicketConfirmationResponse, TicketResponse } from './dto/ticket-response.dto.js';
import { TICKET_PROBLEMS } from './tickets.problems.js';

/** The tickets module's operations as the OpenAPI document describes them; the controllers hold the routes. */

/** The 409s of a check-in, one problem type each, so that a door app can tell them apart. */
const CHECK_IN_CONFLICT = TICKET_PROBLEMS.response([
  'already-checked-in',
  'not-for-today',
  'too-early',
  'entry-closed',
  'cancelled',
]);

const CHECKED_IN = { description: 'Checked in: the ticket, with `checkedInAt`.', type: TicketResponse };

/**
 * Above @Idempotent(), so that its 409 and 422 (decorators apply bottom-up) give way to this
 * operation's, which name every cause of each.
 */
export const ApiBuyTickets = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'buyMuseumTickets',
      summary: 'Buy museum tickets',
      description:
        'Purchase museum tickets for general entry or special events. An event ticket takes a seat of the event on ' +
        "one of its ISO dates, within its `capacity`; a general ticket a day's general admission, on a day the museum " +
        "is open, within the day's `capacity`. The seat and the ticket are written in one transaction, so concurrent " +
        'purchases never sell more than the capacity. On a date with sessions (date items YYYY-MM-DDTHH:MM) an event ' +
        "ticket is for the session `ticketTime` names, within the event's capacityPerDate for that session. " +
        "The ticket keeps the price paid: the event's price at the moment " +
        'of purchase, or GENERAL_ADMISSION_PRICE. No date before today in the museum time zone (MUSEUM_TIME_ZONE).',
    }),
    ApiConsumes('application/json'),
    ApiBody({ type: BuyTicketsDto, examples: BUY_TICKETS_EXAMPLES }),
    ApiCreatedResponse({
      description: 'Created: the Museum API confirmation, with the confirmation code that the QR code holds.',
      type: TicketConfirmationResponse,
      headers: {
        Location: {
          description: 'Path of the new ticket: /tickets/{ticketId}',
          required: true,
          schema: { type: 'string' },
        },
        'Idempotent-Replayed': {
          description:
            'Sent as `true` when this is the kept response of an earlier request with the same Idempotency-Key.',
          required: false,
          schema: { type: 'string', enum: ['true'] },
        },
      },
    }),
    ApiProblemResponses(
      400,
      401,
      TICKET_PROBLEMS.response(['no-event']),
      TICKET_PROBLEMS.response(
        ['event-sold-out', 'event-date-sold-out', 'admission-sold-out'],
        'Or a request with the same Idempotency-Key is still being processed: retry shortly with the same key.',
      ),
      413,
      415,
      TICKET_PROBLEMS.response(
        ['not-an-event-date', 'museum-closed'],
        'Or this Idempotency-Key was already used by this user for a different request.',
      ),
      429,
      431,
      503,
    ),
  );

export const ApiGetTicket = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'getTicket',
      summary: 'Get a ticket',
      description:
        'The ticket as sold, with what was paid and its `status`: `active`, `checked-in` (and when) or `cancelled` ' +
        '(and when, and `refundDue`: at the box office, or its event was deleted). `confirmationCode` and `email` ' +
        'only for box-office and up: a viewer gets the ticket without them. Additive: the Museum API has no such ' +
        'operation.',
    }),
    ApiOkResponse({ description: 'The ticket.', type: TicketResponse }),
    ApiProblemResponses(400, 401, TICKET_PROBLEMS.response(['no-ticket']), 429, 431, 503),
  );

export const ApiGetTicketCode = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'getTicketCode',
      summary: 'Get ticket QR code',
      description:
        'Return an image of your ticket with scannable QR code. Used for event entry. The QR code holds the ' +
        "ticket's confirmation code as plain text (not a URL): a door app sends it to POST /check-ins. For " +
        'box-office and up, since the code admits the ticket holder.',
    }),
    ApiProduces('image/png'),
    ApiOkResponse({
      description: 'Scannable event ticket in image format (PNG).',
      content: { 'image/png': { schema: { type: 'string', format: 'binary' } } },
    }),
    ApiProblemResponses(400, 401, TICKET_PROBLEMS.response(['no-ticket']), 429, 431, 503),
  );

export const ApiCheckInTicket = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'checkInTicket',
      summary: 'Check a ticket in at the door',
      description:
        "The first check-in of an active ticket on its date (today in the museum's time zone, MUSEUM_TIME_ZONE) is a " +
        '200 with the ticket, now `checked-in`; the database decides, so of two simultaneous scans exactly one ' +
        'succeeds. A ticket with a `ticketTime` (a slot, an event session) is admitted from ENTRY_EARLY_MINUTES before ' +
        "it until the day's close (general) or the session's end (an event with durationMinutes), else until the " +
        "day's end. No body.",
    }),
    ApiOkResponse(CHECKED_IN),
    ApiProblemResponses(400, 401, TICKET_PROBLEMS.response(['no-ticket']), CHECK_IN_CONFLICT, 429, 431, 503),
  );

export const ApiCheckInTicketCode = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'checkInTicketCode',
      summary: "Check a ticket in from its QR code's text",
      description:
        'What a door app sends: the text it scanned (the confirmation code), with the same rules as ' +
        'POST /tickets/{ticketId}/check-in. An unknown code is a 404 and counts as a failed attempt for this user ' +
        'from this address, with the limits of wrong passwords (AUTH_FAILURE_LIMIT…): guessing codes meets a 429.',
    }),
    ApiConsumes('application/json'),
    ApiBody({ type: CheckInDto }),
    ApiOkResponse(CHECKED_IN),
    ApiProblemResponses(
      400,
      401,
      TICKET_PROBLEMS.response(['unknown-code']),
      CHECK_IN_CONFLICT,
      413,
      415,
      TICKET_PROBLEMS.response(['too-many-unknown-codes']),
      431,
      503,
    ),
  );
