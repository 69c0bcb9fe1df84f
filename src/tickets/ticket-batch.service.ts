import { Injectable } from '@nestjs/common';
import { uuidv7 } from '../domain/time-ordered-ids.js';
import { Capacity } from '../capacity/capacity.js';
import type { PlaceClaim } from '../capacity/place-claim.js';
import type { SqlStatement } from '../database/sql.js';
import { MuseumClock } from '../domain/museum-clock.js';
import type { FieldRule } from '../domain/refusal.js';
import { AdmissionClaims } from '../museum-hours/admission-claims.js';
import { MuseumHoursService } from '../museum-hours/museum-hours.service.js';
import { EventSeatClaims } from '../special-events/event-seat-claims.js';
import type { SpecialEvent } from '../special-events/special-events.types.js';
import { SpecialEventRefusal } from '../special-events/special-events.refusals.js';
import { newConfirmationCode } from './confirmation-code.js';
import type { Ticket, TicketType } from './ticket.entity.js';
import { TicketPrices, unknownCategoryRule } from './ticket-prices.js';
import { type NewOrderTicket, TicketsRepository } from './tickets.repository.js';

/** One line of a sale of several tickets: `quantity` tickets of one kind, date and time. */
export interface BatchLine {
  readonly ticketType: TicketType;
  readonly eventId?: string;
  readonly ticketDate: string;
  readonly ticketTime?: string;
  readonly category?: string;
  readonly quantity: number;
}

/** Why a line cannot be served, as read once its places were refused. */
export type LineRefusal =
  | { readonly reason: 'no-event'; readonly eventId: string }
  | { readonly reason: 'not-an-event-date'; readonly date: string; readonly dates: readonly string[] }
  | { readonly reason: 'museum-closed'; readonly date: string }
  | {
      readonly reason: 'sold-out';
      /** What ran out, in words: `event …`, `event … on …`, `general admission on … at …`. */
      readonly of: string;
      readonly asked: number;
      readonly left: number;
      /** Later slots of the day with room for the line, when a slot ran out. */
      readonly next?: readonly string[];
    };

/** What a sale of several lines did: every ticket sold, or nothing and why. */
export type BatchSale =
  | { readonly kind: 'sold'; readonly tickets: readonly NewOrderTicket[] }
  | { readonly kind: 'invalid'; readonly errors: readonly FieldRule[] }
  | { readonly kind: 'refused'; readonly line: number; readonly why: LineRefusal };

/** What a cancel of an order's tickets did. */
export type BatchCancel =
  | { readonly kind: 'cancelled'; readonly tickets: readonly Ticket[] }
  | { readonly kind: 'checked-in'; readonly tickets: readonly Ticket[] };

/** A line's places as prepared: the claim and what prices its tickets, or why not. */
type Prepared =
  | {
      readonly kind: 'claim';
      readonly claim: PlaceClaim;
      readonly event: SpecialEvent | null;
      readonly time: string | null;
      /** The price of each of the line's tickets, in its category (null: none). */
      readonly price: number;
      readonly category: string | null;
    }
  | { readonly kind: 'invalid'; readonly errors: readonly FieldRule[] }
  | { readonly kind: 'refused'; readonly why: LineRefusal };

/**
 * Attempts of a sale whose lines' places changed between their read and the transaction (an
 * event updated, a day's hours changed): then 503, retry.
 */
const SALE_ATTEMPTS = 10;

/** Attempts of a cancel whose tickets changed between their read and the transaction. */
const CANCEL_ATTEMPTS = 5;

/**
 * Sells several tickets, of several lines, in one transaction: every line's places (an event's
 * seats, a day's or a slot's admissions) taken by conditional UPDATEs the database decides
 * (EventSeatClaims, AdmissionClaims, Capacity.takeAll) with every ticket's INSERT and what the
 * caller joins (an order's row): all of them, or none. Cancels them together too, giving their
 * places back in the same transaction. The single sale (TicketsService.buy) is this with one line
 * of one ticket; it keeps its own path, the cheapest for one seat.
 */
@Injectable()
export class TicketBatchService {
  constructor(
    private readonly tickets: TicketsRepository,
    private readonly capacity: Capacity,
    private readonly seats: EventSeatClaims,
    private readonly admissions: AdmissionClaims,
    private readonly hours: MuseumHoursService,
    private readonly clock: MuseumClock,
    private readonly prices: TicketPrices,
  ) {}

