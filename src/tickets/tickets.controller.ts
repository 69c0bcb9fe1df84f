import { Body, Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { AuthenticatedUser } from '../auth/basic.strategy.js';
import { clientAddress } from '../auth/basic.strategy.js';
import { RequiresRole } from '../auth/roles.js';
import { ApiProblemResponses, type ProblemResponse } from '../common/problem/api-problem-responses.js';
import { CheckInDto } from './dto/check-in.dto.js';
import { TicketIdParams } from './dto/ticket-id-params.dto.js';
import { TicketResponse } from './dto/ticket-response.dto.js';
import { TicketsService } from './tickets.service.js';

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

  @Get(':ticketId')
  @RequiresRole('viewer')
  @ApiOperation({
    operationId: 'getTicket',
    summary: 'Get a ticket',
    description:
      'The ticket as sold, with what was paid and its `status`: `active`, `checked-in` (and when) or `cancelled` ' +
      '(and when: its event was deleted). Additive: the Museum API has no such operation.',
  })
  @ApiOkResponse({ description: 'The ticket.', type: TicketResponse })
  @ApiProblemResponses(400, 401, 404, 429, 431, 503)
  get(@Param() { ticketId }: TicketIdParams): Promise<TicketResponse> {
    return this.tickets.get(ticketId);
  }

  @Get(':ticketId/qr')
  @RequiresRole('viewer')
  @ApiOperation({
    operationId: 'getTicketCode',
    summary: 'Get ticket QR code',
    description:
      'Return an image of your ticket with scannable QR code. Used for event entry. The QR code holds the ' +
      "ticket's confirmation code as plain text (not a URL): a door app sends it to POST /check-ins.",
  })
  @ApiProduces('image/png')
  @ApiOkResponse({
    description: 'Scannable event ticket in image format (PNG).',
    content: { 'image/png': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiProblemResponses(400, 401, 404, 429, 431, 503)
  async qrCode(@Param() { ticketId }: TicketIdParams, @Res() response: Response): Promise<void> {
    const png = await this.tickets.qrCode(ticketId);
    // The code in it admits one person: kept by the ticket holder's device only.
    response.setHeader('Cache-Control', 'private');
    response.type('image/png').send(png);
  }

  @Post(':ticketId/check-in')
  @RequiresRole('box-office')
  @HttpCode(200)
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
