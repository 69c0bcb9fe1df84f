import type { Sql, SqlStatement } from '../database/sql.js';
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
 * MySQL deadlocks and Galera certification conflicts (Sql.transactionIf).
 */
export class EventSeats {
  /** Per event, the last seat transaction of this instance's queue (MySQL/MariaDB only). */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly sql: Sql) {}

  /**
   * Takes one seat of `event` (as read) on `date` and runs `joined` with it: true, or false (nothing ran).
   * On MySQL/MariaDB an instance runs one seat transaction per event at a time: they all write the
   * event's row, so more at once only wait for its lock, and on Galera each commit from another
   * node aborts the one holding it here; one at a time, a loser tries again at once against one
   * rival per node instead of queueing behind dozens (an on-sale over two nodes ran out of
   * retries otherwise). SQLite needs no queue: its group commit already runs them in turn.
   */
  async take(event: SpecialEvent, date: string, joined: readonly SqlStatement[]): Promise<boolean> {
    // Sold out as read: the guard could only refuse (tickets sold never go down, and a change of
    // the capacity is a new version). No transaction, and no place in the queue.
    if (event.capacity !== null && event.ticketsSold >= event.capacity) return false;
    const guard = { sql: TAKE_SEAT_SQL, parameters: [event.eventId, event.version, event.eventId, date] };
    return (await this.inTurn(event.eventId, () => this.sql.transactionIf(guard, joined))) !== null;
  }

  /** Runs `work` in the event's turn with this instance's seat transactions (MySQL/MariaDB; SQLite at once). */
  async inTurn<T>(eventId: string, work: () => Promise<T>): Promise<T> {
    if (!this.sql.isMysql) return work();
    const run = (this.queues.get(eventId) ?? Promise.resolve()).then(work);
    const tail = run.catch(() => undefined);
    this.queues.set(eventId, tail);
    try {
      return await run;
    } finally {
      if (this.queues.get(eventId) === tail) this.queues.delete(eventId);
    }
  }
}
