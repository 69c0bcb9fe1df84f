import { describe, expect, it } from 'vitest';
import * as domain from '../../domain/calendar-dates.js';
import * as frozen from './frozen-event-dates.js';

describe("the migrations' frozen copy of the date index rules", () => {
  const samples: string[][] = [
    ['2026-12-01', '2026-11-30T18:30', 'Tuesdays', '2026-02-30', '2024-02-29', '2100-02-29'],
    ['2027-01-01T09:00:00.5+01:00', '2027-01-01', '2026-13-01', '', '2026-12-01T18:30Z'],
    [],
    ['every day'],
  ];

  it.each(samples.map((dates) => [dates]))('indexes %j as the domain does today', (dates) => {
    expect(frozen.indexedDates(dates)).toEqual(domain.indexedDates([...dates]));
    expect(frozen.sortDateOf(frozen.indexedDates(dates))).toBe(domain.sortDateOf(domain.indexedDates([...dates])));
  });
});
