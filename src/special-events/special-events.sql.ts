import type { CapacityPool } from '../capacity/capacity-pool.js';
import { indexedDates, NO_DATE } from '../domain/calendar-dates.js';
import type { CategoryPrice } from '../domain/price-categories.js';
import { insertInto } from '../database/entity-columns.js';
import { limitPlaceholder } from '../database/sql-limit.js';
import { SpecialEvent, type SpecialEventDate } from './special-event.entity.js';
import {
  LIST_WALK_ROWS,
  type ListedEvent,
  type ListQuery,
  type StoredCursorKey,
} from './special-events.repository.types.js';

/*
 * The SQL text of special events, their row types and the mapping from rows to events: what the
 * SQLite and the MySQL/MariaDB repositories share. Unquoted names and `?` placeholders, valid on
 * both databases.
 */

/** The date rows a page may walk: LIST_WALK_ROWS beyond the rows a numbered page skips. */
function walkRows(query: ListQuery): number {
  return LIST_WALK_ROWS + (query.offset ?? 0);
}

/** The columns every read selects (rowToEvent reads them by name, RawListRow by this order). */
export const EVENT_COLUMNS =
  'e.event_id, e.name, e.location, e.event_description, e.dates, e.price, e.version, e.sort_date, e.capacity, e.tickets_sold, e.duration_minutes, e.capacity_per_date, e.prices';

export interface EventRow {
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
  readonly duration_minutes: number | string | null;
  readonly capacity_per_date: number | string | null;
  /** JSON text (SQLite, MariaDB) or already parsed (MySQL 8); null for none. */
  readonly prices: string | CategoryPrice[] | null;
  readonly list_key?: string;
}

export function rowToEvent(row: EventRow): SpecialEvent {
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
    durationMinutes: row.duration_minutes === null ? null : Number(row.duration_minutes),
    capacityPerDate: row.capacity_per_date === null ? null : Number(row.capacity_per_date),
    prices: pricesOf(row.prices),
  };
}

/** The stored price list (JSON text, or parsed by MySQL 8), or null for none. */
function pricesOf(value: string | CategoryPrice[] | null): CategoryPrice[] | null {
  return typeof value === 'string' ? (JSON.parse(value) as CategoryPrice[]) : value;
}

/** An event's price list as its column holds it: JSON text, or NULL for none. */
function pricesValue(event: SpecialEvent): string | null {
  return event.prices === null ? null : JSON.stringify(event.prices);
}

/** A list row as an array, in EVENT_COLUMNS' order and then the list key. */
export type RawListRow = readonly [
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
  number | null,
  number | null,
  string | null,
  string,
];

export function rawToListed(row: RawListRow): ListedEvent {
  const [
    eventId,
    name,
    location,
    eventDescription,
    dates,
    price,
    version,
    sortDate,
    capacity,
    ticketsSold,
    durationMinutes,
    capacityPerDate,
    prices,
    listKey,
  ] = row;
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
      durationMinutes: durationMinutes === null ? null : Number(durationMinutes),
      capacityPerDate: capacityPerDate === null ? null : Number(capacityPerDate),
      prices: pricesOf(prices),
    },
    position: { key: listKey, eventId },
  };
}

