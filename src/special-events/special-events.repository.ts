import { isUniqueViolation } from '../database/database-errors.js';
import { indexedDates } from '../domain/calendar-dates.js';
import { sessionItems } from '../domain/event-sessions.js';
import type { ReadOptions, Sql, SqlStatement, TransactionOptions } from '../database/sql.js';
import { EventWriteParticipants } from './event-write-participants.js';
import type { SpecialEvent } from './special-event.entity.js';
import type {
  ExpectedRepresentation,
  ListQuery,
  ListResult,
  StoredCursorKey,
} from './special-events.repository.types.js';
import {
  CURSOR_KEYS_SQL,
  type CursorKeyRow,
  cursorKeyOf,
  DATE_SOLD_SQL,
  type DateSoldRow,
  DATES_SOLD_SQL,
  DELETE_DATES_SQL,
  DELETE_IF_SQL,
  DELETE_SQL,
  deleteDatesOfSql,
  deleteEventsSql,
  type EventRow,
  FIND_SQL,
  rowToEvent,
  UPDATE_SQL,
  updateParameters,
} from './special-events.sql.js';
import {
  deleteSessionRows,
  insertSessionRows,
  keepSessionRows,
  SESSION_SOLD_SQL,
  type SessionSoldRow,
  SESSIONS_SOLD_SQL,
} from './session-seats.sql.js';

export {
  type ExpectedRepresentation,
  LIST_WALK_ROWS,
  type ListedEvent,
  type ListPosition,
  type ListQuery,
  type ListResult,
  type StoredCursorKey,
} from './special-events.repository.types.js';

/**
 * Where special events are kept: the one way to their tables (special_events, its date index
 * special_event_dates, its sessions' seats special_event_sessions, cursor_signing_keys), through Sql. The SQL text and row mapping are in
 * special-events.sql.ts; where the databases genuinely differ (an insert's duplicates, the date
 * rows, a list's bounded walk) one subclass per database says how (special-events.repository
 * .sqlite.ts, .mysql.ts), and createSpecialEventsRepository picks one. Writes resolve only once
 * the change is durable, keep the date index and the participants' statements in the same
 * transaction as the event, and leave the decision about duplicates, missing events and stale
 * versions to the database (its primary key, a conditional UPDATE), never to a check-then-act in
 * code. Creates and unconditional deletes are batched writes (Sql.batched): on MySQL those of one
 * turn share one statement and one commit.
 */
export abstract class SpecialEventsRepository {
  private readonly inserts: (event: SpecialEvent) => Promise<boolean>;
  private readonly deletes: (eventId: string) => Promise<boolean>;
  private readonly updates: (update: EventUpdate) => Promise<boolean>;

  constructor(
    protected readonly sql: Sql,
    protected readonly participants = new EventWriteParticipants(),
  ) {
    this.inserts = sql.batched<SpecialEvent>({
      alone: (event) => this.insertAlone(event),
      together: (events) => ({ statements: this.insertStatements(events), atomic: true }),
    });
    this.deletes = sql.batched<string>({
      alone: (eventId) => this.deleteAlone(eventId),
      together: (ids) => (new Set(ids).size === ids.length ? { statements: this.deleteStatements(ids) } : null),
    });
    this.updates = sql.batchedGuarded<EventUpdate>({
      alone: (update) => this.updateAlone(update),
      // Each update's own conditional UPDATE decides it; an event twice in one turn goes alone.
      guards: (updates) =>
        new Set(updates.map(({ event }) => event.eventId)).size === updates.length ? updates.map(updateGuard) : null,
      follow: (passed) => [
        ...passed.flatMap((update) => this.rowsOf(update)),
        ...this.participants.statementsForAll(passed.map(({ event }) => ({ kind: 'updated', event }))),
      ],
    });
  }

  /** Stores the event: true, or false when an event with its `eventId` exists already. */
  insert(event: SpecialEvent): Promise<boolean> {
    return this.inserts(event);
  }

  /**
   * Deletes the event: true, or false when there was none or, given `expected`, when it is no
   * longer that representation (another version, or for an event with a capacity other tickets
   * sold): the database decides, in the DELETE's own condition.
   */
  delete(eventId: string, expected?: ExpectedRepresentation): Promise<boolean> {
    // A conditional delete is rare (If-Match) and has a condition of its own: not batched.
    return expected === undefined ? this.deletes(eventId) : this.deleteAlone(eventId, expected);
  }

