import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectReviewedSql, type NamedSql } from '../../test/helpers/reviewed-sql.js';
import { takePlaceSql } from '../capacity/capacity-pool.js';
import { SpecialEvent, SpecialEventDate } from './special-event.entity.js';
import type { ListQuery } from './special-events.repository.js';
import {
  CURSOR_KEYS_SQL,
  DELETE_DATES_SQL,
  DELETE_IF_SQL,
  EVENT_SEATS,
  FIND_SQL,
  INSERT_DATES_SQL,
  listSql,
  sqliteEventWrites,
  UPDATE_SQL,
  walkEndSql,
} from './special-events.sql.js';

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

describe('the SQL of special events', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = new DataSource({
      type: 'better-sqlite3',
      database: ':memory:',
      entities: [SpecialEvent, SpecialEventDate],
    });
    await dataSource.initialize();
  });

  afterAll(() => dataSource.destroy());

  it('is the reviewed file beside the repository (special-events.queries.sql)', () => {
    const writes = sqliteEventWrites(dataSource);
    const statements: NamedSql[] = [
      { name: 'find', sql: FIND_SQL },
      { name: 'insert (SQLite)', sql: writes.insert },
      { name: 'delete (SQLite)', sql: writes.delete },
      { name: 'delete if the representation is unchanged (If-Match)', sql: DELETE_IF_SQL },
      { name: 'update if the version (and the tickets sold) are unchanged', sql: UPDATE_SQL },
      { name: 'date index: insert an event’s dates (SQLite)', sql: INSERT_DATES_SQL },
      { name: 'date index: delete an event’s dates', sql: DELETE_DATES_SQL },
      ...LISTS.map(([name, query, options]) => ({ name, sql: listSql(query, options).sql })),
      { name: 'the walk’s end row of a ranged list', sql: walkEndSql(range).sql },
      { name: 'take a seat (capacity pool event-seats)', sql: takePlaceSql(EVENT_SEATS) },
      { name: 'cursor signing keys', sql: CURSOR_KEYS_SQL },
    ];
    expectReviewedSql(join(import.meta.dirname, 'special-events.queries.sql'), statements);
  });
});
