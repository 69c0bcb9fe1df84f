import type { SqlStatement, SqlStatements } from '../database/sql-statements.js';
import type { SpecialEvent } from './special-event.entity.js';

/**
 * One seat of an event: one more ticket sold, only while the event still exists at the version
 * read, `date` is one of its ISO dates (the date index) and its capacity, if any, is not reached.
 * Parameters: eventId, version, eventId, date.
 */
const TAKE_SEAT_SQL =
  'UPDATE special_events SET tickets_sold = tickets_sold + 1 ' +
  'WHERE event_id = ? AND version = ? AND (capacity IS NULL OR tickets_sold < capacity) ' +
  'AND EXISTS (SELECT 1 FROM special_event_dates d WHERE d.event_id = ? AND d.event_date = ?)';

/**
 * The seats of special events, decided by the database: the guard above and the statements that
 * go with a seat (a ticket row) in one transaction, joining SQLite's group commit, retried on
 * MySQL deadlocks and Galera certification conflicts (SqlStatements.transactionIf).
 */
export class EventSeats {
  constructor(private readonly sql: SqlStatements) {}

  /** Takes one seat of `event` (as read) on `date` and runs `joined` with it: true, or false (nothing ran). */
  async take(event: SpecialEvent, date: string, joined: readonly SqlStatement[]): Promise<boolean> {
    const guard = { sql: TAKE_SEAT_SQL, parameters: [event.eventId, event.version, event.eventId, date] };
    return (await this.sql.transactionIf(guard, joined)) !== null;
  }
}
