import type Database from 'better-sqlite3';
import type { PoolConnection, RowDataPacket } from 'mysql2';
import { type DataSource, type EntityManager, In, type Repository } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';
import type { DatabasePoolConfig } from '../config/app-config.js';
import { isRefusedByServer, isRolledBack, isUniqueViolation } from '../database/database-errors.js';
import { mysqlPoolOf, sqliteConnectionOf } from '../database/driver-handles.js';
import { SqliteGroupCommit } from '../database/sqlite-group-commit.js';
import { type Pending, TurnBatcher } from '../database/turn-batcher.js';
import { indexedDates, NO_DATE } from '../domain/calendar-dates.js';
import { limitPlaceholder } from '../database/sql-limit.js';
import { type EventChange, EventWriteParticipants, type SqlStatement } from './event-write-participants.js';
import { SpecialEvent, SpecialEventDate } from './special-event.entity.js';

/**
 * What a list asks for: the events with an ISO date in [start, end] (either bound optional; with
 * neither, every event), in list order, from `after` on (keyset) or skipping `offset` events.
 */
export interface ListQuery {
  readonly start?: string;
  readonly end?: string;
  readonly after?: ListPosition;
  /** With a range: walk the date index no further than this row (inclusive). */
  readonly upTo?: ListPosition;
  readonly offset?: number;
  readonly limit: number;
}

/**
 * The most date rows one page of a ranged list walks. Events with many dates in the range have
 * rows that are not their first in it, and are skipped; without a bound, the last page of 10,000
 * events with 100 dates each walked a million rows (seconds, holding SQLite's event loop). A page
 * whose walk reaches the bound comes back short, with `resumeAt`: the next page continues there.
 */
export const LIST_WALK_ROWS = 2_000;

/** The date rows a page may walk: LIST_WALK_ROWS beyond the rows a numbered page skips. */
function walkRows(query: ListQuery): number {
  return LIST_WALK_ROWS + (query.offset ?? 0);
}

/** A page of a list: the events found and, when the walk stopped at its bound, where to go on. */
export interface ListResult {
  readonly events: ListedEvent[];
  readonly resumeAt?: ListPosition;
}

/**
 * An event's place in a list: its order key (the earliest of its ISO dates in the range asked
 * for; without a range its earliest ISO date, or NO_DATE) and its eventId.
 */
export interface ListPosition {
  readonly key: string;
  readonly eventId: string;
}

/** What a conditional delete requires of the stored event: what its ETag names. */
export interface ExpectedRepresentation {
  readonly version: number;
  readonly ticketsSold: number;
}

export interface ListedEvent {
  readonly event: SpecialEvent;
  readonly position: ListPosition;
}

/**
 * Where special events are kept. Writes resolve only once the change is durable, keep the date
 * index (special_event_dates) in the same transaction as the event, and leave the decision about
 * duplicates, missing events and stale versions to the database (its primary key, a conditional
 * UPDATE), never to a check-then-act in code.
 */
export abstract class SpecialEventsStore {
  /** Stores the event: true, or false when an event with its `eventId` exists already. */
  abstract insert(event: SpecialEvent): Promise<boolean>;

  /**
   * Deletes the event: true, or false when there was none or, given `expected`, when it is no
   * longer that representation (another version, or for an event with a capacity other tickets
   * sold): the database decides, in the DELETE's own condition.
   */
  abstract delete(eventId: string, expected?: ExpectedRepresentation): Promise<boolean>;

  /** The stored event, or null. */
  abstract find(eventId: string): Promise<SpecialEvent | null>;

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
   */
  abstract update(event: SpecialEvent, expectedVersion: number, soldUnchanged?: boolean): Promise<boolean>;
}

/** The columns every read selects (rowToEvent reads them by name, RawListRow by this order). */
const EVENT_COLUMNS =
  'e.event_id, e.name, e.location, e.event_description, e.dates, e.price, e.version, e.sort_date, e.capacity, e.tickets_sold';

interface EventRow {
  readonly event_id: string;
  readonly name: string;
  readonly location: string;
  readonly event_description: string;
  /** JSON text (SQLite, MariaDB) or already parsed (MySQL 8). */
  readonly dates: string | string[];
  readonly price: number;
  readonly version: number | string;
  readonly sort_date: string;
  readonly capacity: number | string | null;
  readonly tickets_sold: number | string;
  readonly list_key?: string;
}

