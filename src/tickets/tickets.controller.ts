import { Body, Controller, Get, Header, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { AuthenticatedUser } from '../auth/basic.strategy.js';
import { clientAddress } from '../auth/basic.strategy.js';
import { RequiresRole } from '../auth/roles.js';
import { ApiProblemResponses, type ProblemResponse } from '../common/problem/api-problem-responses.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { BUY_TICKETS_EXAMPLES, BuyTicketsDto } from './dto/buy-tickets.dto.js';
import { CheckInDto } from './dto/check-in.dto.js';
import { TicketIdParams } from './dto/ticket-id-params.dto.js';
import { TicketConfirmationResponse, TicketResponse } from './dto/ticket-response.dto.js';
import { READS_TICKET_SECRETS, TicketsService } from './tickets.service.js';

/** Tickets carry the code that admits their holder (and the buyer's email): no cache keeps them. */
const NO_STORE = 'no-store';

/** The 409s of a check-in, one problem type each, so that a door app can tell them apart. */
const CHECK_IN_CONFLICT: ProblemResponse = {
  status: 409,
  description:
    'The ticket cannot be checked in: it was checked in already (`urn:museum:problem:ticket-already-checked-in`, ' +
    'the detail says when), it is for another day than today in the museum time zone ' +
    '(`urn:museum:problem:ticket-not-for-today`), or it was cancelled because its event was deleted ' +
    '(`urn:museum:problem:ticket-cancelled`).',
  detail: 'This ticket was already checked in: its first check-in was 2026-12-01T09:14:03.120Z.',
};

@ApiTags('Tickets')
@Controller('tickets')
export class TicketsController {
  constructor(private readonly tickets: TicketsService) {}

  @Post()
  @RequiresRole('box-office')
  @HttpCode(201)
  @Header('Cache-Control', NO_STORE)
  // Above @Idempotent(), so that they replace its 409 and 422 (decorators apply bottom-up) with this
  // operation's words, which name both causes of each.
  @ApiProblemResponses(
    {
      status: 409,
      description:
        "Sold out (`urn:museum:problem:sold-out`): the event, or the day's general admission, has no ticket left. " +
        'Or a request with the same Idempotency-Key is still being processed: retry shortly with the same key.',
      detail: 'This event is sold out: all 100 of its tickets are sold.',
    },
    {
      status: 422,
      description:
        "`ticketDate` is not one of the event's ISO dates (`urn:museum:problem:not-an-event-date`), or the museum is " +
        'closed that day (`urn:museum:problem:museum-closed`; for an event ticket, closed by an exception); or this ' +
        'Idempotency-Key was already used by this user ' +
        'for a different request.',
      detail: '2026-12-03 is not a date of this event; its dates are 2026-12-01, 2026-12-05.',
    },
  )
  @Idempotent()
  @ApiOperation({
    operationId: 'buyMuseumTickets',
    summary: 'Buy museum tickets',
    description:
      'Purchase museum tickets for general entry or special events. An event ticket takes a seat of the event on ' +
      "one of its ISO dates, within its `capacity`; a general ticket a day's general admission, on a day the museum " +
      "is open, within the day's `capacity`. The seat and the ticket are written in one transaction, so concurrent " +
      "purchases never sell more than the capacity. The ticket keeps the price paid: the event's price at the moment " +
      'of purchase, or GENERAL_ADMISSION_PRICE. No date before today in the museum time zone (MUSEUM_TIME_ZONE).',
  })
  @ApiConsumes('application/json')
  @ApiBody({ type: BuyTicketsDto, examples: BUY_TICKETS_EXAMPLES })
  @ApiCreatedResponse({
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
  })
  @ApiProblemResponses(
    400,
    401,
    { status: 404, description: 'No special event has this eventId.' },
    413,
    415,
    429,
    431,
    503,
  )
  async buy(
    @Body() body: BuyTicketsDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<TicketConfirmationResponse> {
    const confirmation = await this.tickets.buy(body);
    response.location(`/tickets/${confirmation.ticketId}`);
    return confirmation;
  }

  @Get(':ticketId')
  @RequiresRole('viewer')
  @Header('Cache-Control', NO_STORE)
  @ApiOperation({
    operationId: 'getTicket',
    summary: 'Get a ticket',
    description:
      'The ticket as sold, with what was paid and its `status`: `active`, `checked-in` (and when) or `cancelled` ' +
      '(and when: its event was deleted). `confirmationCode` and `email` only for box-office and up: a viewer ' +
      'gets the ticket without them. Additive: the Museum API has no such operation.',
  })
  @ApiOkResponse({ description: 'The ticket.', type: TicketResponse })
  @ApiProblemResponses(400, 401, 404, 429, 431, 503)
  get(
    @Param() { ticketId }: TicketIdParams,
    @Req() request: Request & { user?: AuthenticatedUser },
  ): Promise<TicketResponse> {
    return this.tickets.get(ticketId, request.user?.role ?? 'viewer');
  }

  @Get(':ticketId/qr')
  @RequiresRole(READS_TICKET_SECRETS)
  @ApiOperation({
    operationId: 'getTicketCode',
    summary: 'Get ticket QR code',
    description:
      'Return an image of your ticket with scannable QR code. Used for event entry. The QR code holds the ' +
      "ticket's confirmation code as plain text (not a URL): a door app sends it to POST /check-ins. For " +
      'box-office and up, since the code admits the ticket holder.',
  })
  @ApiProduces('image/png')
  @ApiOkResponse({
    description: 'Scannable event ticket in image format (PNG).',
    content: { 'image/png': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiProblemResponses(400, 401, 404, 429, 431, 503)
  async qrCode(@Param() { ticketId }: TicketIdParams, @Res() response: Response): Promise<void> {
    const png = await this.tickets.qrCode(ticketId);
    // The code in it admits one person: kept by no cache, the caller's own included.
    response.setHeader('Cache-Control', NO_STORE);
    response.type('image/png').send(png);
  }

  @Post(':ticketId/check-in')
  @RequiresRole('box-office')
  @HttpCode(200)
  @Header('Cache-Control', NO_STORE)
  @ApiOperation({
    operationId: 'checkInTicket',
    summary: 'Check a ticket in at the door',
    description:
      "The first check-in of an active ticket on its date (today in the museum's time zone, MUSEUM_TIME_ZONE) is a " +
      '200 with the ticket, now `checked-in`; the database decides, so of two simultaneous scans exactly one ' +
      'succeeds. No body.',
  })
  @ApiOkResponse({ description: 'Checked in: the ticket, with `checkedInAt`.', type: TicketResponse })
  @ApiProblemResponses(400, 401, 404, CHECK_IN_CONFLICT, 429, 431, 503)
  checkIn(@Param() { ticketId }: TicketIdParams): Promise<TicketResponse> {
    return this.tickets.checkIn(ticketId);
  }
}

/** `POST /check-ins`: a door scanner has only what it scanned. */
@ApiTags('Tickets')
@Controller('check-ins')
export class CheckInsController {
  constructor(private readonly tickets: TicketsService) {}

  @Post()
  @RequiresRole('box-office')
  @HttpCode(200)
  @Header('Cache-Control', NO_STORE)
  @ApiOperation({
    operationId: 'checkInTicketCode',
    summary: "Check a ticket in from its QR code's text",
    description:
      'What a door app sends: the text it scanned (the confirmation code), with the same rules as ' +
      'POST /tickets/{ticketId}/check-in. An unknown code is a 404 and counts as a failed attempt for this user ' +
      'from this address, with the limits of wrong passwords (AUTH_FAILURE_LIMIT…): guessing codes meets a 429.',
  })
  @ApiConsumes('application/json')
  @ApiBody({ type: CheckInDto })
  @ApiOkResponse({ description: 'Checked in: the ticket, with `checkedInAt`.', type: TicketResponse })
  @ApiProblemResponses(
    400,
    401,
    { status: 404, description: 'No ticket has this confirmation code (counted by the failure limiter).' },
    CHECK_IN_CONFLICT,
    413,
    415,
    {
      status: 429,
      description:
        'Too many unknown codes (or wrong credentials) from this address for this user within the window; retry after.',
      detail: 'Too many unknown ticket codes from this address; try again later.',
    },
    431,
    503,
  )
  checkIn(
    @Body() { code }: CheckInDto,
    @Req() request: Request & { user?: AuthenticatedUser },
  ): Promise<TicketResponse> {
    return this.tickets.checkInByCode(code, clientAddress(request), request.user?.username ?? '');
  }
}