  /**
   * Sells every line's tickets to `email` in order `orderId`, with `joined(tickets)` in the same
   * transaction, or nothing: the first line that cannot be served says why. Lines are numbered
   * from 0, as `lines[i]` in a field's name.
   */
  async sell(
    lines: readonly BatchLine[],
    sale: { readonly email: string | null; readonly orderId: string },
    joined: (tickets: readonly NewOrderTicket[]) => readonly SqlStatement[],
  ): Promise<BatchSale> {
    const errors = this.lineErrors(lines);
    if (errors.length > 0) return { kind: 'invalid', errors };
    for (let attempt = 0; attempt < SALE_ATTEMPTS; attempt++) {
      const claims: Extract<Prepared, { kind: 'claim' }>[] = [];
      for (const [index, line] of lines.entries()) {
        const prepared = await this.prepare(line, index);
        if (prepared.kind === 'invalid') return prepared;
        if (prepared.kind === 'refused') return { kind: 'refused', line: index, why: prepared.why };
        claims.push(prepared);
      }
      const tickets = this.ticketsOf(lines, claims, sale);
      const statements = [...this.tickets.insertOrderStatements(tickets), ...joined(tickets)];
      const outcome = await this.capacity.takeAll(
        claims.map(({ claim }) => claim),
        statements,
      );
      if ('taken' in outcome) return { kind: 'sold', tickets };
      // A line's places were refused: as read now, it cannot be served, or it can alone and the
      // order's other lines took what it needed, or its places changed since the read (try again).
      const line = outcome.refusedBy;
      const again = await this.prepare(lines[line], line);
      if (again.kind === 'invalid') return again;
      if (again.kind === 'refused') return { kind: 'refused', line, why: again.why };
      if (again.claim.stamp === claims[line].claim.stamp) {
        const left = again.claim.left ?? 0;
        const why = { reason: 'sold-out' as const, of: placesOf(lines[line]), asked: lines[line].quantity, left };
        return { kind: 'refused', line, why };
      }
    }
    throw new SpecialEventRefusal('busy', {});
  }

  /** The tickets of order `orderId`, in the order of sale (its lines' order). */
  ofOrder(orderId: string): Promise<Ticket[]> {
    return this.tickets.byOrder(orderId);
  }

  /**
   * Cancels every active ticket of order `orderId` and gives their places back, in one
   * transaction, or none when one of them was checked in (it admitted its holder): then the
   * checked-in ones. Cancelled tickets stay as they are, so a second cancel changes nothing.
   */
  async cancelOrder(orderId: string): Promise<BatchCancel> {
    for (let attempt = 1; ; attempt++) {
      const tickets = await this.tickets.byOrder(orderId);
      const checkedIn = tickets.filter((ticket) => ticket.status === 'checked-in');
      if (checkedIn.length > 0) return { kind: 'checked-in', tickets: checkedIn };
      const active = tickets.filter((ticket) => ticket.status === 'active');
      if (active.length === 0) return { kind: 'cancelled', tickets };
      const now = this.clock.now();
      const cancels = active.map((ticket) => this.tickets.cancelStatement(ticket.ticketId, now));
      // Each cancel must change its row (still active): a check-in or a rival cancel in between
      // undoes them all, and the tickets read again say what to answer.
      if (await this.tickets.cancelTogether(cancels, this.releases(active))) {
        return { kind: 'cancelled', tickets: await this.tickets.byOrder(orderId) };
      }
      if (attempt >= CANCEL_ATTEMPTS) throw new SpecialEventRefusal('busy', {});
    }
  }