function rowToEvent(row: EventRow): SpecialEvent {
  return {
    eventId: row.event_id,
    name: row.name,
    location: row.location,
    eventDescription: row.event_description,
    dates: typeof row.dates === 'string' ? (JSON.parse(row.dates) as string[]) : row.dates,
    price: row.price,
    version: Number(row.version),
    sortDate: row.sort_date,
    capacity: row.capacity === null ? null : Number(row.capacity),
    ticketsSold: Number(row.tickets_sold),
  };
}

/** A list row as an array, in EVENT_COLUMNS' order and then the list key. */
type RawListRow = readonly [
  string,
  string,
  string,
  string,
  string,
  number,
  number | string,
  string,
  number | null,
  number,
  string,
];

function rawToListed(row: RawListRow): ListedEvent {
  const [eventId, name, location, eventDescription, dates, price, version, sortDate, capacity, ticketsSold, listKey] =
    row;
  return {
    event: {
      eventId,
      name,
      location,
      eventDescription,
      dates: JSON.parse(dates) as string[],
      price,
      version: Number(version),
      sortDate,
      capacity: capacity === null ? null : Number(capacity),
      ticketsSold: Number(ticketsSold),
    },
    position: { key: listKey, eventId },
  };
}

function rowToListed(row: EventRow): ListedEvent {
  return { event: rowToEvent(row), position: { key: row.list_key ?? row.sort_date, eventId: row.event_id } };
}

/** Bounds of the date index: every ISO date lies between them. */
const FIRST_DATE = '0000-01-01';
const LAST_DATE = '9999-12-31';

/**
 * The SQL of a list and its parameters, the same on both databases (unquoted names, `?`
 * placeholders, LIMIT and OFFSET too, so that one prepared statement serves every page) but for
 * LIMIT's placeholder on SQLite (limitPlaceholder: a bare `?` there is prepared again on each run).
 *
 * - Without a range: the events in (sort_date, event_id) order, an index of special_events.
 * - With a range: the date index in (event_date, event_id) order, from the range's start (or the
 *   cursor's position) on, keeping a row only when it is its event's first date in the range
 *   (NOT EXISTS on the (event_id, event_date) index), so each event comes once, at its first date
 *   in the range. The walk is bounded (LIST_WALK_ROWS): as a subquery that SQLite runs as a
 *   co-routine (`walk: 'subquery'`), or by MariaDB's ROWS EXAMINED (`walk: 'rows-examined'`).
 * Both walks stop once the page has its rows: a page costs the same at any depth.
 */
export function listSql(
  query: ListQuery,
  options: { readonly walk?: 'subquery' | 'rows-examined' } = {},
): { sql: string; parameters: (string | number)[] } {
  const { after, upTo } = query;
  const paging = [query.limit, query.offset ?? 0];
  const limit = limitPlaceholder(options.walk === 'subquery' ? 'sqlite' : 'mysql');
  if (query.start === undefined && query.end === undefined) {
    return {
      sql: listStatement(`${after ? 'all-after' : 'all'}${limit}`, () => allSql(after !== undefined, limit)),
      parameters: [...(after ? [after.key, after.key, after.eventId] : []), ...paging],
    };
  }
  const start = query.start ?? FIRST_DATE;
  const parameters = walkParameters(query);
  const shape = `${after ? 'after' : ''}${upTo ? '-upto' : ''}`;
  if (options.walk === 'subquery') {
    return {
      sql: listStatement(`subquery${shape}`, () => rangedSql(query, 'subquery', limit)),
      parameters: [...parameters, walkRows(query), start, ...paging],
    };
  }
  // MariaDB stops a statement after so many examined rows (each walked row is examined about
  // three times: the date row, the NOT EXISTS probe, the event); MySQL has no such clause. A
  // literal (the clause takes no placeholder), rounded up to a power of two so that the deeper
  // numbered pages share a few statements.
  const examined = options.walk === 'rows-examined' ? 2 ** Math.ceil(Math.log2(walkRows(query) * 4)) : 0;
  return {
    sql: listStatement(`join${shape}-${examined}`, () => rangedSql(query, examined, limit)),
    parameters: [...parameters, start, ...paging],
  };
}

