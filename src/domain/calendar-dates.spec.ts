import { indexedDates, isCalendarDate, isoDatePart, NO_DATE, sortDateOf } from './calendar-dates.js';

describe('isoDatePart', () => {
  it.each([
    ['2026-12-01', '2026-12-01'],
    ['2026-12-01T18:30', '2026-12-01'],
    ['2026-12-01T18:30:05', '2026-12-01'],
    ['2026-12-01T18:30:05.123Z', '2026-12-01'],
    ['2026-12-01T23:30:00-05:00', '2026-12-01'],
    ['2026-12-01T23:30+0100', '2026-12-01'],
    ['2024-02-29', '2024-02-29'],
    ['2000-02-29', '2000-02-29'],
  ])('%s counts as %s', (text, date) => {
    expect(isoDatePart(text)).toBe(date);
  });

  it.each([
    'next Tuesday',
    '1 December 2026',
    '2026-12-1',
    '2026/12/01',
    '2026-13-01',
    '2026-00-10',
    '2026-02-29',
    '1900-02-29',
    '2026-04-31',
    '2026-12-01 18:30',
    '2026-12-01T',
    '2026-12-01T18',
    '2026-12-01X',
    ' 2026-12-01',
    '2026-12-01\n',
    '２０２６-12-01',
  ])('%j is free text', (text) => {
    expect(isoDatePart(text)).toBeNull();
  });
});

describe('isCalendarDate', () => {
  it('accepts only YYYY-MM-DD dates that exist', () => {
    expect(isCalendarDate('2026-12-01')).toBe(true);
    expect(isCalendarDate('2026-12-01T10:00')).toBe(false);
    expect(isCalendarDate('2026-02-30')).toBe(false);
    expect(isCalendarDate('tomorrow')).toBe(false);
  });
});

describe('indexedDates and sortDateOf', () => {
  it('keeps each ISO date once, ascending, whatever the order and repetitions sent', () => {
    const indexed = indexedDates(['free text', '2026-12-03', '2026-12-01T10:00', '2026-12-01', '2026-02-30']);
    expect(indexed).toEqual(['2026-12-01', '2026-12-03']);
    expect(sortDateOf(indexed)).toBe('2026-12-01');
  });

  it('an event without ISO dates sorts after every date', () => {
    expect(sortDateOf(indexedDates(['soon', 'every Sunday']))).toBe(NO_DATE);
    expect(sortDateOf([])).toBe(NO_DATE);
    expect(NO_DATE > '9999-12-31').toBe(true);
  });
});
