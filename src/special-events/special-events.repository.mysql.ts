import type { Sql, SqlStatement } from '../database/sql.js';
import type { EventWriteParticipants } from './event-write-participants.js';
import type { SpecialEvent } from './special-event.entity.js';
import {
  type ListedEvent,
  type ListQuery,
  type ListResult,
  SpecialEventsRepository,
} from './special-events.repository.js';
import { indexedDates } from '../domain/calendar-dates.js';
import {
  dateRows,
  DELETE_DATES_SQL,
  deleteOtherDatesSql,
  type EventRow,
  eventValues,
  insertDateRowsSql,
  insertEventsSql,
  insertNewDateRowsSql,
  isRanged,
  isRowsExaminedAbort,
  listSql,
  rowToListed,
  walkEndSql,
} from './special-events.sql.js';

/** Reads through the binary protocol: a price reads back exactly as stored (Sql's ReadOptions). */
const EXACT = { exact: true } as const;

/**
 * MySQL/MariaDB: the creates and deletes of one turn share one statement and one commit (Sql's
 * batched writes): one multi-row INSERT of the events (and, for events with ISO dates, one of
 * their date rows, in the same transaction), one `DELETE … WHERE event_id IN (…)`. A duplicate
 * eventId fails an INSERT whole (no `ON CONFLICT` here), so each create of a refused batch goes
 * again alone, and a duplicate gets its 409 from the primary key.
 */
export class MysqlSpecialEventsRepository extends SpecialEventsRepository {
  private mariadb?: Promise<boolean>;

  constructor(sql: Sql, participants?: EventWriteParticipants) {
    super(sql, participants);
  }

  protected insertEvents(events: readonly SpecialEvent[]): SqlStatement {
    return { sql: insertEventsSql(events.length), parameters: events.flatMap(eventValues) };
  }

  protected insertDates(events: readonly SpecialEvent[]): SqlStatement | null {
    const rows = dateRows(events);
    if (rows.length === 0) return null;
    return {
      sql: insertDateRowsSql(rows.length),
      parameters: rows.flatMap(({ eventDate, eventId }) => [eventDate, eventId]),
    };
  }

  protected keepDates(event: SpecialEvent): SqlStatement[] {
    const dates = indexedDates(event.dates);
    if (dates.length === 0) return [{ sql: DELETE_DATES_SQL, parameters: [event.eventId] }];
    return [
      { sql: deleteOtherDatesSql(dates.length), parameters: [event.eventId, ...dates] },
      {
        sql: insertNewDateRowsSql(dates.length),
        parameters: dates.flatMap((date) => [date, event.eventId]),
      },
    ];
  }

  /**
   * On MariaDB the walk is bounded by ROWS EXAMINED: a page that comes back short was either the
   * last or cut by that bound, so it is read again, bounded by the walk's end row when there is
   * one (and then says to resume there). MySQL has no such bound: its walk ends with the range.
   */
  async list(query: ListQuery): Promise<ListResult> {
    const mariadb = isRanged(query) && (await this.isMariadb());
    const { sql, parameters } = listSql(query, mariadb ? { walk: 'rows-examined' } : {});
    let events: ListedEvent[] = [];
    try {
      events = (await this.sql.select<EventRow>(sql, parameters, EXACT)).map(rowToListed);
    } catch (error) {
      // A plan with a sort (MariaDB picks one for some small ranges) is aborted by ROWS EXAMINED
      // with an error rather than cut short: the bounded read below answers instead.
      if (!mariadb || !isRowsExaminedAbort(error)) throw error;
    }
    if (!mariadb || events.length >= query.limit) return { events };
    const walkEnd = walkEndSql(query);
    const [end] = await this.sql.select<{ event_date: string; event_id: string }>(
      walkEnd.sql,
      walkEnd.parameters,
      EXACT,
    );
    const upTo = end ? { key: end.event_date, eventId: end.event_id } : undefined;
    const bounded = listSql({ ...query, upTo });
    return {
      events: (await this.sql.select<EventRow>(bounded.sql, bounded.parameters, EXACT)).map(rowToListed),
      resumeAt: upTo,
    };
  }

  private isMariadb(): Promise<boolean> {
    this.mariadb ??= this.sql
      .select<{ version: string }>('SELECT VERSION() AS version')
      .then((rows) => /mariadb/i.test(rows[0]?.version ?? ''))
      .catch((error: unknown) => {
        this.mariadb = undefined;
        throw error;
      });
    return this.mariadb;
  }
}