/** The statements by shape: built once, not on every page (and the same string every time). */
const LIST_STATEMENTS = new Map<string, string>();

function listStatement(shape: string, build: () => string): string {
  let sql = LIST_STATEMENTS.get(shape);
  if (sql === undefined) {
    sql = build();
    LIST_STATEMENTS.set(shape, sql);
  }
  return sql;
}

/** A list without a range: the events in (sort_date, event_id) order, from the cursor's on when `after`. */
function allSql(after: boolean, limit: string): string {
  return (
    `SELECT ${EVENT_COLUMNS}, e.sort_date AS list_key FROM special_events e ` +
    `${after ? 'WHERE e.sort_date >= ? AND (e.sort_date > ? OR e.event_id > ?) ' : ''}` +
    `ORDER BY e.sort_date, e.event_id LIMIT ${limit} OFFSET ?`
  );
}

/** A ranged list: the bounded walk as a subquery (SQLite), or the join, with ROWS EXAMINED when `examined`. */
function rangedSql(query: ListQuery, walk: 'subquery' | number, limit: string): string {
  const where = walkConditions(query);
  const first =
    'NOT EXISTS (SELECT 1 FROM special_event_dates f WHERE f.event_id = d.event_id AND f.event_date >= ? AND f.event_date < d.event_date)';
  if (walk === 'subquery') {
    // SQLite runs the bounded walk as a co-routine in index order and stops it once the page has
    // its rows: as cheap as the unbounded walk when the page fills early.
    return (
      `SELECT ${EVENT_COLUMNS}, d.event_date AS list_key FROM ` +
      `(SELECT w.event_date, w.event_id FROM special_event_dates w WHERE ${where.replaceAll('d.', 'w.')} ORDER BY w.event_date, w.event_id LIMIT ${limit}) d ` +
      `JOIN special_events e ON e.event_id = d.event_id WHERE ${first} ` +
      `ORDER BY d.event_date, d.event_id LIMIT ${limit} OFFSET ?`
    );
  }
  return (
    `SELECT ${EVENT_COLUMNS}, d.event_date AS list_key FROM special_event_dates d ` +
    `JOIN special_events e ON e.event_id = d.event_id ` +
    `WHERE ${where} AND ${first} ` +
    `ORDER BY d.event_date, d.event_id LIMIT ${limit} OFFSET ?${walk > 0 ? ` ROWS EXAMINED ${walk}` : ''}`
  );
}

/** The conditions on the date rows a ranged list walks: from the range's start or the cursor on, up to `upTo`. */
function walkConditions(query: ListQuery): string {
  const conditions = ['d.event_date >= ?', 'd.event_date <= ?'];
  if (query.after) conditions.push('(d.event_date > ? OR d.event_id > ?)');
  if (query.upTo) conditions.push('(d.event_date < ? OR d.event_id <= ?)');
  return conditions.join(' AND ');
}

/** walkConditions' parameters. */
function walkParameters(query: ListQuery): string[] {
  const { after, upTo } = query;
  const start = query.start ?? FIRST_DATE;
  let end = query.end ?? LAST_DATE;
  if (upTo && upTo.key < end) end = upTo.key;
  const from = after && after.key > start ? after.key : start;
  const parameters = [from, end];
  if (after) parameters.push(after.key, after.eventId);
  if (upTo) parameters.push(upTo.key, upTo.eventId);
  return parameters;
}

/**
 * The last row a bounded walk of this ranged list reaches (its walkRows-th date row), or
 * nothing when the range has fewer rows left: the walk then ends with the range.
 */
export function walkEndSql(query: ListQuery): { sql: string; parameters: (string | number)[] } {
  const unbounded = { ...query, upTo: undefined };
  return {
    sql: `SELECT d.event_date AS event_date, d.event_id AS event_id FROM special_event_dates d WHERE ${walkConditions(unbounded)} ORDER BY d.event_date, d.event_id LIMIT 1 OFFSET ?`,
    parameters: [...walkParameters(unbounded), walkRows(query) - 1],
  };
}

