import { Injectable } from '@nestjs/common';
import { uuidv7 } from '../domain/time-ordered-ids.js';
import { CheckInCodeGuesses } from '../auth/check-in-codes.js';
import { MuseumClock } from '../domain/museum-clock.js';
import { indexedDates } from '../domain/calendar-dates.js';
import type { SqlStatement } from '../database/sql.js';
import { MuseumHoursService } from '../museum-hours/museum-hours.service.js';
import { TimeSlotsService } from '../museum-hours/time-slots.service.js';
import { SpecialEventRefusal } from '../special-events/special-events.refusals.js';
import { SpecialEventsService } from '../special-events/special-events.service.js';
import { newConfirmationCode } from './confirmation-code.js';
import { eventRefusal } from './event-admission.js';
import { generalRefusal } from './general-admission.js';
import type { Ticket } from './ticket.entity.js';
import { TicketPrices, unknownCategory } from './ticket-prices.js';
import { ticketQrPng } from './ticket-qr.js';
import { TimedEntry } from './timed-entry.js';
import { TicketRefusal } from './tickets.refusals.js';
import { TicketsRepository } from './tickets.repository.js';
import type { TicketPurchase, TicketSale } from './tickets.types.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** Sells tickets, reads them, draws their QR codes and checks them in at the door. */
@Injectable()
export class TicketsService {
  constructor(
    private readonly tickets: TicketsRepository,
    private readonly clock: MuseumClock,
    private readonly guesses: CheckInCodeGuesses,
    private readonly events: SpecialEventsService,
    private readonly hours: MuseumHoursService,
    private readonly slots: TimeSlotsService,
    private readonly entry: TimedEntry,
    private readonly prices: TicketPrices,
  ) {}

  /**
   * Buys one ticket: a seat of an event (SpecialEventsService.reserveTicket) or a day's general
   * admission (MuseumHoursService.admitGeneral), the ticket's INSERT joined to the same
   * transaction: a place is never taken without its ticket, nor the other way round, and the
   * database decides the capacity.
   */
  async buy(body: TicketPurchase): Promise<TicketSale> {
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
    const insert = (
      price: number,
      eventId: string | null,
      ticketTime: string | null,
      category: string | null,
    ): SqlStatement =>
      this.tickets.insertStatement({
        ticketId,
        ticketType: body.ticketType,
        ticketDate: body.ticketDate,
        eventId,
        email: body.email ?? null,
        pricePaid: price,
        confirmationCode,
        createdAt: this.clock.now(),
        ticketTime,
        category,
      });
    if (body.ticketType === 'event') {
      const eventId = body.eventId as string;
      if (await this.hours.closedByException(body.ticketDate))
        throw await this.closedForEvent(eventId, body.ticketDate);
      // On a date with sessions the seat is a session's: ticketTime names it (EventSeats.reserve).
      // Priced from the event as read for this sale (the version whose seat it takes); an unknown
      // category is refused before anything is written.
      const reservation = await this.events.reserveTicket(
        eventId,
        body.ticketDate,
        (event, time) => {
          const priced = this.prices.forEvent(event, body.category);
          if (priced.kind !== 'priced') throw unknownCategory(priced, 'event');
          return [insert(priced.price, event.eventId, time, priced.category)];
        },
        body.ticketTime,
      );
      if (reservation.outcome !== 'reserved') throw eventRefusal(eventId, body.ticketDate, reservation);
      return {
        ticketId,
        ticketType: 'event',
        ticketDate: body.ticketDate,
        ...(reservation.time === null ? {} : { ticketTime: reservation.time }),
        eventId,
        ...(body.category === undefined ? {} : { category: body.category }),
        confirmationCode,
      };
    }
    // A day with time slots sells the slot named by ticketTime, a day without them as before.
    const priced = await this.prices.forGeneral(body.category);
    if (priced.kind !== 'priced') throw unknownCategory(priced, 'general');
    const joined = [insert(priced.price, null, body.ticketTime ?? null, priced.category)];
    const admission = await this.slots.admit(body.ticketDate, body.ticketTime, joined);
    if (admission.outcome !== 'admitted') throw generalRefusal(body.ticketDate, admission);
    return {
      ticketId,
      ticketType: 'general',
      ticketDate: body.ticketDate,
      ...(admission.time === null ? {} : { ticketTime: admission.time }),
      ...(body.category === undefined ? {} : { category: body.category }),
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

  /** The ticket, or `no-ticket`. */
  get(ticketId: string): Promise<Ticket> {
    return this.find(ticketId);
  }

  /** The PNG of the ticket's QR code, which holds its confirmation code (ticket-qr.ts). */
  async qrCode(ticketId: string): Promise<Buffer> {
    const code = await this.tickets.confirmationCode(ticketId);
    if (code === null) throw new TicketRefusal('no-ticket', { ticketId });
    return ticketQrPng(code);
  }

  /** Checks the ticket in for today, or says why not (404, or 409 with the reason). */
  async checkIn(ticketId: string): Promise<Ticket> {
    const ticket = await this.find(ticketId);
    return this.admit(
      ticket,
      (today, now) => this.tickets.checkInById(ticketId, today, now),
      () => this.find(ticketId),
    );
  }

  /**
   * Checks in the ticket whose confirmation code a scanner read. An unknown code is a 404 and
   * counts as a failed attempt for this user from this address (FailureLimiter), so that guessing
   * codes meets a 429 as guessing passwords does; a known one never counts, however many are
   * scanned at once (GuessGate bounds the lookups in flight instead), and is checked in even
   * past the limit.
   */
  async checkInByCode(code: string, address: string, username: string): Promise<Ticket> {
    const guess = await this.guesses.check(
      address,
      username,
      () => this.tickets.byCode(code),
      (ticket) => ticket === null,
    );
    if (guess.kind === 'limited') {
      throw new TicketRefusal('too-many-unknown-codes', { retryAfterSeconds: guess.retryAfterSeconds });
    }
    const ticket = guess.value;
    if (ticket === null) throw new TicketRefusal('unknown-code', {});
    return this.admit(
      ticket,
      (today, now) => this.tickets.checkInByCode(code, today, now),
      async () => (await this.tickets.byCode(code)) ?? ticket,
    );
  }

  /**
   * Admits `ticket` (as read): only when it is active, for today and, with a time, within its
   * entry (TimedEntry); then `checkIn`, the conditional UPDATE, decides between scanners of the
   * same ticket at the same moment, and when it changes nothing the ticket read again says why.
   */
  private async admit(
    ticket: Ticket,
    checkIn: (today: string, now: number) => Promise<boolean>,
    readAgain: () => Promise<Ticket>,
  ): Promise<Ticket> {
    const today = this.clock.today();
    if (ticket.status !== 'active' || ticket.ticketDate !== today) throw this.refusal(ticket, today);
    const early = await this.entry.refusal(ticket);
    if (early !== null) throw early;
    const now = this.clock.now();
    if (!(await checkIn(today, now))) throw this.refusal(await readAgain(), today);
    // The row is now as the UPDATE wrote it: no second read.
    ticket.status = 'checked-in';
    ticket.checkedInAt = now;
    return ticket;
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
