import { describe, expect, it } from 'vitest';
import {
  type CapacityPool,
  givePlacesSql,
  isFull,
  placesLeft,
  takePlaceSql,
  takePlacesParameters,
  takePlacesSql,
} from './capacity-pool.js';

const own: CapacityPool = {
  name: 'rooms',
  table: 'rooms',
  key: 'room_id',
  taken: 'booked',
  limits: [{ limit: 'beds', when: 'open = ?' }],
  turns: false,
};

describe('takePlaceSql', () => {
  it('takes one place on the pool row while its own limit is not reached, under the limit’s conditions', () => {
    expect(takePlaceSql(own)).toBe(
      'UPDATE rooms SET booked = booked + 1 WHERE room_id = ? AND ((beds IS NULL OR booked < beds) AND open = ?)',
    );
  });

  it('reads a limit from another table, correlated by its condition, and admits under any one of the limits', () => {
    const pool: CapacityPool = {
      ...own,
      limits: [
        { from: { table: 'special_days s', where: 's.day = ?' }, limit: 's.beds' },
        { when: 'NOT EXISTS (SELECT 1 FROM special_days s WHERE s.day = ?)', limit: 'beds' },
      ],
    };
    expect(takePlaceSql(pool)).toBe(
      'UPDATE rooms SET booked = booked + 1 WHERE room_id = ? AND (' +
        '(EXISTS (SELECT 1 FROM special_days s WHERE s.day = ? AND (s.beds IS NULL OR rooms.booked < s.beds))) OR ' +
        '((beds IS NULL OR booked < beds) AND NOT EXISTS (SELECT 1 FROM special_days s WHERE s.day = ?)))',
    );
  });
});

describe('takePlacesSql', () => {
  const pool: CapacityPool = {
    ...own,
    limits: [
      { from: { table: 'special_days s', where: 's.day = ? AND s.open = ?' }, limit: 's.beds' },
      { when: 'NOT EXISTS (SELECT 1 FROM special_days s WHERE s.day = ?)', limit: 'beds' },
    ],
  };

  it('takes several places while each limit leaves room for all of them, the count after each limit’s own parameters', () => {
    expect(takePlacesSql(pool)).toBe(
      'UPDATE rooms SET booked = booked + ? WHERE room_id = ? AND (' +
        '(EXISTS (SELECT 1 FROM special_days s WHERE s.day = ? AND s.open = ? AND (s.beds IS NULL OR rooms.booked + ? <= s.beds))) OR ' +
        '(NOT EXISTS (SELECT 1 FROM special_days s WHERE s.day = ?) AND (beds IS NULL OR booked + ? <= beds)))',
    );
    expect(takePlacesParameters(pool, 'r1', ['d', 1, 'd'], 4)).toEqual([4, 'r1', 'd', 1, 4, 'd', 4]);
  });

  it('refuses parameters that do not match the limits’ placeholders', () => {
    expect(() => takePlacesParameters(pool, 'r1', ['d', 1], 4)).toThrow(/3 places|parameters/);
  });

  it('gives places back only while at least that many are taken', () => {
    expect(givePlacesSql(pool)).toBe('UPDATE rooms SET booked = booked - ? WHERE room_id = ? AND booked >= ?');
  });
});

describe('placesLeft and isFull', () => {
  it('count what is left of a limit, never below 0, and nothing without one', () => {
    expect([placesLeft(10, 3), placesLeft(10, 10), placesLeft(10, 12), placesLeft(null, 5)]).toEqual([
      7,
      0,
      0,
      undefined,
    ]);
    expect([isFull(10, 9), isFull(10, 10), isFull(10, 11), isFull(null, 1_000_000)]).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });
});
