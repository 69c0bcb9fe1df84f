import { join } from 'node:path';
import { describe, it } from 'vitest';
import { expectReviewedSql } from '../../test/helpers/reviewed-sql.js';
import { takePlaceSql } from '../capacity/capacity-pool.js';
import { ADMISSION_DAY_SQL, DAY_ADMISSIONS } from './museum-hours.repository.js';

describe('the SQL of a day’s general admissions', () => {
  it('is the reviewed file beside the repository (museum-hours.queries.sql)', () => {
    expectReviewedSql(join(import.meta.dirname, 'museum-hours.queries.sql'), [
      { name: 'take an admission (capacity pool day-admissions)', sql: takePlaceSql(DAY_ADMISSIONS) },
      { name: 'the day: open, its capacity, the tickets sold', sql: ADMISSION_DAY_SQL },
    ]);
  });
});