/** MariaDB's ER_FILSORT_ABORT (1028, "Sort aborted: LIMIT ROWS EXAMINED"), as mysql2 or TypeORM reports it. */
function isRowsExaminedAbort(error: unknown): boolean {
  const { code, errno, driverError } = (error ?? {}) as { code?: unknown; errno?: unknown; driverError?: unknown };
  if (code === 'ER_FILSORT_ABORT' || errno === 1028) return true;
  return driverError !== undefined && driverError !== error && isRowsExaminedAbort(driverError);
}

function isRanged(query: ListQuery): boolean {
  return query.start !== undefined || query.end !== undefined;
}

const FIND_SQL = `SELECT ${EVENT_COLUMNS} FROM special_events e WHERE e.event_id = ?`;
/**
 * The delete of one representation (If-Match): the version read and, for an event with a capacity,
 * the tickets sold read (its ETag covers them). Parameters: eventId, version, ticketsSold.
 */
const DELETE_IF_SQL =
  'DELETE FROM special_events WHERE event_id = ? AND version = ? AND (capacity IS NULL OR tickets_sold = ?)';
/**
 * The update, decided by the database: the version must still be the one read; when the event
 * will have a capacity, or the update removes dates (whose tickets were looked for), the tickets
 * sold must still be the count read (the representation, and its ETag, show what is left; a sale
 * since the look could be for a removed date); and they must not exceed the new capacity.
 */
const UPDATE_SQL =
  'UPDATE special_events SET name = ?, location = ?, event_description = ?, dates = ?, price = ?, capacity = ?, version = ?, sort_date = ? ' +
  'WHERE event_id = ? AND version = ? AND (? = 0 OR tickets_sold = ?) AND (? IS NULL OR tickets_sold <= ?)';

function updateParameters(event: SpecialEvent, expectedVersion: number, soldUnchanged = false): unknown[] {
  return [
    event.name,
    event.location,
    event.eventDescription,
    JSON.stringify(event.dates),
    event.price,
    event.capacity,
    event.version,
    event.sortDate,
    event.eventId,
    expectedVersion,
    event.capacity !== null || soldUnchanged ? 1 : 0,
    event.ticketsSold,
    event.capacity,
    event.capacity,
  ];
}

function dateRows(events: readonly SpecialEvent[]): SpecialEventDate[] {
  return events.flatMap((event) =>
    event.sortDate === NO_DATE
      ? []
      : indexedDates(event.dates).map((eventDate) => ({ eventDate, eventId: event.eventId })),
  );
}

/**
 * The store for the DataSource's driver (the two buildDataSourceOptions builds): prepared
 * statements and group commit on SQLite, batched writes on MySQL/MariaDB. A MySQL write gets as
 * long as waiting for a connection and one query may take (`pool`), and no longer. Every write
 * runs the `participants`' statements in its own transaction.
 */
export function createSpecialEventsStore(
  dataSource: DataSource,
  pool: DatabasePoolConfig,
  participants = new EventWriteParticipants(),
): SpecialEventsStore {
  return dataSource.options.type === 'better-sqlite3'
    ? new SqliteSpecialEventsStore(dataSource, participants)
    : new MysqlSpecialEventsStore(
        dataSource.getRepository(SpecialEvent),
        pool.acquireTimeoutMs + pool.queryTimeoutMs,
        mysqlBinaryReader(dataSource),
        participants,
      );
}

/** Runs the participants' statements through TypeORM's manager (inside its transaction). */
async function runStatements(manager: EntityManager, statements: readonly SqlStatement[]): Promise<void> {
  for (const { sql, parameters } of statements) await manager.query(sql, [...parameters]);
}

/**
 * One INSERT of `rows`, leaving them untouched. TypeORM's `insert()` would, for columns with a
 * database default (version, sort_date), SELECT the rows back and merge them into the objects by
 * position; in a multi-row insert the SELECT's order is the primary key's, so an event could come
 * back with another one's eventId. It would also cost a query.
 */
function insertRows<T extends object>(
  manager: EntityManager,
  target: new () => T,
  rows: readonly T[],
): Promise<unknown> {
  return manager
    .createQueryBuilder()
    .insert()
    .into(target)
    .values(rows as T[])
    .updateEntity(false)
    .execute();
}

