import { applyDecorators } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, getSchemaPath } from '@nestjs/swagger';
import { ApiProblemResponses } from '../common/problem/api-problem-responses.js';
import { TicketResponse } from './dto/ticket-response.dto.js';
import { TICKET_PROBLEMS } from './tickets.problems.js';

/** The box office's ticket operations as the OpenAPI document describes them (BoxOfficeController). */

/**
 * Above @Idempotent(), so that its 409 (decorators apply bottom-up) gives way to this operation's,
 * which names every cause.
 */
export const ApiCancelTicket = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'cancelTicket',
      summary: 'Cancel a ticket',
      description:
        'Cancels an active ticket and gives its seat (an event ticket: the event sells one more) or its day’s general ' +
        'admission back in the same transaction, so it can be sold again. The answer is the ticket, now `cancelled`, ' +
        'with `refundDue`: what was paid, recorded as owed (the service takes no payment; someone pays it back). ' +
        'Cancelling a cancelled ticket again changes nothing and answers `200` with the ticket as it is, ' +
        '`refundDue` unchanged: a retry is safe. A checked-in ticket is refused (`409`). Of a cancel and a check-in ' +
        'at the same moment, the database lets exactly one through. No body.',
    }),
    ApiOkResponse({ description: 'Cancelled (now or before): the ticket, with `refundDue`.', type: TicketResponse }),
    ApiProblemResponses(
      400,
      401,
      TICKET_PROBLEMS.response(['no-ticket']),
      TICKET_PROBLEMS.response(
        ['cancel-checked-in'],
        'Or a request with the same Idempotency-Key is still being processed: retry shortly with the same key.',
      ),
      429,
      431,
      503,
    ),
  );

export const ApiSearchTickets = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'searchTickets',
      summary: 'Search tickets',
      description:
        'The tickets matching every filter given (`eventId`, `ticketDate`, `status`, `email` exact, `orderId`; none: every ' +
        'ticket), in the order of sale, as GET /tickets/{ticketId} shows them: `confirmationCode` and `email` only for ' +
        'box-office and up, and only they may search by `email` (a viewer gets `403`). A page has `limit` tickets ' +
        '(default 10, at most 100); a page with a next one carries `Link: <…>; rel="next"` with an opaque `cursor` ' +
        '(keyset paging: every page costs the same). An unknown parameter is a `400` naming it. With ' +
        '`Accept: text/csv` the same filters stream every matching ticket as CSV (RFC 4180, a header line, CRLF), ' +
        'without `limit` or `cursor`, in bounded memory; the columns are those of the JSON (`category` empty for a ' +
        'ticket without one), without `email` and `confirmationCode` for a viewer. Additive: the Museum API has no ' +
        'such operation.',
    }),
    ApiProduces('application/json', 'text/csv'),
    ApiOkResponse({
      description: 'The page of tickets (an empty array past the last one), or with `Accept: text/csv` every match.',
      content: {
        'application/json': { schema: { type: 'array', items: { $ref: getSchemaPath(TicketResponse) } } },
        'text/csv': {
          schema: { type: 'string' },
          example:
            'ticketId,ticketType,ticketDate,eventId,email,category,price,confirmationCode,status,createdAt,checkedInAt,' +
            'cancelledAt,refundDue\r\n',
        },
      },
      headers: {
        Link: {
          description:
            'RFC 8288 `<…>; rel="next"`: the next page, by cursor; absent on the last page and on a CSV export.',
          required: false,
          schema: { type: 'string' },
        },
      },
    }),
    ApiProblemResponses(400, 401, TICKET_PROBLEMS.response(['search-by-email']), 429, 431, 503),
  );
