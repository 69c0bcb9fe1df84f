import type Database from 'better-sqlite3';
import type { DataSource } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';
import { sqliteConnectionOf } from '../database/driver-handles.js';
import { SqliteGroupCommit } from '../database/sqlite-group-commit.js';
import { indexedDates, NO_DATE } from '../domain/calendar-dates.js';
import { type EventChange, EventWriteParticipants } from './event-write-participants.js';
import { SpecialEvent } from './special-event.entity.js';
import {
  type ExpectedRepresentation,
  type ListQuery,
  type ListResult,
  SpecialEventsRepository,
  type StoredCursorKey,
} from './special-events.repository.js';
import {
  CURSOR_KEYS_SQL,
  type CursorKeyRow,
  cursorKeyOf,
  DELETE_DATES_SQL,
  DELETE_IF_SQL,
  type EventRow,
  FIND_SQL,
  INSERT_DATES_SQL,
  isRanged,
  listSql,
  type RawListRow,
  rawToListed,
  rowToEvent,
  sqliteEventWrites,
  UPDATE_SQL,
  updateParameters,
  walkEndSql,
} from './special-events.sql.js';
/**
 * SQLite: statements prepared once from the entity's metadata (TypeORM would build the SQL and
 * go through its query runner on every call), run through the connection's group commit, so
 * that requests arriving together share one transaction and one fsync. A duplicate `eventId` is
 * `ON CONFLICT DO NOTHING` (no row changed) rather than an exception. A write of more than one
 * statement (an event and its dates) is one unit of the group commit, undone as a whole if any
 * of it fails. Reads are prepared statements too, and never wait for a writer (WAL). Each
 * statement is logged through TypeORM's logger as its own queries are, in the request's context
 * (its request id).
 */
export class SqliteSpecialEventsRepository extends SpecialEventsRepository {
  private readonly columns: readonly ColumnMetadata[];
  private current?: SqliteConnection;

  constructor(
    private readonly dataSource: DataSource,
    private readonly participants = new EventWriteParticipants(),
  ) {
    super();
    this.columns = dataSource.getMetadata(SpecialEvent).columns;
  }

  insert(event: SpecialEvent): Promise<boolean> {
    const { driver } = this.dataSource;
    const values = this.columns.map(
      (column) => driver.preparePersistentValue(column.getEntityValue(event), column) as unknown,
    );
    const { groupCommit, insert, insertDates } = this.connection();
    const joined = this.joined({ kind: 'created', event });
    this.dataSource.logger.logQuery(insert.source);
    if (event.sortDate === NO_DATE && joined.length === 0) {
      return groupCommit.writeStatement(() => insert.run(values).changes === 1);
    }
    const dates = event.sortDate === NO_DATE ? undefined : JSON.stringify(indexedDates(event.dates));
    if (dates !== undefined) this.dataSource.logger.logQuery(insertDates.source);
    return groupCommit.write(() => {
      if (insert.run(values).changes !== 1) return false;
      if (dates !== undefined) insertDates.run(event.eventId, dates);
      for (const run of joined) run();
      return true;
    });
  }

  delete(eventId: string, expected?: ExpectedRepresentation): Promise<boolean> {
    const { groupCommit, delete: removeAny, deleteIf, deleteDates } = this.connection();
    const joined = this.joined({ kind: 'deleted', eventId });
    const remove = expected === undefined ? removeAny : deleteIf;
    const parameters = expected === undefined ? [eventId] : [eventId, expected.version, expected.ticketsSold];
    this.dataSource.logger.logQuery(remove.source);
    this.dataSource.logger.logQuery(deleteDates.source);
    return groupCommit.write(() => {
      if (remove.run(parameters).changes !== 1) return false;
      deleteDates.run(eventId);
      for (const run of joined) run();
      return true;
    });
  }

