import { join } from 'node:path';
import { describe, it } from 'vitest';
import { expectReviewedSql } from '../../test/helpers/reviewed-sql.js';
import { takePlaceSql } from '../capacity/capacity-pool.js';
import {
  ADMISSION_DAY_SQL,
  DAY_ADMISSIONS,
  GIVE_SLOT_SQL,
  hoursCopyStatements,
  SLOTTED_DAY_ADMISSIONS,
} from './museum-hours.repository.js';
import { SLOT_DAY_SQL, SLOTS_SOLD_SQL, TAKE_DAY_AND_SLOT_SQL, TAKE_SLOT_SQL } from './time-slots.repository.js';

describe('the SQL of a day’s general admissions', () => {
  it('is the reviewed file beside the repository (museum-hours.queries.sql)', () => {
    expectReviewedSql(join(import.meta.dirname, 'museum-hours.queries.sql'), [
      { name: 'take an admission (capacity pool day-admissions)', sql: takePlaceSql(DAY_ADMISSIONS) },
      { name: 'the day: open, its capacity, the tickets sold', sql: ADMISSION_DAY_SQL },
      {
        name: 'take an admission of a day with slots (capacity pool slotted-day-admissions)',
        sql: takePlaceSql(SLOTTED_DAY_ADMISSIONS),
      },
      { name: "then take the slot's place, in the same transaction (SQLite)", sql: TAKE_SLOT_SQL },
      {
        name: "MySQL/MariaDB: the day's place and the slot's in one statement, the day's row first",
        sql: TAKE_DAY_AND_SLOT_SQL,
      },
      { name: "a slotted sale's look at the day: its hours, tickets sold, the slot's", sql: SLOT_DAY_SQL },
      { name: 'the tickets sold per slot of a day', sql: SLOTS_SOLD_SQL },
      { name: "a cancelled ticket's slot place given back, with the day's", sql: GIVE_SLOT_SQL },
      { name: "a date's hours copied onto its admissions row: the weekday's", sql: hoursCopyStatements('?')[0].sql },
      { name: "a date's hours copied onto its admissions row: its exception's", sql: hoursCopyStatements('?')[1].sql },
    ]);
  });
});