/**
 * Through the TypeORM repository: `insert()`, never `save()` (which SELECTs first). The MySQL store
 * falls back to these single-row writes when a batch cannot decide for each of its requests. A
 * write that touches the date index too runs in one transaction; one without is a single statement.
 */
export class RepositorySpecialEventsStore extends SpecialEventsStore {
  constructor(
    protected readonly events: Repository<SpecialEvent>,
    protected readonly participants = new EventWriteParticipants(),
  ) {
    super();
  }

  async insert(event: SpecialEvent): Promise<boolean> {
    try {
      await this.insertAll([event]);
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async delete(eventId: string, expected?: ExpectedRepresentation): Promise<boolean> {
    const joined = this.participants.statementsFor({ kind: 'deleted', eventId });
    return this.transaction(async (manager) => {
      const removed =
        expected === undefined
          ? (await manager.delete(SpecialEvent, { eventId })).affected
          : // A structured result, for the number of rows the DELETE matched.
            (
              (await manager.queryRunner?.query(
                DELETE_IF_SQL,
                [eventId, expected.version, expected.ticketsSold],
                true,
              )) as { affected?: number } | undefined
            )?.affected;
      if (!removed) return false;
      await manager.delete(SpecialEventDate, { eventId });
      await runStatements(manager, joined);
      return true;
    });
  }

  async find(eventId: string): Promise<SpecialEvent | null> {
    const rows = await this.read(FIND_SQL, [eventId]);
    return rows.length === 0 ? null : rowToEvent(rows[0]);
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
      events = (await this.read(sql, parameters)).map(rowToListed);
    } catch (error) {
      // A plan with a sort (MariaDB picks one for some small ranges) is aborted by ROWS EXAMINED
      // with an error rather than cut short: the bounded read below answers instead.
      if (!mariadb || !isRowsExaminedAbort(error)) throw error;
    }
    if (!mariadb || events.length >= query.limit) return { events };
    const walkEnd = walkEndSql(query);
    const [end] = (await this.read(walkEnd.sql, walkEnd.parameters)) as unknown as {
      event_date: string;
      event_id: string;
    }[];
    const upTo = end ? { key: end.event_date, eventId: end.event_id } : undefined;
    const bounded = listSql({ ...query, upTo });
    return { events: (await this.read(bounded.sql, bounded.parameters)).map(rowToListed), resumeAt: upTo };
  }

  private mariadb?: Promise<boolean>;

  private isMariadb(): Promise<boolean> {
    this.mariadb ??= this.events.manager
      .query('SELECT VERSION() AS version')
      .then((rows: { version: string }[]) => /mariadb/i.test(rows[0]?.version ?? ''))
      .catch((error: unknown) => {
        this.mariadb = undefined;
        throw error;
      });
    return this.mariadb;
  }

  async update(event: SpecialEvent, expectedVersion: number, soldUnchanged = false): Promise<boolean> {
    const joined = this.participants.statementsFor({ kind: 'updated', event });
    return this.transaction(async (manager) => {
      // A structured result, for the number of rows the UPDATE matched.
      const parameters = updateParameters(event, expectedVersion, soldUnchanged);
      const result = await manager.queryRunner?.query(UPDATE_SQL, parameters, true);
      if (!(result as { affected?: number } | undefined)?.affected) return false;
      await manager.delete(SpecialEventDate, { eventId: event.eventId });
      const dates = dateRows([event]);
      if (dates.length > 0) await manager.insert(SpecialEventDate, dates);
      await runStatements(manager, joined);
      return true;
    });
  }

  /**
   * Inserts the events, as one statement when that is all there is to write, else with their
   * dates and the participants' statements in one transaction.
   */
  protected async insertAll(events: readonly SpecialEvent[]): Promise<void> {
    const dates = dateRows(events);
    const joined = events.flatMap((event) => this.participants.statementsFor({ kind: 'created', event }));
    if (dates.length === 0 && joined.length === 0) {
      await insertRows(this.events.manager, SpecialEvent, events);
      return;
    }
    await this.transaction(async (manager) => {
      await insertRows(manager, SpecialEvent, events);
      if (dates.length > 0) await insertRows(manager, SpecialEventDate, dates);
      await runStatements(manager, joined);
    });
  }

  protected read(sql: string, parameters: readonly unknown[]): Promise<EventRow[]> {
    return this.events.manager.query(sql, [...parameters]);
  }

  /** `work` in a READ COMMITTED transaction (no gap locks on MySQL), committed when it returns. */
  protected transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.events.manager.transaction('READ COMMITTED', work);
  }
}

