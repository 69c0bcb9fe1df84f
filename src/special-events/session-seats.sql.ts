import { sessionItems } from '../domain/event-sessions.js';
import type { SqlStatement } from '../database/sql.js';
import { placeholders } from '../database/sql-placeholders.js';
import type { SpecialEvent } from './special-event.entity.js';

/*
 * The statements on special_event_sessions: one row per session of an event (a date item
 * `YYYY-MM-DDTHH:MM`), whose tickets_sold a session's sale takes its seat from. Written in the
 * event's own transaction (create, update, delete), so an event's session rows are always its
 * sessions. The same text serves SQLite and MySQL/MariaDB but for an insert's duplicates.
 */

/** The tickets sold of each of an event's sessions. Parameters: the eventId. */
export const SESSIONS_SOLD_SQL = 'SELECT session, tickets_sold FROM special_event_sessions WHERE event_id = ?';
/** The tickets sold of one session of an event. Parameters: the eventId, the session item. */
export const SESSION_SOLD_SQL = 'SELECT tickets_sold FROM special_event_sessions WHERE event_id = ? AND session = ?';

export interface SessionSoldRow {
  readonly session: string;
  readonly tickets_sold: number | string;
}

/**
 * A session's seat: one more sold on the session's row, while fewer than the event's
 * capacityPerDate (as read with the version the same sale's EVENT_SEATS update requires; NULL: no
 * limit) are sold. No row (not one of the event's sessions): nothing changes, and the sale with
 * it. Parameters: the eventId, the session item, the capacityPerDate twice.
 */
export const TAKE_SESSION_SEAT_SQL =
  'UPDATE special_event_sessions SET tickets_sold = tickets_sold + 1 ' +
  'WHERE event_id = ? AND session = ? AND (? IS NULL OR tickets_sold < ?)';

/** A session's seat given back (a cancelled ticket). Parameters: the eventId, the session item. */
export const GIVE_SESSION_SEAT_SQL =
  'UPDATE special_event_sessions SET tickets_sold = tickets_sold - 1 WHERE event_id = ? AND session = ? AND tickets_sold > 0';

/** The session rows of new events (none: null). */
export function insertSessionRows(events: readonly SpecialEvent[]): SqlStatement | null {
  // Loops, not flatMap: every create asks, and most events have no session (no row, null).
  const parameters: string[] = [];
  for (const event of events) for (const session of sessionItems(event.dates)) parameters.push(event.eventId, session);
  if (parameters.length === 0) return null;
  const values = Array.from({ length: parameters.length / 2 }, () => '(?, ?)').join(', ');
  return { sql: `INSERT INTO special_event_sessions (event_id, session) VALUES ${values}`, parameters };
}

/**
 * What makes an updated event's session rows its sessions, keeping the rows (and tickets sold) of
 * the sessions it keeps: the others' rows deleted, the new sessions' rows inserted.
 */
export function keepSessionRows(event: SpecialEvent, mysql: boolean): SqlStatement[] {
  const sessions = sessionItems(event.dates);
  if (sessions.length === 0) return [deleteSessionRows([event.eventId])];
  const values = sessions.map(() => '(?, ?)').join(', ');
  return [
    {
      sql: `DELETE FROM special_event_sessions WHERE event_id = ? AND session NOT IN (${placeholders(sessions.length)})`,
      parameters: [event.eventId, ...sessions],
    },
    {
      sql:
        `INSERT INTO special_event_sessions (event_id, session) VALUES ${values} ` +
        (mysql ? 'ON DUPLICATE KEY UPDATE event_id = event_id' : 'ON CONFLICT DO NOTHING'),
      parameters: sessions.flatMap((session) => [event.eventId, session]),
    },
  ];
}

/** The delete of one event's session rows: every delete of one event runs it, text built once. */
const DELETE_SESSIONS_OF_ONE_SQL = 'DELETE FROM special_event_sessions WHERE event_id IN (?)';

/** The delete of the session rows of these events. */
export function deleteSessionRows(ids: readonly string[]): SqlStatement {
  const sql =
    ids.length === 1
      ? DELETE_SESSIONS_OF_ONE_SQL
      : `DELETE FROM special_event_sessions WHERE event_id IN (${placeholders(ids.length)})`;
  return { sql, parameters: ids };
}