  /** What gives the places of `tickets` back: one statement per pool row, general admissions first. */
  private releases(tickets: readonly Ticket[]): SqlStatement[] {
    const counts = new Map<string, { ticket: Ticket; count: number }>();
    for (const ticket of tickets) {
      const key = JSON.stringify([
        ticket.eventId === null ? 0 : 1,
        ticket.eventId,
        ticket.ticketDate,
        ticket.ticketTime,
      ]);
      const entry = counts.get(key);
      if (entry === undefined) counts.set(key, { ticket, count: 1 });
      else entry.count++;
    }
    return [...counts.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .flatMap(([, { ticket, count }]) =>
        ticket.eventId === null
          ? this.admissions.release(ticket.ticketDate, ticket.ticketTime, count)
          : this.seats.release(ticket.eventId, ticket.ticketDate, ticket.ticketTime, count),
      );
  }

  /** Rules a line's fields meet together, and the dates tickets are sold for, as POST /tickets has them. */
  private lineErrors(lines: readonly BatchLine[]): FieldRule[] {
    const today = this.clock.today();
    const lastSaleDate = this.hours.lastSaleDate(today);
    return lines.flatMap((line, index): FieldRule[] => {
      const field = (name: string) => `lines[${index}].${name}`;
      const errors: FieldRule[] = [];
      if (line.ticketType === 'general' && line.eventId !== undefined) {
        errors.push({ field: field('eventId'), message: 'eventId must be absent for a general ticket' });
      }
      if (line.ticketDate < today) {
        const message = `ticketDate must not be in the past: today is ${today} in the museum's time zone (${this.clock.timeZone})`;
        errors.push({ field: field('ticketDate'), message });
      } else if (line.ticketDate > lastSaleDate) {
        const message = `ticketDate must be at most ${lastSaleDate}: tickets are sold up to 366 days ahead, today included`;
        errors.push({ field: field('ticketDate'), message });
      }
      return errors;
    });
  }

  /** The claim of a line's places as read now, or why it cannot be served. */
  private async prepare(line: BatchLine, index: number): Promise<Prepared> {
    const { ticketDate: date, quantity } = line;
    if (line.ticketType === 'event') {
      const eventId = line.eventId as string;
      const seats = await this.seats.claim(eventId, date, line.ticketTime, quantity);
      switch (seats.outcome) {
        case 'no-event':
          return { kind: 'refused', why: { reason: 'no-event', eventId } };
        case 'not-a-date':
          return { kind: 'refused', why: { reason: 'not-an-event-date', date, dates: seats.dates } };
        case 'sold-out':
          return soldOut(line, seats.left);
        case 'date-sold-out':
          return soldOut(line, seats.left);
        case 'time-required':
          return invalid(
            `lines[${index}].ticketTime`,
            `ticketTime is required: ${date} has sessions at ${seats.times.join(', ')}`,
          );
        case 'unknown-time':
          return invalid(
            `lines[${index}].ticketTime`,
            seats.times.length === 0
              ? `ticketTime must be absent: the event has no session on ${date}`
              : `ticketTime must be one of the event's sessions on ${date}: ${seats.times.join(', ')}`,
          );
        case 'claimable':
          // Only an exception closes the museum to an event, as for a single ticket.
          if (await this.hours.closedByException(date)) {
            return { kind: 'refused', why: { reason: 'museum-closed', date } };
          }
          return this.priced(line, index, { claim: seats.claim, event: seats.event, time: seats.time });
      }
    }
    const admission = await this.admissions.claim(date, line.ticketTime, quantity);
    const ticketTime = `lines[${index}].ticketTime`;
    switch (admission.outcome) {
      case 'closed':
        return { kind: 'refused', why: { reason: 'museum-closed', date } };
      case 'sold-out':
        return soldOut(line, admission.left);
      case 'slot-full':
        return soldOut(line, admission.left, admission.next);
      case 'no-slots':
        return invalid(ticketTime, `ticketTime must be absent: general admission on ${date} has no time slots`);
      case 'unknown-time':
        return invalid(ticketTime, `ticketTime must be one of the slots of ${date}: ${admission.times.join(', ')}`);
      case 'claimable':
        return this.priced(line, index, { claim: admission.claim, event: null, time: admission.time });
    }
  }

  /**
   * A line's claim with its tickets' price: the event's (as read for the claim, the version whose
   * seats it takes) or general admission's, in the line's category; an unknown one is a 400.
   */
  private async priced(
    line: BatchLine,
    index: number,
    claim: Pick<Extract<Prepared, { kind: 'claim' }>, 'claim' | 'event' | 'time'>,
  ): Promise<Prepared> {
    const outcome =
      claim.event === null
        ? await this.prices.forGeneral(line.category)
        : this.prices.forEvent(claim.event, line.category);
    if (outcome.kind === 'unknown-category') {
      const of = claim.event === null ? 'general' : 'event';
      return { kind: 'invalid', errors: [unknownCategoryRule(outcome, of, `lines[${index}].category`)] };
    }
    return { kind: 'claim', ...claim, price: outcome.price, category: outcome.category };
  }

  /** The tickets of every line, each at its line's price and with a code of its own. */
  private ticketsOf(
    lines: readonly BatchLine[],
    claims: readonly Extract<Prepared, { kind: 'claim' }>[],
    sale: { readonly email: string | null; readonly orderId: string },
  ): NewOrderTicket[] {
    const createdAt = this.clock.now();
    return lines.flatMap((line, index) => {
      const { event, time, price: pricePaid, category } = claims[index];
      return Array.from({ length: line.quantity }, () => ({
        ticketId: uuidv7(),
        ticketType: line.ticketType,
        ticketDate: line.ticketDate,
        ticketTime: time,
        eventId: event?.eventId ?? null,
        email: sale.email,
        pricePaid,
        confirmationCode: newConfirmationCode(),
        createdAt,
        category,
        orderId: sale.orderId,
      }));
    });
  }
}

/** The places a line asks for, in words. */
function placesOf(line: BatchLine): string {
  const at = line.ticketTime === undefined ? '' : ` at ${line.ticketTime}`;
  if (line.ticketType === 'event') return `event ${line.eventId} on ${line.ticketDate}${at}`;
  return `general admission on ${line.ticketDate}${at}`;
}

function soldOut(line: BatchLine, left: number, next?: readonly string[]): Prepared {
  const why = { reason: 'sold-out' as const, of: placesOf(line), asked: line.quantity, left };
  return { kind: 'refused', why: next === undefined ? why : { ...why, next } };
}

function invalid(field: string, message: string): Prepared {
  return { kind: 'invalid', errors: [{ field, message }] };
}