/**
 * MySQL/MariaDB: writes that arrive in one turn of the event loop share one statement and one
 * commit (one redo-log flush) instead of one each; InnoDB's own group commit only merges commits
 * that happen to overlap. Each request still gets its own answer, decided by the database:
 *
 * - Creates: one multi-row INSERT (and, for events with ISO dates, one of their dates, in the same
 *   transaction). The batch is atomic: when the server refuses it (an
 *   `eventId` already stored or twice in the batch, a value it rejects, a deadlock or on Galera a
 *   certification conflict, which roll it back whole) it stored nothing, and every event of the
 *   batch is then inserted on its own, so duplicates get their 409 from the primary key. When its
 *   fate is unknown (a timeout, a lost connection: the INSERT may still commit), every caller gets
 *   the error (503) and nothing is retried: a retry would meet the batch's own rows and answer 409
 *   for ids the service generated itself.
 * - Deletes: one `DELETE … WHERE event_id IN (…)` in a transaction, committed only when it
 *   removed every id (the usual case), their dates deleted in the same transaction. Otherwise (an id that does not exist, the same id twice, a
 *   statement the server refuses) it is rolled back and each delete runs on its own, for its own
 *   204 or 404. When the database cannot be used (a timeout, a lost connection, a COMMIT that
 *   failed and may or may not have happened), every caller gets the error (503).
 *
 * Every call is answered within `deadlineMs` (see TurnBatcher).
 */
export class MysqlSpecialEventsStore extends RepositorySpecialEventsStore {
  private readonly inserts: TurnBatcher<SpecialEvent>;
  private readonly deletes: TurnBatcher<string>;

  constructor(
    events: Repository<SpecialEvent>,
    deadlineMs: number,
    private readonly binaryRead?: BinaryReader,
    participants?: EventWriteParticipants,
  ) {
    super(events, participants);
    this.inserts = new TurnBatcher((batch) => this.insertBatch(batch), deadlineMs);
    this.deletes = new TurnBatcher((batch) => this.deleteBatch(batch), deadlineMs);
  }

  /** Reads through the binary protocol when there is a pool to read from (see mysqlBinaryReader). */
  protected override read(sql: string, parameters: readonly unknown[]): Promise<EventRow[]> {
    return this.binaryRead ? (this.binaryRead(sql, parameters) as Promise<EventRow[]>) : super.read(sql, parameters);
  }

  override insert(event: SpecialEvent): Promise<boolean> {
    return this.inserts.add(event);
  }

  override delete(eventId: string, expected?: ExpectedRepresentation): Promise<boolean> {
    // A conditional delete is rare (If-Match) and has a condition of its own: not batched.
    return expected === undefined ? this.deletes.add(eventId) : super.delete(eventId, expected);
  }

  private async insertBatch(batch: readonly Pending<SpecialEvent>[]): Promise<void> {
    if (batch.length > 1) {
      try {
        await this.insertAll(batch.map(({ item }) => item));
        for (const { resolve } of batch) resolve(true);
        return;
      } catch (error) {
        // Refused (or rolled back whole) by the server: nothing of the batch was stored, so each
        // event on its own below, with its own outcome. Anything else may have committed: 503.
        if (!isRefusedByServer(error) && !isRolledBack(error)) {
          for (const { reject } of batch) reject(error);
          return;
        }
      }
    }
    await this.oneByOne(batch, (event) => super.insert(event));
  }

  private async deleteBatch(batch: readonly Pending<string>[]): Promise<void> {
    const ids = batch.map(({ item }) => item);
    if (batch.length > 1 && new Set(ids).size === ids.length) {
      let deletedAll: boolean;
      try {
        deletedAll = await this.deleteAllOrNone(ids);
      } catch (error) {
        for (const { reject } of batch) reject(error);
        return;
      }
      if (deletedAll) {
        for (const { resolve } of batch) resolve(true);
        return;
      }
    }
    await this.oneByOne(batch, (eventId) => super.delete(eventId));
  }

