import { Injectable } from '@nestjs/common';
import { columnOf, insertInto, type RowOf, selectList, tableOf } from '../database/entity-columns.js';
import { limitPlaceholder } from '../database/sql-limit.js';
import { placeholders } from '../database/sql-placeholders.js';
import { Sql, type SqlStatement } from '../database/sql.js';
import type { TicketFilters } from './ticket-cursor.js';
import { Ticket, type TicketStatus, type TicketType } from './ticket.entity.js';

/** What a sale writes; the rest of the row starts as the entity's defaults (active, not checked in). */
export type NewTicket = Pick<
  Ticket,
  'ticketId' | 'ticketType' | 'ticketDate' | 'eventId' | 'email' | 'pricePaid' | 'confirmationCode' | 'createdAt'
> &
  Partial<Pick<Ticket, 'ticketTime' | 'category'>>;

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
const SELECT_TICKETS = `SELECT ${selectList(Ticket)} FROM ${TICKETS}`;
const SELECT_TICKET = `${SELECT_TICKETS} WHERE`;
/** A ticket with a time (a slot, a session): the same columns and ticket_time, last. */
const INSERT_TIMED_TICKET = insertInto(Ticket, [...NEW_TICKET_COLUMNS, 'ticketTime']);
/** A ticket bought in a price category: the same columns, ticket_time and category, last. */
const INSERT_CATEGORY_TICKET = insertInto(Ticket, [...NEW_TICKET_COLUMNS, 'ticketTime', 'category']);

/** A ticket sold in an order: every column a sale writes, its time, category and order included. */
export type NewOrderTicket = NewTicket & Pick<Ticket, 'ticketTime' | 'category' | 'orderId'>;

const ORDER_TICKET_COLUMNS = [...NEW_TICKET_COLUMNS, 'ticketTime', 'category', 'orderId'] as const;
const INSERT_ORDER_TICKETS = insertInto(Ticket, ORDER_TICKET_COLUMNS);
const ORDER_TICKET_ROW = `, (${ORDER_TICKET_COLUMNS.map(() => '?').join(', ')})`;

/**
 * Rows one INSERT of an order's tickets holds at most: an order's tickets go in statements of this
 * many and one of the rest, so that the statements' texts (one prepared statement each) stay few.
 */
const TICKETS_PER_INSERT = 50;

/**
 * A ticket as an export reads it: ticket_id, ticket_type, ticket_date, event_id, email, category,
 * price_paid, confirmation_code, status, created_at, checked_in_at, cancelled_at, refund_due.
 * Epoch milliseconds may come as strings (MySQL BIGINT).
 */
export type ExportRow = readonly [
  string,
  string,
  string,
  string | null,
  string | null,
  string | null,
  number,
  string,
  string,
  number | string,
  number | string | null,
  number | string | null,
  number | null,
];
const SELECT_EXPORT =
  'SELECT ticket_id, ticket_type, ticket_date, event_id, email, category, price_paid, confirmation_code, status, created_at, ' +
  `checked_in_at, cancelled_at, refund_due FROM ${TICKETS}`;

/**
 * A ticket as a search page reads it, each column in the order its answer names it
 * (tickets.responses.ts, pageRowToResponse): ticket_id, ticket_type, ticket_date, ticket_time,
 * event_id, email, category, price_paid, confirmation_code, status, created_at, checked_in_at,
 * cancelled_at, refund_due, order_id. Epoch milliseconds may come as strings (MySQL BIGINT).
 */
export type TicketPageRow = readonly [
  string,
  TicketType,
  string,
  string | null,
  string | null,
  string | null,
  string | null,
  number,
  string,
  TicketStatus,
  number | string,
  number | string | null,
  number | string | null,
  number | null,
  string | null,
];
const SELECT_PAGE =
  'SELECT ticket_id, ticket_type, ticket_date, ticket_time, event_id, email, category, price_paid, confirmation_code, ' +
  `status, created_at, checked_in_at, cancelled_at, refund_due, order_id FROM ${TICKETS}`;

/** The filters of a search, with their columns, in the order their parameters are bound. */
const SEARCH_COLUMNS = [
  ['eventId', 'event_id'],
  ['ticketDate', 'ticket_date'],
  ['status', 'status'],
  ['email', 'email'],
  ['orderId', 'order_id'],
] as const satisfies readonly (readonly [keyof TicketFilters, string])[];
const BY_ORDER = `${SELECT_TICKET} ${columnOf(Ticket, 'orderId')} = ? ORDER BY ${columnOf(Ticket, 'ticketId')}`;
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

const CANCEL_BY_ID =
  "UPDATE tickets SET status = 'cancelled', cancelled_at = ?, refund_due = price_paid WHERE ticket_id = ? AND status = 'active'";

/** One group of an attendance count: its date, its start time (null: none) and status, and how many tickets (MySQL: maybe a string). */
export interface StatusCount {
  readonly ticket_date: string;
  readonly ticket_time: string | null;
  readonly status: string;
  readonly tickets: number | string;
}
const EVENT_COUNTS =
  'SELECT ticket_date, ticket_time, status, COUNT(*) AS tickets FROM tickets WHERE event_id = ? ' +
  'GROUP BY ticket_date, ticket_time, status';
