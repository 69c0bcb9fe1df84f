import { Injectable } from '@nestjs/common';
import { uuidv7 } from '../domain/time-ordered-ids.js';
import { GuessGate } from '../auth/guess-gate.js';
import { type Role, roleAllows } from '../auth/roles.js';
import type { AppConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/config.module.js';
import { MuseumClock } from '../domain/museum-clock.js';
import { indexedDates } from '../domain/calendar-dates.js';
import type { SqlStatement } from '../database/sql.js';
import { MuseumHoursService } from '../museum-hours/museum-hours.service.js';
import { TimeSlotsService } from '../museum-hours/time-slots.service.js';
import { SpecialEventRefusal } from '../special-events/special-events.refusals.js';
import { SpecialEventsService } from '../special-events/special-events.service.js';
import { newConfirmationCode } from './confirmation-code.js';
import { generalRefusal } from './general-admission.js';
import type { BuyTicketsDto } from './dto/buy-tickets.dto.js';
import type { TicketConfirmationResponse, TicketResponse } from './dto/ticket-response.dto.js';
import type { Ticket } from './ticket.entity.js';
import { ticketQrPng } from './ticket-qr.js';
import { TicketRefusal } from './tickets.refusals.js';
import { TicketsRepository } from './tickets.repository.js';

/**
 * The least role that reads a ticket's confirmation code (what admits its holder, so its QR code
 * too) and the buyer's email: those who sell tickets and admit visitors. A viewer (a kiosk, a
 * report) sees a ticket without them.
 */
export const READS_TICKET_SECRETS: Role = 'box-office';

/**
 * The name under which the failure limiter counts a user's unknown confirmation codes: beside its
 * wrong passwords (same limits, same window, same address cap), not in the same count, so that a
 * scanner reading a foreign QR code never locks its user out of the rest of the service. A newline
 * never occurs in a user name, so this never names a user.
 */
const codeGuessesOf = (username: string): string => `${username}\ncheck-in codes`;

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** Sells tickets, reads them, draws their QR codes and checks them in at the door. */
@Injectable()
export class TicketsService {
  private readonly generalAdmissionPrice: number;

  constructor(
    private readonly tickets: TicketsRepository,
    private readonly clock: MuseumClock,
    private readonly guesses: GuessGate,
    private readonly events: SpecialEventsService,
    private readonly hours: MuseumHoursService,
    private readonly slots: TimeSlotsService,
    @InjectConfig() config: AppConfig,
  ) {
    this.generalAdmissionPrice = config.museum.generalAdmissionPrice;
  }

  /**
   * Buys one ticket: a seat of an event (SpecialEventsService.reserveTicket) or a day's general
   * admission (MuseumHoursService.admitGeneral), the ticket's INSERT joined to the same
   * transaction: a place is never taken without its ticket, nor the other way round, and the
   * database decides the capacity.
   */
  async buy(body: BuyTicketsDto): Promise<TicketConfirmationResponse> {
    if (body.ticketType === 'general' && body.eventId !== undefined) {
      throw new TicketRefusal('invalid-purchase', {
        errors: [{ field: 'eventId', message: 'eventId must be absent for a general ticket' }],
      });
    }
    const today = this.clock.today();
    if (body.ticketDate < today) {
      throw new TicketRefusal('invalid-purchase', {
        errors: [
          {
            field: 'ticketDate',
            message: `ticketDate must not be in the past: today is ${today} in the museum's time zone (${this.clock.timeZone})`,
          },
        ],
      });
    }
    const lastSaleDate = this.hours.lastSaleDate(today);
    if (body.ticketDate > lastSaleDate) {
      throw new TicketRefusal('invalid-purchase', {
        errors: [
          {
            field: 'ticketDate',
            message: `ticketDate must be at most ${lastSaleDate}: tickets are sold up to 366 days ahead, today included`,
          },
        ],
      });
    }
    const ticketId = uuidv7();
    const confirmationCode = newConfirmationCode();
    const insert = (price: number, eventId: string | null): SqlStatement =>
      this.tickets.insertStatement({
        ticketId,
        ticketType: body.ticketType,
        ticketDate: body.ticketDate,
        eventId,
        email: body.email ?? null,
        pricePaid: price,
        confirmationCode,
        createdAt: this.clock.now(),
        ticketTime: body.ticketTime ?? null,
      });
    if (body.ticketType === 'event') {
      if (body.ticketTime !== undefined) {
        throw new TicketRefusal('invalid-purchase', {
          errors: [{ field: 'ticketTime', message: 'ticketTime is not taken for an event ticket' }],
        });
      }
      const eventId = body.eventId as string;
      if (await this.hours.closedByException(body.ticketDate))
        throw await this.closedForEvent(eventId, body.ticketDate);
      const reservation = await this.events.reserveTicket(eventId, body.ticketDate, (event) => [
        insert(event.price, event.eventId),
      ]);
      if (reservation.outcome === 'no-event') throw new TicketRefusal('no-event', { eventId });
      if (reservation.outcome === 'not-a-date') {
        throw new TicketRefusal('not-an-event-date', { date: body.ticketDate, dates: reservation.dates });
      }
      if (reservation.outcome === 'sold-out') {
        throw new TicketRefusal('event-sold-out', { capacity: reservation.capacity });
      }
      if (reservation.outcome === 'date-sold-out') {
        const { date, capacityPerDate } = reservation;
        throw new TicketRefusal('event-date-sold-out', { date, capacityPerDate });
      }
      return {
        message: 'Museum special event ticket purchased',
        ticketId,
        ticketType: 'event',
        ticketDate: body.ticketDate,
        eventId,
        confirmationCode,
      };
    }
    // A day with time slots sells the slot named by ticketTime, a day without them as before.
    const joined = [insert(this.generalAdmissionPrice, null)];
    const admission = await this.slots.admit(body.ticketDate, body.ticketTime, joined);
    if (admission.outcome !== 'admitted') throw generalRefusal(body.ticketDate, admission);
    return {
      message: 'Museum general entry ticket purchased',
      ticketId,
      ticketType: 'general',
      ticketDate: body.ticketDate,
      ...(admission.time === null ? {} : { ticketTime: admission.time }),
      confirmationCode,
    };
  }

  /**
   * The refusal of an event ticket for a date closed by an exception: still 404 for no such event
   * and 422 not-an-event-date first, as when the museum is open.
   */
  private async closedForEvent(eventId: string, date: string): Promise<TicketRefusal> {
    let eventDates: readonly string[];
    try {
      eventDates = (await this.events.get(eventId)).dates;
    } catch (error) {
      if (error instanceof SpecialEventRefusal && error.reason === 'not-found') {
        return new TicketRefusal('no-event', { eventId });
      }
      throw error;
    }
    const dates = indexedDates(eventDates);
    return dates.includes(date)
      ? new TicketRefusal('museum-closed', { date })
      : new TicketRefusal('not-an-event-date', { date, dates });
  }

  /**
   * Of the event's `dates`, those with an active ticket (SpecialEventsService.update refuses to
   * remove them). Checked-in and cancelled tickets hold no date: they are done with.
   */
  activeDates(eventId: string, dates: readonly string[]): Promise<string[]> {
    return this.tickets.activeDates(eventId, dates);
  }

  /** The ticket as `reader` may see it: without its code and the buyer's email below READS_TICKET_SECRETS. */
  async get(ticketId: string, reader: Role): Promise<TicketResponse> {
    return toResponse(await this.find(ticketId), roleAllows(reader, READS_TICKET_SECRETS));
  }

  /** The PNG of the ticket's QR code, which holds its confirmation code (ticket-qr.ts). */
  async qrCode(ticketId: string): Promise<Buffer> {
    const code = await this.tickets.confirmationCode(ticketId);
    if (code === null) throw new TicketRefusal('no-ticket', { ticketId });
    return ticketQrPng(code);
  }

  /** Checks the ticket in for today, or says why not (404, or 409 with the reason). */
  async checkIn(ticketId: string): Promise<TicketResponse> {
    const today = this.clock.today();
    const checkedIn = await this.tickets.checkInById(ticketId, today, this.clock.now());
    const ticket = await this.find(ticketId);
    if (!checkedIn) throw this.refusal(ticket, today);
    return toResponse(ticket);
  }

  /**
   * Checks in the ticket whose confirmation code a scanner read. An unknown code is a 404 and
   * counts as a failed attempt for this user from this address (FailureLimiter), so that guessing
   * codes meets a 429 as guessing passwords does; a known one never counts, however many are
   * scanned at once (GuessGate bounds the lookups in flight instead), and is checked in even
   * past the limit.
   */
  async checkInByCode(code: string, address: string, username: string): Promise<TicketResponse> {
    const today = this.clock.today();
    const guess = await this.guesses.check(
      address,
      codeGuessesOf(username),
      async () => {
        const checkedIn = await this.tickets.checkInByCode(code, today, this.clock.now());
        return { checkedIn, ticket: await this.tickets.byCode(code) };
      },
      ({ ticket }) => ticket === null,
    );
    if (guess.kind === 'limited') {
      throw new TicketRefusal('too-many-unknown-codes', { retryAfterSeconds: guess.retryAfterSeconds });
    }
    const { checkedIn, ticket } = guess.value;
    if (ticket === null) throw new TicketRefusal('unknown-code', {});
    if (!checkedIn) throw this.refusal(ticket, today);
    return toResponse(ticket);
  }

  /** Why a ticket that exists could not be checked in today. */
  private refusal(ticket: Ticket, today: string): TicketRefusal {
    if (ticket.status === 'checked-in') {
      return new TicketRefusal('already-checked-in', { checkedInAt: iso(ticket.checkedInAt) });
    }
    if (ticket.status === 'cancelled') {
      return new TicketRefusal('cancelled', { cancelledAt: iso(ticket.cancelledAt) });
    }
    return new TicketRefusal('not-for-today', { ticketDate: ticket.ticketDate, today, timeZone: this.clock.timeZone });
  }

  private async find(ticketId: string): Promise<Ticket> {
    const ticket = await this.tickets.byId(ticketId);
    if (ticket === null) throw new TicketRefusal('no-ticket', { ticketId });
    return ticket;
  }
}

/** The ticket as answered; `withSecrets` false leaves out what admits or reaches its holder. */
export function toResponse(ticket: Ticket, withSecrets = true): TicketResponse {
  return {
    ticketId: ticket.ticketId,
    ticketType: ticket.ticketType,
    ticketDate: ticket.ticketDate,
    ...(ticket.ticketTime === null ? {} : { ticketTime: ticket.ticketTime }),
    ...(ticket.eventId === null ? {} : { eventId: ticket.eventId }),
    ...(withSecrets ? { email: ticket.email } : {}),
    price: ticket.pricePaid,
    ...(withSecrets ? { confirmationCode: ticket.confirmationCode } : {}),
    status: ticket.status,
    createdAt: new Date(ticket.createdAt).toISOString(),
    checkedInAt: iso(ticket.checkedInAt),
    cancelledAt: iso(ticket.cancelledAt),
    refundDue: ticket.refundDue,
  };
}
