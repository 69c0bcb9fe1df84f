import { join } from 'node:path';
import { describe, it } from 'vitest';
import { expectReviewedSql, type NamedSql } from '../../test/helpers/reviewed-sql.js';
import { takePlaceSql } from '../capacity/capacity-pool.js';
import type { ListQuery } from './special-events.repository.js';
import {
  CURSOR_KEYS_SQL,
  DATE_SOLD_SQL,
  DATES_SOLD_SQL,
  DELETE_DATES_SQL,
  DELETE_OTHER_DATES_SQL,
  deleteOtherDatesSql,
  DELETE_IF_SQL,
  DELETE_SQL,
  deleteDatesOfSql,
  deleteEventsSql,
  EVENT_SEATS,
  FIND_SQL,
  GIVE_DATE_SEAT_SQL,
  INSERT_DATES_SQL,
  insertDateRowsSql,
  insertEventsSql,
  INSERT_NEW_DATES_SQL,
  insertNewDateRowsSql,
  listSql,
  SQLITE_INSERT_SQL,
  TAKE_DATE_SEAT_SQL,
  UPDATE_SQL,
  walkEndSql,
} from './special-events.sql.js';
import {
  deleteSessionRows,
  GIVE_SESSION_SEAT_SQL,
  insertSessionRows,
  keepSessionRows,
  SESSION_SOLD_SQL,
  SESSIONS_SOLD_SQL,
  TAKE_SESSION_SEAT_SQL,
} from './session-seats.sql.js';
import { withDerivedColumns } from './special-events.service.js';

const after = { key: '2030-01-01', eventId: 'e' };
const range: ListQuery = { start: '2030-01-01', end: '2030-12-31', limit: 11 };

/** Every list statement's shape, by database. */
const LISTS: readonly [string, ListQuery, Parameters<typeof listSql>[1]][] = [
  ['list, no range (SQLite)', { limit: 11 }, { walk: 'subquery' }],
  ['list, no range, after a cursor (MySQL/MariaDB)', { limit: 11, after }, {}],
  ['list, a range (SQLite)', range, { walk: 'subquery' }],
  ['list, a range after a cursor (SQLite)', { ...range, after }, { walk: 'subquery' }],
  ['list, a range (MariaDB)', range, { walk: 'rows-examined' }],
  ['list, a range after a cursor (MySQL)', { ...range, after }, {}],
  ['list, a range up to the walk end (MariaDB, read again)', { ...range, upTo: after }, {}],
];

/** An event with two sessions, for the statements that depend on how many there are. */
const TWO_SESSIONS = withDerivedColumns(
  {
    eventId: 'e',
    name: 'n',
    location: 'l',
    eventDescription: 'd',
    dates: ['2030-01-01T10:00', '2030-01-01T14:00'],
    price: 1,
  },
  1,
);

describe('the SQL of special events', () => {
  it('is the reviewed file beside the repository (special-events.queries.sql)', () => {
    const statements: NamedSql[] = [
      { name: 'find', sql: FIND_SQL },
      { name: 'insert (SQLite)', sql: SQLITE_INSERT_SQL },
      { name: 'insert of two events (MySQL/MariaDB: the creates of a turn, batched)', sql: insertEventsSql(2) },
      { name: 'delete', sql: DELETE_SQL },
      { name: 'delete of two events (MySQL/MariaDB: the deletes of a turn, batched)', sql: deleteEventsSql(2) },
      { name: 'delete if the representation is unchanged (If-Match)', sql: DELETE_IF_SQL },
      { name: 'update if the version (and the tickets sold) are unchanged', sql: UPDATE_SQL },
      { name: 'date index: insert an event’s dates (SQLite)', sql: INSERT_DATES_SQL },
      { name: 'date index: delete an event’s dates', sql: DELETE_DATES_SQL },
      { name: 'date index: insert two date rows (MySQL/MariaDB)', sql: insertDateRowsSql(2) },
      { name: 'date index: delete the dates of two events (MySQL/MariaDB: batched deletes)', sql: deleteDatesOfSql(2) },
      ...LISTS.map(([name, query, options]) => ({ name, sql: listSql(query, options).sql })),
      { name: 'the walk’s end row of a ranged list', sql: walkEndSql(range).sql },
      { name: 'date index: delete the rows of dates an update removes (SQLite)', sql: DELETE_OTHER_DATES_SQL },
      { name: 'date index: insert the rows of dates an update adds (SQLite)', sql: INSERT_NEW_DATES_SQL },
      {
        name: 'date index: delete the rows of dates an update removes, keeping two (MySQL/MariaDB)',
        sql: deleteOtherDatesSql(2),
      },
      { name: 'date index: insert two rows an update adds (MySQL/MariaDB)', sql: insertNewDateRowsSql(2) },
      { name: 'take a seat (capacity pool event-seats)', sql: takePlaceSql(EVENT_SEATS) },
      { name: 'take the date’s seat, in the same transaction (capacityPerDate)', sql: TAKE_DATE_SEAT_SQL },
      { name: 'tickets sold per date of an event', sql: DATES_SOLD_SQL },
      { name: 'tickets sold on one date of an event', sql: DATE_SOLD_SQL },
      { name: 'cursor signing keys', sql: CURSOR_KEYS_SQL },
      { name: 'give a cancelled ticket’s date seat back', sql: GIVE_DATE_SEAT_SQL },
      { name: 'sessions: the rows of two new sessions', sql: insertSessionRows([TWO_SESSIONS])?.sql ?? '' },
      ...keepSessionRows(TWO_SESSIONS, false).map(({ sql }, i) => ({
        name: `sessions: an update keeps two sessions (SQLite), ${i === 0 ? 'deleting the others' : 'adding the new'}`,
        sql,
      })),
      {
        name: 'sessions: an update adds the new of two sessions (MySQL/MariaDB)',
        sql: keepSessionRows(TWO_SESSIONS, true)[1]?.sql ?? '',
      },
      { name: 'sessions: delete the rows of two events', sql: deleteSessionRows(['a', 'b']).sql },
      { name: 'take the session’s seat, in the same transaction (capacityPerDate)', sql: TAKE_SESSION_SEAT_SQL },
      { name: 'give a cancelled ticket’s session seat back', sql: GIVE_SESSION_SEAT_SQL },
      { name: 'tickets sold per session of an event', sql: SESSIONS_SOLD_SQL },
      { name: 'tickets sold at one session of an event', sql: SESSION_SOLD_SQL },
    ];
    expectReviewedSql(join(import.meta.dirname, 'special-events.queries.sql'), statements);
  });
});