const GENERAL_COUNTS =
  'SELECT ticket_date, ticket_time, status, COUNT(*) AS tickets FROM tickets ' +
  "WHERE ticket_date = ? AND ticket_type = 'general' GROUP BY ticket_date, ticket_time, status";

const epochOrNull = (value: number | string | null): number | null => (value === null ? null : Number(value));

function toTicket(row: RowOf<Ticket>): Ticket {
  return {
    ...row,
    pricePaid: Number(row.pricePaid),
    createdAt: Number(row.createdAt),
    checkedInAt: epochOrNull(row.checkedInAt),
    cancelledAt: epochOrNull(row.cancelledAt),
    refundDue: row.refundDue === null ? null : Number(row.refundDue),
  };
}

/** The `tickets` table: every statement on it. */
@Injectable()
export class TicketsRepository {
  /**
   * The text of each search's statement, by its select list, then by its shape (searchStatement:
   * a bit per filter given, and one for `after`): one prepared statement each.
   */
  private readonly searches = new Map<string, Map<number, string>>();

  constructor(private readonly sql: Sql) {}

  /**
   * Up to `limit` tickets matching every filter given, in ticket_id order (a UUIDv7: the order of
   * sale), after ticket `after` when given: a keyset page. An equality on an indexed column (the
   * event, the date, the email, the status), then ticket_id, which each of those indexes holds
   * after its own column, so a page reads its rows in order without sorting.
   */
  search(filters: TicketFilters, after: string | undefined, limit: number): Promise<TicketPageRow[]> {
    // Arrays, not an object with named members per row, then no Ticket per row: a page is
    // answered straight from them (pageRowToResponse), as the special events' list is.
    const { sql, parameters } = this.searchStatement(SELECT_PAGE, filters, after, limit);
    return this.sql.select<TicketPageRow>(sql, parameters, { arrays: true });
  }

  /**
   * As search, each ticket as an array in EXPORT_COLUMNS' order (no object per row: an export
   * reads them by the hundred thousand); on MySQL through the binary protocol, exact doubles.
   */
  exportRows(filters: TicketFilters, after: string | undefined, limit: number): Promise<ExportRow[]> {
    const { sql, parameters } = this.searchStatement(SELECT_EXPORT, filters, after, limit);
    return this.sql.select<ExportRow>(sql, parameters, { arrays: true });
  }

  private searchStatement(
    select: string,
    filters: TicketFilters,
    after: string | undefined,
    limit: number,
  ): SqlStatement {
    // The shape (which filters, and whether after a ticket) as bits, and the parameters, in one
    // pass: a page's statement is looked up by a number, not by a text built for every request.
    let shape = after === undefined ? 0 : 1;
    const parameters: unknown[] = [];
    for (let index = 0; index < SEARCH_COLUMNS.length; index++) {
      const value = filters[SEARCH_COLUMNS[index][0]];
      if (value !== undefined) {
        shape |= 2 << index;
        parameters.push(value);
      }
    }
    if (after !== undefined) parameters.push(after);
    parameters.push(limit);
    let texts = this.searches.get(select);
    if (texts === undefined) {
      texts = new Map();
      this.searches.set(select, texts);
    }
    let sql = texts.get(shape);
    if (sql === undefined) {
      const conditions = [
        ...SEARCH_COLUMNS.filter((_, index) => (shape & (2 << index)) !== 0).map(([, column]) => `${column} = ?`),
        ...(after === undefined ? [] : ['ticket_id > ?']),
      ];
      const where = conditions.length === 0 ? '' : ` WHERE ${conditions.join(' AND ')}`;
      const limitSql = limitPlaceholder(this.sql.isMysql ? 'mysql' : 'sqlite');
      sql = `${select}${where} ORDER BY ticket_id LIMIT ${limitSql}`;
      texts.set(shape, sql);
    }
    return { sql, parameters };
  }

  /** The INSERT of a sold ticket, for the transaction that takes its seat or admission. */
  insertStatement(ticket: NewTicket): SqlStatement {
    const { ticketTime, category, ...rest } = ticket;
    // The statement of a sale without a category stays the one it always was (one prepared text each).
    if (category !== null && category !== undefined) {
      return {
        sql: INSERT_CATEGORY_TICKET,
        parameters: [...NEW_TICKET_COLUMNS.map((property) => rest[property]), ticketTime ?? null, category],
      };
    }
    if (ticketTime === null || ticketTime === undefined) {
      return { sql: INSERT_TICKET, parameters: NEW_TICKET_COLUMNS.map((property) => rest[property]) };
    }
    return {
      sql: INSERT_TIMED_TICKET,
      parameters: [...NEW_TICKET_COLUMNS.map((property) => rest[property]), ticketTime],
    };
  }

