import { Injectable } from '@nestjs/common';
import { v7 as uuidv7 } from 'uuid';
import { GuessGate } from '../auth/guess-gate.js';
import { type Role, roleAllows } from '../auth/roles.js';
import type { AppConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/config.module.js';
import { MuseumClock } from '../domain/museum-clock.js';
import { indexedDates } from '../domain/calendar-dates.js';
import { SqlStatements, type SqlStatement } from '../database/sql-statements.js';
import { MuseumHoursService } from '../museum-hours/museum-hours.service.js';
import { SpecialEventRefusal } from '../special-events/special-events.refusals.js';
import { SpecialEventsService } from '../special-events/special-events.service.js';
import { newConfirmationCode } from './confirmation-code.js';
import type { BuyTicketsDto } from './dto/buy-tickets.dto.js';
import type { TicketConfirmationResponse, TicketResponse } from './dto/ticket-response.dto.js';
import type { TicketStatus, TicketType } from './ticket.entity.js';
import { ticketQrPng } from './ticket-qr.js';
import { TicketRefusal } from './tickets.refusals.js';

/**
 * The least role that reads a ticket's confirmation code (what admits its holder, so its QR code
 * too) and the buyer's email: those who sell tickets and admit visitors. A viewer (a kiosk, a
 * report) sees a ticket without them.
 */
export const READS_TICKET_SECRETS: Role = 'box-office';

/** A row of `tickets` as SELECT returns it (MySQL hands bigints back as strings). */
interface TicketRow {
  ticket_id: string;
  ticket_type: TicketType;
  ticket_date: string;
  event_id: string | null;
  email: string | null;
  price_paid: number | string;
  confirmation_code: string;
  status: TicketStatus;
  created_at: number | string;
  checked_in_at: number | string | null;
  cancelled_at: number | string | null;
}

const COLUMNS =
  'ticket_id, ticket_type, ticket_date, event_id, email, price_paid, confirmation_code, status, created_at, ' +
  'checked_in_at, cancelled_at';

/**
 * The one statement that checks a ticket in: the database decides, so of two scanners that read
 * the same ticket at the same moment exactly one changes the row (the other finds it checked in).
 */
const CHECK_IN_BY_ID =
  "UPDATE tickets SET status = 'checked-in', checked_in_at = ? WHERE ticket_id = ? AND status = 'active' AND ticket_date = ?";
const CHECK_IN_BY_CODE =
  "UPDATE tickets SET status = 'checked-in', checked_in_at = ? WHERE confirmation_code = ? AND status = 'active' AND ticket_date = ?";

/**
 * What an event's delete adds to its transaction: every ticket of the event not yet cancelled is,
 * at that moment. A checked-in ticket keeps its `checked_in_at`, so both facts stay readable.
 */
export function cancelEventTicketsStatement(eventId: string, now: number): SqlStatement {
  return {
    sql: "UPDATE tickets SET status = 'cancelled', cancelled_at = ? WHERE event_id = ? AND status <> 'cancelled'",
    parameters: [now, eventId],
  };
}

/**
 * The name under which the failure limiter counts a user's unknown confirmation codes: beside its
 * wrong passwords (same limits, same window, same address cap), not in the same count, so that a
 * scanner reading a foreign QR code never locks its user out of the rest of the service. A newline
 * never occurs in a user name, so this never names a user.
 */
const codeGuessesOf = (username: string): string => `${username}\ncheck-in codes`;

const iso = (ms: number | string | null): string | null => (ms === null ? null : new Date(Number(ms)).toISOString());

const INSERT_TICKET =
  'INSERT INTO tickets (ticket_id, ticket_type, ticket_date, event_id, email, price_paid, confirmation_code, status, ' +
  "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'active', ?)";

/** Sells tickets, reads them, draws their QR codes and checks them in at the door. */
@Injectable()
export class TicketsService {
  private readonly generalAdmissionPrice: number;

  constructor(
    private readonly sql: SqlStatements,
    private readonly clock: MuseumClock,
    private readonly guesses: GuessGate,
    private readonly events: SpecialEventsService,
    private readonly hours: MuseumHoursService,
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
    const insert = (price: number, eventId: string | null): SqlStatement => ({
      sql: INSERT_TICKET,
      parameters: [
        ticketId,
        body.ticketType,
        body.ticketDate,
        eventId,
        body.email ?? null,
        price,
        confirmationCode,
        Date.now(),
      ],
    });
    if (body.ticketType === 'event') {
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
      return {
        message: 'Museum special event ticket purchased',
        ticketId,
        ticketType: 'event',
        ticketDate: body.ticketDate,
        eventId,
        confirmationCode,
      };
    }
    const admission = await this.hours.admitGeneral(body.ticketDate, [insert(this.generalAdmissionPrice, null)]);
    if (admission.outcome === 'closed') throw new TicketRefusal('museum-closed', { date: body.ticketDate });
    if (admission.outcome === 'sold-out') {
      throw new TicketRefusal('admission-sold-out', { date: body.ticketDate, capacity: admission.capacity });
    }
    return {
      message: 'Museum general entry ticket purchased',
      ticketId,
      ticketType: 'general',
      ticketDate: body.ticketDate,
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
  async activeDates(eventId: string, dates: readonly string[]): Promise<string[]> {
    const rows = await this.sql.select<{ ticket_date: string }>(
      `SELECT DISTINCT ticket_date FROM tickets WHERE event_id = ? AND status = 'active' AND ticket_date IN (${dates.map(() => '?').join(', ')})`,
      [eventId, ...dates],
    );
    return rows.map((row) => row.ticket_date);
  }

  /** The ticket as `reader` may see it: without its code and the buyer's email below READS_TICKET_SECRETS. */
  async get(ticketId: string, reader: Role): Promise<TicketResponse> {
    return toResponse(await this.find('ticket_id', ticketId), roleAllows(reader, READS_TICKET_SECRETS));
  }

  /** The PNG of the ticket's QR code, which holds its confirmation code (ticket-qr.ts). */
  async qrCode(ticketId: string): Promise<Buffer> {
    const rows = await this.sql.select<{ confirmation_code: string }>(
      'SELECT confirmation_code FROM tickets WHERE ticket_id = ?',
      [ticketId],
    );
    if (rows.length === 0) throw new TicketRefusal('no-ticket', { ticketId });
    return ticketQrPng(rows[0].confirmation_code);
  }

  /** Checks the ticket in for today, or says why not (404, or 409 with the reason). */
  async checkIn(ticketId: string): Promise<TicketResponse> {
    const today = this.clock.today();
    const changed = await this.sql.execute(CHECK_IN_BY_ID, [Date.now(), ticketId, today]);
    const ticket = await this.find('ticket_id', ticketId);
    if (changed === 0) throw this.refusal(ticket, today);
    return toResponse(ticket);
  }

  /**
   * Checks in the ticket whose confirmation code a scanner read. An unknown code is a 404 and
   * counts as a failed attempt for this user from this address (FailureLimiter), so that guessing
   * codes meets a 429 as guessing passwords does; a known one never counts, however many are
   * scanned at once (GuessGate bounds the lookups in flight instead).
   */
  async checkInByCode(code: string, address: string, username: string): Promise<TicketResponse> {
    const today = this.clock.today();
    const guess = await this.guesses.check(
      address,
      codeGuessesOf(username),
      async () => {
        const changed = await this.sql.execute(CHECK_IN_BY_CODE, [Date.now(), code, today]);
        return { changed, ticket: await this.findOrNull('confirmation_code', code) };
      },
      ({ ticket }) => ticket === null,
    );
    if (guess.kind === 'limited') {
      throw new TicketRefusal('too-many-unknown-codes', { retryAfterSeconds: guess.retryAfterSeconds });
    }
    const { changed, ticket } = guess.value;
    if (ticket === null) throw new TicketRefusal('unknown-code', {});
    if (changed === 0) throw this.refusal(ticket, today);
    return toResponse(ticket);
  }

  /** Why a ticket that exists could not be checked in today. */
  private refusal(ticket: TicketRow, today: string): TicketRefusal {
    if (ticket.status === 'checked-in') {
      return new TicketRefusal('already-checked-in', { checkedInAt: iso(ticket.checked_in_at) });
    }
    if (ticket.status === 'cancelled') {
      return new TicketRefusal('cancelled', { cancelledAt: iso(ticket.cancelled_at) });
    }
    return new TicketRefusal('not-for-today', { ticketDate: ticket.ticket_date, today, timeZone: this.clock.timeZone });
  }

  private async find(column: 'ticket_id', value: string): Promise<TicketRow> {
    const ticket = await this.findOrNull(column, value);
    if (ticket === null) throw new TicketRefusal('no-ticket', { ticketId: value });
    return ticket;
  }

  private async findOrNull(column: 'ticket_id' | 'confirmation_code', value: string): Promise<TicketRow | null> {
    const rows = await this.sql.select<TicketRow>(`SELECT ${COLUMNS} FROM tickets WHERE ${column} = ?`, [value]);
    return rows[0] ?? null;
  }
}

/** The ticket as answered; `withSecrets` false leaves out what admits or reaches its holder. */
function toResponse(row: TicketRow, withSecrets = true): TicketResponse {
  return {
    ticketId: row.ticket_id,
    ticketType: row.ticket_type,
    ticketDate: row.ticket_date,
    ...(row.event_id === null ? {} : { eventId: row.event_id }),
    ...(withSecrets ? { email: row.email } : {}),
    price: Number(row.price_paid),
    ...(withSecrets ? { confirmationCode: row.confirmation_code } : {}),
    status: row.status,
    createdAt: new Date(Number(row.created_at)).toISOString(),
    checkedInAt: iso(row.checked_in_at),
    cancelledAt: iso(row.cancelled_at),
  };
}