  /** The stored event, or null. */
  async find(eventId: string): Promise<SpecialEvent | null> {
    const [row] = await this.sql.select<EventRow>(FIND_SQL, [eventId], EXACT);
    return row === undefined ? null : rowToEvent(row);
  }

  /**
   * At most `query.limit` events, in list order. With a range, the walk of the date index stops
   * after LIST_WALK_ROWS rows (where the database allows it to be bounded: SQLite and MariaDB);
   * a page cut short by that bound says where it stopped (`resumeAt`).
   */
  abstract list(query: ListQuery): Promise<ListResult>;

  /**
   * Replaces the stored event by `event` if its version is still `expectedVersion` and, when
   * `event.capacity` is not null or `soldUnchanged`, its tickets sold are still `event.ticketsSold`
   * (and at most that capacity): true, or false when not (updated meanwhile, deleted, a ticket
   * sold meanwhile, or the capacity below the tickets sold). `event.version` is the new version;
   * tickets sold are kept.
   *
   * `datesRead`, the dates of the version `expectedVersion` (as read before): the date and session
   * rows are rewritten only when the update changes the ISO dates or the sessions. The guard
   * requires that version, and every write of an event writes its rows in the same transaction,
   * so when it passes the rows are already those dates'. Without it, they are rewritten.
   */
  update(
    event: SpecialEvent,
    expectedVersion: number,
    soldUnchanged = false,
    datesRead?: readonly string[],
  ): Promise<boolean> {
    // On MySQL the updates of one turn share one transaction and one commit (Sql.batchedGuarded).
    return this.updates({ event, expectedVersion, soldUnchanged, datesRead });
  }

  /** One update in a transaction of its own: its guard, its rows, the participants'. */
  private async updateAlone(update: EventUpdate): Promise<boolean> {
    const then = [...this.rowsOf(update), ...this.participants.statementsFor({ kind: 'updated', event: update.event })];
    return (await this.sql.transactionIf(updateGuard(update), then, READ_COMMITTED)) !== null;
  }

  /** The update's date and session rows, when it changes the ISO dates or the sessions (update). */
  private rowsOf({ event, datesRead }: EventUpdate): SqlStatement[] {
    const same = (itemsOf: (dates: readonly string[]) => readonly string[]): boolean =>
      datesRead !== undefined && (datesRead === event.dates || sameItems(itemsOf(datesRead), itemsOf(event.dates)));
    return [
      ...(same(indexedDates) ? [] : this.keepDates(event)),
      ...(same(sessionItems) ? [] : keepSessionRows(event, this.sql.isMysql)),
    ];
  }

  /**
   * The tickets sold of each of the event's ISO dates (`YYYY-MM-DD`: its all-day tickets) and of
   * each of its sessions (`YYYY-MM-DDTHH:MM`) that has any (none: absent).
   */
  async soldPerDate(eventId: string): Promise<Map<string, number>> {
    const [dates, sessions] = await Promise.all([
      this.sql.select<DateSoldRow>(DATES_SOLD_SQL, [eventId]),
      this.sql.select<SessionSoldRow>(SESSIONS_SOLD_SQL, [eventId]),
    ]);
    const rows: [string, number][] = [
      ...dates.map((row): [string, number] => [row.event_date, Number(row.tickets_sold)]),
      ...sessions.map((row): [string, number] => [row.session, Number(row.tickets_sold)]),
    ];
    return new Map(rows.filter(([, sold]) => sold > 0));
  }

  /** The tickets sold for one of the event's sessions (0 for a session it does not have). */
  async soldAt(eventId: string, session: string): Promise<number> {
    const [row] = await this.sql.select<Pick<SessionSoldRow, 'tickets_sold'>>(SESSION_SOLD_SQL, [eventId, session]);
    return row === undefined ? 0 : Number(row.tickets_sold);
  }

  /** The tickets sold for one of the event's ISO dates (0 for a date it does not have). */
  async soldOn(eventId: string, date: string): Promise<number> {
    const [row] = await this.sql.select<Pick<DateSoldRow, 'tickets_sold'>>(DATE_SOLD_SQL, [date, eventId]);
    return row === undefined ? 0 : Number(row.tickets_sold);
  }