  /** The INSERTs of an order's tickets, for the transaction that takes their places: a few rows each. */
  insertOrderStatements(tickets: readonly NewOrderTicket[]): SqlStatement[] {
    const statements: SqlStatement[] = [];
    for (let first = 0; first < tickets.length; first += TICKETS_PER_INSERT) {
      const rows = tickets.slice(first, first + TICKETS_PER_INSERT);
      statements.push({
        sql: INSERT_ORDER_TICKETS + ORDER_TICKET_ROW.repeat(rows.length - 1),
        parameters: rows.flatMap((ticket) => ORDER_TICKET_COLUMNS.map((column) => ticket[column])),
      });
    }
    return statements;
  }

  /**
   * What an event's delete adds to its transaction: every ticket of the event not yet cancelled is,
   * at that moment. A checked-in ticket keeps its `checked_in_at`, so both facts stay readable, and
   * is owed nothing (its holder came); an active one is owed what was paid.
   */
  cancelEventTicketsStatement(eventId: string, now: number): SqlStatement {
    // refund_due first: MySQL assigns left to right, so later assignments read the new status.
    return {
      sql:
        "UPDATE tickets SET refund_due = CASE WHEN status = 'active' THEN price_paid ELSE 0 END, status = 'cancelled', " +
        "cancelled_at = ? WHERE event_id = ? AND status <> 'cancelled'",
      parameters: [now, eventId],
    };
  }

  /** cancelEventTicketsStatement for several events at once (a batch of deletes), in one UPDATE. */
  cancelEventsTicketsStatement(eventIds: readonly string[], now: number): SqlStatement {
    return {
      sql:
        "UPDATE tickets SET refund_due = CASE WHEN status = 'active' THEN price_paid ELSE 0 END, status = 'cancelled', " +
        `cancelled_at = ? WHERE event_id IN (${placeholders(eventIds.length)}) AND status <> 'cancelled'`,
      parameters: [now, ...eventIds],
    };
  }

  /**
   * The conditional UPDATE that cancels an active ticket and records what its buyer is owed (what
   * was paid): the guard of the transaction that gives its seat or admission back. The database
   * decides, so of two cancels, or a cancel and a check-in, at the same moment exactly one changes
   * the row; the other finds it cancelled or checked in.
   */
  cancelStatement(ticketId: string, now: number): SqlStatement {
    return { sql: CANCEL_BY_ID, parameters: [now, ticketId] };
  }

  /**
   * Runs every ticket's cancel (cancelStatement) and, only when each changed its row, `releases`
   * (the places given back), in one transaction: whether it did. Nothing is kept when one ticket
   * left `active` since it was read.
   */
  async cancelTogether(cancels: readonly SqlStatement[], releases: readonly SqlStatement[]): Promise<boolean> {
    return 'changed' in (await this.sql.guardedTransaction(cancels, releases));
  }

  /** Of `dates`, those on which the event has an active ticket. */
  async activeDates(eventId: string, dates: readonly string[]): Promise<string[]> {
    const rows = await this.sql.select<Pick<RowOf<Ticket>, 'ticketDate'>>(
      `SELECT DISTINCT ticket_date AS ticketDate FROM tickets WHERE event_id = ? AND status = 'active' AND ticket_date IN (${placeholders(dates.length)})`,
      [eventId, ...dates],
    );
    return rows.map((row) => row.ticketDate);
  }

  /**
   * Of `sessions` (date items `YYYY-MM-DDTHH:MM`), those the event has an active ticket for: a
   * ticket of that date at that time.
   */
  async activeSessions(eventId: string, sessions: readonly string[]): Promise<string[]> {
    const pairs = sessions.map((item) => [item.slice(0, 10), item.slice(11, 16)]);
    const rows = await this.sql.select<Pick<RowOf<Ticket>, 'ticketDate' | 'ticketTime'>>(
      'SELECT DISTINCT ticket_date AS ticketDate, ticket_time AS ticketTime FROM tickets ' +
        `WHERE event_id = ? AND status = 'active' AND (${pairs.map(() => '(ticket_date = ? AND ticket_time = ?)').join(' OR ')})`,
      [eventId, ...pairs.flat()],
    );
    return rows.map((row) => `${row.ticketDate}T${row.ticketTime}`);
  }

  async byId(ticketId: string): Promise<Ticket | null> {
    const [row] = await this.sql.select<RowOf<Ticket>>(BY_ID, [ticketId]);
    return row === undefined ? null : toTicket(row);
  }

  /** The tickets of an order, in the order of sale. */
  async byOrder(orderId: string): Promise<Ticket[]> {
    return (await this.sql.select<RowOf<Ticket>>(BY_ORDER, [orderId])).map(toTicket);
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

  /**
   * An event's tickets counted per date, start time (a session's; null: none) and status, by the
   * database (one row per group, never one per ticket); IDX_tickets_event finds the event's rows.
   */
  eventTicketsPerDate(eventId: string): Promise<StatusCount[]> {
    return this.sql.select<StatusCount>(EVENT_COUNTS, [eventId]);
  }

  /**
   * A date's general tickets counted per start time (null: the whole day) and status, by the
   * database; IDX_tickets_date finds the date's rows.
   */
  generalTicketsPerTime(date: string): Promise<StatusCount[]> {
    return this.sql.select<StatusCount>(GENERAL_COUNTS, [date]);
  }
}
