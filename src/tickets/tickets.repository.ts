import { Injectable } from '@nestjs/common';
import { columnOf, insertInto, type RowOf, selectList, tableOf } from '../database/entity-columns.js';
import { Sql, type SqlStatement } from '../database/sql.js';
import { Ticket } from './ticket.entity.js';

/** What a sale writes; the rest of the row starts as the entity's defaults (active, not checked in). */
export type NewTicket = Pick<
  Ticket,
  'ticketId' | 'ticketType' | 'ticketDate' | 'eventId' | 'email' | 'pricePaid' | 'confirmationCode' | 'createdAt'
> &
  Partial<Pick<Ticket, 'ticketTime'>>;

const NEW_TICKET_COLUMNS = [
  'ticketId',
  'ticketType',
  'ticketDate',
  'eventId',
  'email',
  'pricePaid',
  'confirmationCode',
  'createdAt',
] as const satisfies readonly (keyof NewTicket)[];

const TICKETS = tableOf(Ticket);
const INSERT_TICKET = insertInto(Ticket, NEW_TICKET_COLUMNS);
/** A ticket with a time (a slot, a session): the same columns and ticket_time, last. */
const INSERT_TIMED_TICKET = insertInto(Ticket, [...NEW_TICKET_COLUMNS, 'ticketTime']);
const SELECT_TICKET = `SELECT ${selectList(Ticket)} FROM ${TICKETS} WHERE`;
const BY_ID = `${SELECT_TICKET} ${columnOf(Ticket, 'ticketId')} = ?`;
const BY_CODE = `${SELECT_TICKET} ${columnOf(Ticket, 'confirmationCode')} = ?`;

/**
 * The one statement that checks a ticket in: the database decides, so of two scanners that read
 * the same ticket at the same moment exactly one changes the row (the other finds it checked in).
 */
const CHECK_IN_BY_ID =
  "UPDATE tickets SET status = 'checked-in', checked_in_at = ? WHERE ticket_id = ? AND status = 'active' AND ticket_date = ?";
const CHECK_IN_BY_CODE =
  "UPDATE tickets SET status = 'checked-in', checked_in_at = ? WHERE confirmation_code = ? AND status = 'active' AND ticket_date = ?";

const epochOrNull = (value: number | string | null): number | null => (value === null ? null : Number(value));

function toTicket(row: RowOf<Ticket>): Ticket {
  return {
    ...row,
    pricePaid: Number(row.pricePaid),
    createdAt: Number(row.createdAt),
    checkedInAt: epochOrNull(row.checkedInAt),
    cancelledAt: epochOrNull(row.cancelledAt),
  };
}

/** The `tickets` table: every statement on it. */
@Injectable()
export class TicketsRepository {
  constructor(private readonly sql: Sql) {}

  /** The INSERT of a sold ticket, for the transaction that takes its seat or admission. */
  insertStatement(ticket: NewTicket): SqlStatement {
    const { ticketTime, ...rest } = ticket;
    if (ticketTime === null || ticketTime === undefined) {
      return { sql: INSERT_TICKET, parameters: NEW_TICKET_COLUMNS.map((property) => rest[property]) };
    }
    return {
      sql: INSERT_TIMED_TICKET,
      parameters: [...NEW_TICKET_COLUMNS.map((property) => rest[property]), ticketTime],
    };
  }

  /**
   * What an event's delete adds to its transaction: every ticket of the event not yet cancelled is,
   * at that moment. A checked-in ticket keeps its `checked_in_at`, so both facts stay readable.
   */
  cancelEventTicketsStatement(eventId: string, now: number): SqlStatement {
    return {
      sql: "UPDATE tickets SET status = 'cancelled', cancelled_at = ? WHERE event_id = ? AND status <> 'cancelled'",
      parameters: [now, eventId],
    };
  }

  /** Of `dates`, those on which the event has an active ticket. */
  async activeDates(eventId: string, dates: readonly string[]): Promise<string[]> {
    const rows = await this.sql.select<Pick<RowOf<Ticket>, 'ticketDate'>>(
      `SELECT DISTINCT ticket_date AS ticketDate FROM tickets WHERE event_id = ? AND status = 'active' AND ticket_date IN (${dates.map(() => '?').join(', ')})`,
      [eventId, ...dates],
    );
    return rows.map((row) => row.ticketDate);
  }

  async byId(ticketId: string): Promise<Ticket | null> {
    const [row] = await this.sql.select<RowOf<Ticket>>(BY_ID, [ticketId]);
    return row === undefined ? null : toTicket(row);
  }

  async byCode(confirmationCode: string): Promise<Ticket | null> {
    const [row] = await this.sql.select<RowOf<Ticket>>(BY_CODE, [confirmationCode]);
    return row === undefined ? null : toTicket(row);
  }

  /** The ticket's confirmation code, or null when there is no such ticket. */
  async confirmationCode(ticketId: string): Promise<string | null> {
    const rows = await this.sql.select<Pick<RowOf<Ticket>, 'confirmationCode'>>(
      'SELECT confirmation_code AS confirmationCode FROM tickets WHERE ticket_id = ?',
      [ticketId],
    );
    return rows[0]?.confirmationCode ?? null;
  }

  /** Checks the ticket in if it is active and for `today`; whether it did. */
  async checkInById(ticketId: string, today: string, now: number): Promise<boolean> {
    return (await this.sql.execute(CHECK_IN_BY_ID, [now, ticketId, today])) > 0;
  }

  /** As checkInById, for the ticket with this confirmation code. */
  async checkInByCode(confirmationCode: string, today: string, now: number): Promise<boolean> {
    return (await this.sql.execute(CHECK_IN_BY_CODE, [now, confirmationCode, today])) > 0;
  }
}