export function rowToListed(row: EventRow): ListedEvent {
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
export function isRowsExaminedAbort(error: unknown): boolean {
  const { code, errno, driverError } = (error ?? {}) as { code?: unknown; errno?: unknown; driverError?: unknown };
  if (code === 'ER_FILSORT_ABORT' || errno === 1028) return true;
  return driverError !== undefined && driverError !== error && isRowsExaminedAbort(driverError);
}

export function isRanged(query: ListQuery): boolean {
  return query.start !== undefined || query.end !== undefined;
}

export const FIND_SQL = `SELECT ${EVENT_COLUMNS} FROM special_events e WHERE e.event_id = ?`;
/**
 * The delete of one representation (If-Match): the version read and, for an event with a capacity,
 * the tickets sold read (its ETag covers them). Parameters: eventId, version, ticketsSold.
 */
export const DELETE_IF_SQL =
  'DELETE FROM special_events WHERE event_id = ? AND version = ? AND (capacity IS NULL OR tickets_sold = ?)';
/**
 * The update, decided by the database: the version must still be the one read; when the event
 * will have a capacity, or the update removes dates (whose tickets were looked for), the tickets
 * sold must still be the count read (the representation, and its ETag, show what is left; a sale
 * since the look could be for a removed date); and they must not exceed the new capacity.
 */
export const UPDATE_SQL =
  'UPDATE special_events SET name = ?, location = ?, event_description = ?, dates = ?, price = ?, capacity = ?, duration_minutes = ?, capacity_per_date = ?, prices = ?, version = ?, sort_date = ? ' +
  'WHERE event_id = ? AND version = ? AND (? = 0 OR tickets_sold = ?) AND (? IS NULL OR tickets_sold <= ?)';

export function updateParameters(event: SpecialEvent, expectedVersion: number, soldUnchanged = false): unknown[] {
  return [
    event.name,
    event.location,
    event.eventDescription,
    JSON.stringify(event.dates),
    event.price,
    event.capacity,
    event.durationMinutes,
    event.capacityPerDate,
    pricesValue(event),
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

export function dateRows(events: readonly SpecialEvent[]): Pick<SpecialEventDate, 'eventDate' | 'eventId'>[] {
  return events.flatMap((event) =>
    event.sortDate === NO_DATE
      ? []
      : indexedDates(event.dates).map((eventDate) => ({ eventDate, eventId: event.eventId })),
  );
}

/** An event's properties in the order of its row's values (eventValues). */
const EVENT_PROPERTIES = [
  'eventId',
  'name',
  'location',
  'eventDescription',
  'dates',
  'price',
  'version',
  'sortDate',
  'capacity',
  'ticketsSold',
  'durationMinutes',
  'capacityPerDate',
  'prices',
] as const;

/** The INSERT of one event, its columns named by the entity. */
const INSERT_EVENT_SQL = insertInto(SpecialEvent, EVENT_PROPERTIES);

/** SQLite's insert of one event: a duplicate eventId inserts nothing (no row changed). */
export const SQLITE_INSERT_SQL = `${INSERT_EVENT_SQL} ON CONFLICT DO NOTHING`;

/** One INSERT of `count` events (MySQL/MariaDB: a duplicate eventId fails it whole). */
export function insertEventsSql(count: number): string {
  return INSERT_EVENT_SQL + `, (${EVENT_PROPERTIES.map(() => '?').join(', ')})`.repeat(count - 1);
}

/** The values of an event's row, as insertEventsSql and SQLITE_INSERT_SQL take them. */
export function eventValues(event: SpecialEvent): unknown[] {
  return [
    event.eventId,
    event.name,
    event.location,
    event.eventDescription,
    JSON.stringify(event.dates),
    event.price,
    event.version,
    event.sortDate,
    event.capacity,
    event.ticketsSold,
    event.durationMinutes,
    event.capacityPerDate,
    pricesValue(event),
  ];
}

/** The delete of one event, whatever its version. */
export const DELETE_SQL = 'DELETE FROM special_events WHERE event_id = ?';

/** The delete of `count` events (MySQL/MariaDB's batched deletes). */
export function deleteEventsSql(count: number): string {
  return `DELETE FROM special_events WHERE event_id IN (${placeholders(count)})`;
}

/** The delete of the date rows of `count` events. */
export function deleteDatesOfSql(count: number): string {
  return `DELETE FROM special_event_dates WHERE event_id IN (${placeholders(count)})`;
}

/** The insert of `count` date rows (MySQL/MariaDB). Parameters: each row's date, then its eventId. */
export function insertDateRowsSql(count: number): string {
  return 'INSERT INTO special_event_dates (event_date, event_id) VALUES (?, ?)' + ', (?, ?)'.repeat(count - 1);
}

function placeholders(count: number): string {
  return '?' + ', ?'.repeat(count - 1);
}

/** The date index rows of one event. Parameters: the eventId, then the JSON array of its distinct ISO dates (SQLite). */
export const INSERT_DATES_SQL =
  'INSERT INTO special_event_dates (event_date, event_id) SELECT value, ? FROM json_each(?)';
export const DELETE_DATES_SQL = 'DELETE FROM special_event_dates WHERE event_id = ?';

/*
 * An update keeps the rows of the dates it keeps (their tickets sold): it deletes only the rows
 * of dates it removes and inserts only those of dates it adds.
 */

/** SQLite: the rows of dates not in the JSON array. Parameters: the eventId, the JSON array of its distinct ISO dates. */
export const DELETE_OTHER_DATES_SQL =
  'DELETE FROM special_event_dates WHERE event_id = ? AND event_date NOT IN (SELECT value FROM json_each(?))';
/** SQLite: a row for each date of the JSON array that has none. Parameters: the eventId, the JSON array. */
export const INSERT_NEW_DATES_SQL =
  'INSERT INTO special_event_dates (event_date, event_id) SELECT value, ? FROM json_each(?) WHERE true ON CONFLICT DO NOTHING';

/** MySQL/MariaDB: the rows of an event's dates but `count` others. Parameters: the eventId, then those dates. */
export function deleteOtherDatesSql(count: number): string {
  return `DELETE FROM special_event_dates WHERE event_id = ? AND event_date NOT IN (${placeholders(count)})`;
}

/** MySQL/MariaDB: `count` date rows, each only where there is none yet. Parameters as insertDateRowsSql. */
export function insertNewDateRowsSql(count: number): string {
  return `${insertDateRowsSql(count)} ON DUPLICATE KEY UPDATE event_id = event_id`;
}

/** The tickets sold of each of an event's ISO dates. Parameters: the eventId. */
export const DATES_SOLD_SQL = 'SELECT event_date, tickets_sold FROM special_event_dates WHERE event_id = ?';
/** The tickets sold of one date of an event. Parameters: the date, the eventId. */
export const DATE_SOLD_SQL = 'SELECT tickets_sold FROM special_event_dates WHERE event_date = ? AND event_id = ?';

export interface DateSoldRow {
  readonly event_date: string;
  readonly tickets_sold: number | string;
}

/**
 * A date's seat: one more sold on the date's row, while fewer than the event's capacityPerDate
 * (as read with the version the same sale's EVENT_SEATS update requires; NULL: no limit) are sold.
 * No row (not one of the event's ISO dates): nothing changes. Parameters: the date, the eventId,
 * the capacityPerDate twice.
 */
export const TAKE_DATE_SEAT_SQL =
  'UPDATE special_event_dates SET tickets_sold = tickets_sold + 1 ' +
  'WHERE event_date = ? AND event_id = ? AND (? IS NULL OR tickets_sold < ?)';

/** A date's seat given back (a cancelled ticket). Parameters: the date, the eventId. */
export const GIVE_DATE_SEAT_SQL =
  'UPDATE special_event_dates SET tickets_sold = tickets_sold - 1 WHERE event_date = ? AND event_id = ? AND tickets_sold > 0';

/** The keys that sign list cursors, oldest first. */
export const CURSOR_KEYS_SQL = 'SELECT key_id, secret, created_at FROM cursor_signing_keys ORDER BY created_at, key_id';

export interface CursorKeyRow {
  readonly key_id: string;
  readonly secret: string;
  readonly created_at: number | string;
}

export function cursorKeyOf(row: CursorKeyRow): StoredCursorKey {
  return { keyId: row.key_id, secret: row.secret };
}

/**
 * An event's seats as a capacity pool: its row counts the tickets sold against its capacity. A
 * seat is taken only while the event is at the version read; the same transaction then takes the
 * date's seat (TAKE_DATE_SEAT_SQL), which also requires the date to be one of its ISO dates.
 * Every sale of the event writes this row first, so the event's sales (and updates) are decided
 * one after the other, on Galera too. Parameters after the eventId: version.
 */
export const EVENT_SEATS: CapacityPool = {
  name: 'event-seats',
  table: 'special_events',
  key: 'event_id',
  taken: 'tickets_sold',
  limits: [{ limit: 'capacity', when: 'version = ?' }],
  turns: true,
};