  /**
   * Deletes all of `ids` in one transaction, or none: true when every one existed and the
   * transaction committed, false when it was rolled back because one did not exist or the server
   * refused the statement. Throws when the database could not be used, COMMIT included.
   * READ COMMITTED: ids that do not exist take no gap locks, which would hold up concurrent
   * creates until the rollback.
   */
  private async deleteAllOrNone(ids: readonly string[]): Promise<boolean> {
    const runner = this.events.manager.connection.createQueryRunner();
    try {
      try {
        await runner.connect();
        await runner.startTransaction('READ COMMITTED');
        const { affected } = await runner.manager.delete(SpecialEvent, { eventId: In([...ids]) });
        if (affected !== ids.length) {
          await runner.rollbackTransaction();
          return false;
        }
        await runner.manager.delete(SpecialEventDate, { eventId: In([...ids]) });
        await runStatements(
          runner.manager,
          ids.flatMap((eventId) => this.participants.statementsFor({ kind: 'deleted', eventId })),
        );
      } catch (error) {
        if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
        if (isRefusedByServer(error)) return false;
        throw error;
      }
      await runner.commitTransaction();
      return true;
    } finally {
      await runner.release();
    }
  }

  private async oneByOne<T>(batch: readonly Pending<T>[], write: (item: T) => Promise<boolean>): Promise<void> {
    await Promise.all(batch.map(({ item, resolve, reject }) => write(item).then(resolve, reject)));
  }
}

type BinaryReader = (sql: string, parameters: readonly unknown[]) => Promise<RowDataPacket[]>;

/**
 * Reads as prepared statements (mysql2 `execute`: MySQL's binary protocol). The text protocol,
 * which TypeORM's queries use, sends a DOUBLE as decimal text, and MariaDB writes it with 15
 * significant digits: 92007.34631975321 would read back as 92007.3463197532. The binary protocol
 * sends the 8 bytes themselves. Statements are prepared once per connection and kept (mysql2's
 * per-connection cache). A connection whose query timed out is destroyed, never returned to the
 * pool: its query may still be running there.
 */
export function mysqlBinaryReader(dataSource: DataSource): BinaryReader | undefined {
  const timeout = (dataSource.options as { maxQueryExecutionTime?: number }).maxQueryExecutionTime;
  return (sql, parameters) => {
    const pool = mysqlPoolOf(dataSource);
    if (!pool) return Promise.reject(new Error('The connection is not established'));
    dataSource.logger.logQuery(sql, [...parameters]);
    return new Promise((resolve, reject) => {
      pool.getConnection((acquireError: NodeJS.ErrnoException | null, connection: PoolConnection) => {
        if (acquireError) return reject(acquireError);
        connection.execute<RowDataPacket[]>({ sql, timeout }, [...parameters] as never, (error, rows) => {
          if (error) {
            if (error.fatal || error.code === 'PROTOCOL_SEQUENCE_TIMEOUT') connection.destroy();
            else connection.release();
            return reject(error);
          }
          connection.release();
          resolve(rows);
        });
      });
    });
  };
}

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
export class SqliteSpecialEventsStore extends SpecialEventsStore {
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
      const metadata = this.dataSource.getMetadata(SpecialEvent);
      const { driver } = this.dataSource;
      const table = driver.escape(metadata.tableName);
      const names = this.columns.map((column) => driver.escape(column.databaseName));
      const primaryKey = driver.escape(metadata.primaryColumns[0].databaseName);
      this.current = {
        db,
        groupCommit: SqliteGroupCommit.of(db),
        insert: db.prepare(
          `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')}) ON CONFLICT DO NOTHING`,
        ),
        delete: db.prepare(`DELETE FROM ${table} WHERE ${primaryKey} = ?`),
        deleteIf: db.prepare(DELETE_IF_SQL),
        update: db.prepare(UPDATE_SQL),
        insertDates: db.prepare(
          'INSERT INTO special_event_dates (event_date, event_id) SELECT value, ? FROM json_each(?)',
        ),
        deleteDates: db.prepare('DELETE FROM special_event_dates WHERE event_id = ?'),
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
