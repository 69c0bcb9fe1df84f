import type { Sql, SqlStatement } from '../database/sql.js';
import { indexedDates, NO_DATE } from '../domain/calendar-dates.js';
import type { EventWriteParticipants } from './event-write-participants.js';
import type { SpecialEvent } from './special-event.entity.js';
import { type ListQuery, type ListResult, SpecialEventsRepository } from './special-events.repository.js';
import {
  DELETE_OTHER_DATES_SQL,
  eventValues,
  INSERT_DATES_SQL,
  INSERT_NEW_DATES_SQL,
  isRanged,
  listSql,
  type RawListRow,
  rawToListed,
  SQLITE_INSERT_SQL,
  walkEndSql,
} from './special-events.sql.js';

/** Rows as arrays: no object with named members per row (a tenth of a page's SQLite time). */
const ARRAYS = { arrays: true } as const;

/**
 * SQLite: every write is one unit of the connection's group commit (Sql), so that requests
 * arriving together share one transaction and one fsync; nothing is batched here. A duplicate
 * `eventId` is `ON CONFLICT DO NOTHING` (no row changed) rather than an exception, which would
 * cost the group commit a second run with savepoints. An event's date rows are one statement
 * over the JSON array of its dates (json_each), whatever their number. Reads never wait for a
 * writer (WAL).
 */
export class SqliteSpecialEventsRepository extends SpecialEventsRepository {
  constructor(sql: Sql, participants?: EventWriteParticipants) {
    super(sql, participants);
  }

  protected insertEvents(events: readonly SpecialEvent[]): SqlStatement {
    if (events.length !== 1) throw new Error('SQLite inserts one event per statement');
    return { sql: SQLITE_INSERT_SQL, parameters: eventValues(events[0]) };
  }

  protected insertDates(events: readonly SpecialEvent[]): SqlStatement | null {
    if (events.length !== 1) throw new Error('SQLite inserts the dates of one event per statement');
    const [event] = events;
    if (event.sortDate === NO_DATE) return null;
    return { sql: INSERT_DATES_SQL, parameters: [event.eventId, JSON.stringify(indexedDates(event.dates))] };
  }

  protected keepDates(event: SpecialEvent): SqlStatement[] {
    const dates = JSON.stringify(indexedDates(event.dates));
    return [
      { sql: DELETE_OTHER_DATES_SQL, parameters: [event.eventId, dates] },
      { sql: INSERT_NEW_DATES_SQL, parameters: [event.eventId, dates] },
    ];
  }

  async list(query: ListQuery): Promise<ListResult> {
    const { sql, parameters } = listSql(query, { walk: 'subquery' });
    const events = (await this.sql.select<RawListRow>(sql, parameters, ARRAYS)).map(rawToListed);
    if (events.length >= query.limit || !isRanged(query)) return { events };
    // Short: the last page, or the walk reached its bound (then its end row exists).
    const walkEnd = walkEndSql(query);
    const [end] = await this.sql.select<{ event_date: string; event_id: string }>(walkEnd.sql, walkEnd.parameters);
    return { events, resumeAt: end ? { key: end.event_date, eventId: end.event_id } : undefined };
  }
}