  /** The keys that sign list cursors, oldest first (the last one signs). */
  async cursorSigningKeys(): Promise<StoredCursorKey[]> {
    return (await this.sql.select<CursorKeyRow>(CURSOR_KEYS_SQL)).map(cursorKeyOf);
  }

  /** The INSERT of these events (several only where batched: MySQL/MariaDB). */
  protected abstract insertEvents(events: readonly SpecialEvent[]): SqlStatement;

  /** The INSERT of these events' date rows, or null when they have no ISO date. */
  protected abstract insertDates(events: readonly SpecialEvent[]): SqlStatement | null;

  /**
   * What makes the updated event's date rows its ISO dates while keeping the rows (and tickets
   * sold) of the dates it keeps: the others' rows deleted, the new dates' rows inserted.
   */
  protected abstract keepDates(event: SpecialEvent): SqlStatement[];

  /** What stores these events: the events, their date rows, the participants' statements. */
  protected insertStatements(events: readonly SpecialEvent[]): SqlStatement[] {
    const statements = [this.insertEvents(events)];
    const dates = this.insertDates(events);
    if (dates !== null) statements.push(dates);
    const sessions = insertSessionRows(events);
    if (sessions !== null) statements.push(sessions);
    statements.push(...this.participants.statementsForAll(events.map((event) => ({ kind: 'created', event }))));
    return statements;
  }

  /** What deletes these events (all of them, else none: Sql.batched): the events, their date rows, the participants'. */
  private deleteStatements(ids: readonly string[]): SqlStatement[] {
    return [
      { sql: deleteEventsSql(ids.length), parameters: ids },
      { sql: deleteDatesOfSql(ids.length), parameters: ids },
      deleteSessionRows(ids),
      ...this.participants.statementsForAll(ids.map((eventId) => ({ kind: 'deleted', eventId }))),
    ];
  }

  /**
   * One create: one statement when that is all there is to write, else a transaction. A
   * duplicate eventId changes no row (SQLite) or fails as a duplicate key (MySQL): false.
   */
  private async insertAlone(event: SpecialEvent): Promise<boolean> {
    const [insert, ...then] = this.insertStatements([event]);
    try {
      if (then.length === 0) return (await this.sql.execute(insert.sql, insert.parameters)) === 1;
      return (await this.sql.transactionIf(insert, then, READ_COMMITTED)) !== null;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** One delete, of any version or of the `expected` representation: the event, its dates, the participants'. */
  private async deleteAlone(eventId: string, expected?: ExpectedRepresentation): Promise<boolean> {
    const guard =
      expected === undefined
        ? { sql: DELETE_SQL, parameters: [eventId] }
        : { sql: DELETE_IF_SQL, parameters: [eventId, expected.version, expected.ticketsSold] };
    const then = [
      { sql: DELETE_DATES_SQL, parameters: [eventId] },
      deleteSessionRows([eventId]),
      ...this.participants.statementsFor({ kind: 'deleted', eventId }),
    ];
    return (await this.sql.transactionIf(guard, then, READ_COMMITTED)) !== null;
  }
}

/** One update's arguments (SpecialEventsRepository.update). */
interface EventUpdate {
  readonly event: SpecialEvent;
  readonly expectedVersion: number;
  readonly soldUnchanged: boolean;
  readonly datesRead?: readonly string[];
}

/** The update's conditional UPDATE: it changes the event's row only while the conditions hold. */
function updateGuard({ event, expectedVersion, soldUnchanged }: EventUpdate): SqlStatement {
  return { sql: UPDATE_SQL, parameters: updateParameters(event, expectedVersion, soldUnchanged) };
}

/** Whether `a` and `b` hold the same items, in any order (each holds an item once). */
function sameItems(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  const items = new Set(a);
  return b.every((item) => items.has(item));
}

/** Reads of events through MySQL's binary protocol: a price reads back exactly as stored. */
const EXACT: ReadOptions = { exact: true };

/** MySQL: writes that name rows which may not exist take no gap locks. */
const READ_COMMITTED: TransactionOptions = { isolation: 'READ COMMITTED' };
