import { Body, Controller, Get, Header, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { AuthenticatedUser } from '../auth/basic.strategy.js';
import { clientAddress } from '../auth/basic.strategy.js';
import { RequiresRole } from '../auth/roles.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { ApiCancelTicket } from './box-office.openapi.js';
import { BoxOfficeService } from './box-office.service.js';
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
import { READS_TICKET_SECRETS, TicketsService } from './tickets.service.js';

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
    const confirmation = await this.tickets.buy(body);
    response.location(`/tickets/${confirmation.ticketId}`);
    return confirmation;
  }

  @Get(':ticketId')
  @RequiresRole('viewer')
  @Header('Cache-Control', NO_STORE)
  @ApiGetTicket()
  get(
    @Param() { ticketId }: TicketIdParams,
    @Req() request: Request & { user?: AuthenticatedUser },
  ): Promise<TicketResponse> {
    return this.tickets.get(ticketId, request.user?.role ?? 'viewer');
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
  checkIn(@Param() { ticketId }: TicketIdParams): Promise<TicketResponse> {
    return this.tickets.checkIn(ticketId);
  }

  @Post(':ticketId/cancel')
  @RequiresRole('box-office')
  @HttpCode(200)
  @Header('Cache-Control', NO_STORE)
  @ApiCancelTicket()
  @Idempotent()
  cancel(@Param() { ticketId }: TicketIdParams): Promise<TicketResponse> {
    return this.boxOffice.cancel(ticketId);
  }
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
  checkIn(
    @Body() { code }: CheckInDto,
    @Req() request: Request & { user?: AuthenticatedUser },
  ): Promise<TicketResponse> {
    return this.tickets.checkInByCode(code, clientAddress(request), request.user?.username ?? '');
  }
}
