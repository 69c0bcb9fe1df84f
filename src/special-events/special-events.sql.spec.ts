import { columnDetailsOf } from '../database/entity-columns.js';
import { SpecialEvent } from './special-event.entity.js';
import { withDerivedColumns } from './special-events.service.js';
import {
  EVENT_COLUMNS,
  eventValues,
  rawToListed,
  rowToEvent,
  UPDATE_SQL,
  updateParameters,
} from './special-events.sql.js';

const COLUMNS = columnDetailsOf(SpecialEvent);

const EVENT: SpecialEvent = Object.assign(
  withDerivedColumns(
    {
      eventId: 'a0000000-0000-4000-8000-000000000000',
      name: 'Night tour',
      location: 'Hall',
      eventDescription: 'In the dark.',
      dates: ['2090-01-02', 'soon, maybe'],
      price: 19.99,
      capacity: 40,
      durationMinutes: 90,
    },
    2 ** 40,
  ),
  { ticketsSold: 7 },
);

describe('the rows of special events, from the entity', () => {
  it('read every column of the entity, in its order', () => {
    expect(EVENT_COLUMNS).toBe(COLUMNS.map(({ column }) => `e.${column}`).join(', '));
  });

  it('write every property and read it back, as each database returns it', () => {
    const values = eventValues(EVENT);
    expect(values).toHaveLength(COLUMNS.length);
    // SQLite: arrays, JSON as text, numbers as numbers.
    expect(rawToListed([...values, '2090-01-02'])).toEqual({
      event: EVENT,
      position: { key: '2090-01-02', eventId: EVENT.eventId },
    });
    // MySQL: rows by name, BIGINT and INTEGER as strings, JSON already parsed.
    const row = Object.fromEntries(
      COLUMNS.map(({ property, column, type }, index) => [
        column,
        type === 'json'
          ? EVENT[property]
          : (type === 'bigint' || type === 'integer') && values[index] !== null
            ? String(values[index] as number)
            : values[index],
      ]),
    );
    expect(rowToEvent(row)).toStrictEqual(EVENT);
    // A nullable JSON column holds NULL, not the text `null` (dates stand in for one here).
    const datesIndex = COLUMNS.findIndex(({ property }) => property === 'dates');
    expect(eventValues(Object.assign({}, EVENT, { dates: null as unknown as string[] }))[datesIndex]).toBeNull();
    expect(rowToEvent({ ...row, capacity: null, duration_minutes: null })).toMatchObject({
      capacity: null,
      durationMinutes: null,
    });
  });

  it('update every column but the key and the tickets sold', () => {
    const set = /SET (.*) WHERE/.exec(UPDATE_SQL)?.[1] ?? '';
    const updated = COLUMNS.filter(({ property }) => property !== 'eventId' && property !== 'ticketsSold');
    expect(set).toBe(updated.map(({ column }) => `${column} = ?`).join(', '));
    const parameters = updateParameters(EVENT, 3);
    expect(parameters.slice(0, updated.length)).toEqual(
      updated.map(({ property }) => (property === 'dates' ? JSON.stringify(EVENT.dates) : EVENT[property])),
    );
    expect(parameters.slice(updated.length)).toEqual([EVENT.eventId, 3, 1, 7, 40, 40]);
  });
});
