import { describe, expect, it } from 'vitest';
import { backfillDates, backfillSortDate } from '../database/migrations/event-dates-backfill.js';
import { indexedDates, sortDateOf } from './event-dates.js';

const SAMPLES: string[][] = [
  [],
  ['2026-12-01'],
  ['2026-12-03', '2026-12-01', '2026-12-01'],
  ['2026-12-02T18:30', '2026-12-02T18:30:00.5+01:00', '2026-12-04T09:00Z'],
  ['2026-02-30', '2024-02-29', '2100-02-29', '2000-02-29'],
  ['1 May 2026', '2026/05/01', 'tomorrow', '2026-05-01 ', ' 2026-05-01'],
  ['2026-13-01', '2026-00-10', '2026-04-31', '0000-01-01', '9999-12-31'],
];

describe('the migration backfill date rules', () => {
  it('agree with event-dates.ts, which the store uses for every write since', () => {
    for (const dates of SAMPLES) {
      expect(backfillDates(dates)).toStrictEqual(indexedDates(dates));
      expect(backfillSortDate(backfillDates(dates))).toBe(sortDateOf(indexedDates(dates)));
    }
  });
});
