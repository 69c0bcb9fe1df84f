import { Body, Controller, Get, Header, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { AuthenticatedUser } from '../auth/basic.strategy.js';
import { clientAddress } from '../auth/basic.strategy.js';
import { RequiresRole } from '../auth/roles.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { ApiCancelTicket, ApiSearchTickets } from './box-office.openapi.js';
import { BoxOfficeService, type TicketPage } from './box-office.service.js';
import { SearchTicketsQuery } from './dto/search-tickets-query.dto.js';
import { sendCsv } from './ticket-csv-response.js';
import { BuyTicketsDto } from './dto/buy-tickets.dto.js';
import { CheckInDto } from './dto/check-in.dto.js';
import { TicketIdParams } from './dto/ticket-id-params.dto.js';
import type { TicketConfirmationResponse, TicketResponse } from './dto/ticket-response.dto.js';
import {
  ApiBuyTickets,
  ApiCheckInTicket,
  ApiCheckInTicketCode,
  ApiGetTicket,
  ApiGetTicketCode,
} from './tickets.openapi.js';
import {
  pageRowToResponse,
  READS_TICKET_SECRETS,
  seesSecrets,
  toConfirmation,
  toResponse,
} from './tickets.responses.js';
import { TicketsService } from './tickets.service.js';

/** Tickets carry the code that admits their holder (and the buyer's email): no cache keeps them. */
const NO_STORE = 'no-store';

@ApiTags('Tickets')
@Controller('tickets')
export class TicketsController {
  constructor(
    private readonly tickets: TicketsService,
    private readonly boxOffice: BoxOfficeService,
  ) {}

  @Post()
  @RequiresRole('box-office')
  @HttpCode(201)
  @Header('Cache-Control', NO_STORE)
  @ApiBuyTickets()
  @Idempotent()
  async buy(
    @Body() body: BuyTicketsDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<TicketConfirmationResponse> {
    const sale = await this.tickets.buy(body);
    response.location(`/tickets/${sale.ticketId}`);
    return toConfirmation(sale);
  }

  @Get()
  @RequiresRole('viewer')
  @ApiSearchTickets()
  async search(
    @Query() query: SearchTicketsQuery,
    @Req() request: Request & { user?: AuthenticatedUser },
    @Res() response: Response,
  ): Promise<void> {
    const withSecrets = seesSecrets(request.user?.role ?? 'viewer');
    response.setHeader('Cache-Control', NO_STORE);
    if (request.accepts(['application/json', 'text/csv']) === 'text/csv') {
      const batches = this.boxOffice.exportBatches(query, withSecrets);
      await sendCsv(response, batches, withSecrets, 'tickets.csv');
      return;
    }
    const page = await this.boxOffice.search(query, withSecrets);
    if (page.nextCursor !== undefined)
      response.setHeader('Link', `<${nextPageLink(page, page.nextCursor)}>; rel="next"`);
    response.json(page.tickets.map((row) => pageRowToResponse(row, withSecrets)));
  }

  @Get(':ticketId')
  @RequiresRole('viewer')
  @Header('Cache-Control', NO_STORE)
  @ApiGetTicket()
  async get(
    @Param() { ticketId }: TicketIdParams,
    @Req() request: Request & { user?: AuthenticatedUser },
  ): Promise<TicketResponse> {
    return toResponse(await this.tickets.get(ticketId), seesSecrets(request.user?.role ?? 'viewer'));
  }

  @Get(':ticketId/qr')
  @RequiresRole(READS_TICKET_SECRETS)
  @ApiGetTicketCode()
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
  @ApiCheckInTicket()
  async checkIn(@Param() { ticketId }: TicketIdParams): Promise<TicketResponse> {
    return toResponse(await this.tickets.checkIn(ticketId));
  }

  @Post(':ticketId/cancel')
  @RequiresRole('box-office')
  @HttpCode(200)
  @Header('Cache-Control', NO_STORE)
  @ApiCancelTicket()
  @Idempotent()
  async cancel(@Param() { ticketId }: TicketIdParams): Promise<TicketResponse> {
    return toResponse(await this.boxOffice.cancel(ticketId));
  }
}

/** The next page's link, relative to the service (RFC 8288 resolves it against the request). */
function nextPageLink(page: TicketPage, cursor: string): string {
  const parameters = new URLSearchParams();
  for (const [name, value] of Object.entries(page.filters)) parameters.set(name, value as string);
  parameters.set('limit', String(page.limit));
  parameters.set('cursor', cursor);
  return `/tickets?${parameters.toString()}`;
}

/** `POST /check-ins`: a door scanner has only what it scanned. */
@ApiTags('Tickets')
@Controller('check-ins')
export class CheckInsController {
  constructor(
    private readonly tickets: TicketsService,
    private readonly boxOffice: BoxOfficeService,
  ) {}

  @Post()
  @RequiresRole('box-office')
  @HttpCode(200)
  @Header('Cache-Control', NO_STORE)
  @ApiCheckInTicketCode()
  async checkIn(
    @Body() { code }: CheckInDto,
    @Req() request: Request & { user?: AuthenticatedUser },
  ): Promise<TicketResponse> {
    return toResponse(await this.tickets.checkInByCode(code, clientAddress(request), request.user?.username ?? ''));
  }
}