  update(event: SpecialEvent, expectedVersion: number, soldUnchanged = false): Promise<boolean> {
    const { groupCommit, update, deleteDates, insertDates } = this.connection();
    const parameters = updateParameters(event, expectedVersion, soldUnchanged);
    const dates = JSON.stringify(indexedDates(event.dates));
    const joined = this.joined({ kind: 'updated', event });
    this.dataSource.logger.logQuery(update.source);
    return groupCommit.write(() => {
      if (update.run(parameters).changes !== 1) return false;
      deleteDates.run(event.eventId);
      insertDates.run(event.eventId, dates);
      for (const run of joined) run();
      return true;
    });
  }

  /** The participants' statements for `change`, prepared (once per SQL text) and ready to run. */
  private joined(change: EventChange): (() => void)[] {
    return this.participants.statementsFor(change).map(({ sql, parameters }) => {
      const statement = this.prepared(sql);
      return () => statement.run([...parameters]);
    });
  }

  find(eventId: string): Promise<SpecialEvent | null> {
    return new Promise((resolve) => {
      const row = this.prepared(FIND_SQL).get(eventId) as EventRow | undefined;
      resolve(row ? rowToEvent(row) : null);
    });
  }

  list(query: ListQuery): Promise<ListResult> {
    return new Promise((resolve) => {
      const { sql, parameters } = listSql(query, { walk: 'subquery' });
      // Rows as arrays: no object with named members per row (a tenth of a page's SQLite time,
      // about what the bounded walk costs).
      const events = (this.prepared(sql).raw(true).all(parameters) as RawListRow[]).map(rawToListed);
      if (events.length >= query.limit || !isRanged(query)) {
        resolve({ events });
        return;
      }
      // Short: the last page, or the walk reached its bound (then its end row exists).
      const walkEnd = walkEndSql(query);
      const end = this.prepared(walkEnd.sql).get(walkEnd.parameters) as
        { event_date: string; event_id: string } | undefined;
      resolve({ events, resumeAt: end ? { key: end.event_date, eventId: end.event_id } : undefined });
    });
  }

  cursorSigningKeys(): Promise<StoredCursorKey[]> {
    return new Promise((resolve) => resolve((this.prepared(CURSOR_KEYS_SQL).all() as CursorKeyRow[]).map(cursorKeyOf)));
  }

  /**
   * A statement of the current connection, prepared on its first use (the reads' handful of
   * shapes, and the participants' statements).
   */
  private prepared(sql: string): Database.Statement {
    const { statements, db } = this.connection();
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    this.dataSource.logger.logQuery(sql);
    return statement;
  }

  /**
   * The statements of the DataSource's current connection, prepared on first use (when the
   * migrations have surely run) and again whenever TypeORM opened a new connection (a DataSource
   * destroyed and initialized again). On a closed connection, preparing throws "The database
   * connection is not open", which is answered 503.
   */
  private connection(): SqliteConnection {
    const db = sqliteConnectionOf(this.dataSource);
    if (db === undefined) throw new Error('The database connection is not open');
    if (this.current?.db !== db) {
      const { insert, delete: remove } = sqliteEventWrites(this.dataSource);
      this.current = {
        db,
        groupCommit: SqliteGroupCommit.of(db),
        insert: db.prepare(insert),
        delete: db.prepare(remove),
        deleteIf: db.prepare(DELETE_IF_SQL),
        update: db.prepare(UPDATE_SQL),
        insertDates: db.prepare(INSERT_DATES_SQL),
        deleteDates: db.prepare(DELETE_DATES_SQL),
        statements: new Map(),
      };
    }
    return this.current;
  }
}

interface SqliteConnection {
  readonly db: Database.Database;
  readonly groupCommit: SqliteGroupCommit;
  readonly insert: Database.Statement;
  readonly delete: Database.Statement;
  /** Parameters: eventId, version, ticketsSold (DELETE_IF_SQL). */
  readonly deleteIf: Database.Statement;
  readonly update: Database.Statement;
  /** Parameters: the eventId, then the JSON array of its distinct ISO dates. */
  readonly insertDates: Database.Statement;
  readonly deleteDates: Database.Statement;
  readonly statements: Map<string, Database.Statement>;
}
