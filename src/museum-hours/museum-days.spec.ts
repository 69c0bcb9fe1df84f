import { datesFrom, type DayException, type DayHours, hoursOf, isoWeekday, TIME_PATTERN } from './museum-days.js';

describe('museum days', () => {
  it('number weekdays as ISO 8601 does, Monday 1 to Sunday 7, before 1970 and in leap years too', () => {
    expect(isoWeekday('2026-11-23')).toBe(1);
    expect(isoWeekday('2026-11-29')).toBe(7);
    expect(isoWeekday('1969-12-31')).toBe(3);
    expect(isoWeekday('2024-02-29')).toBe(4);
    expect(isoWeekday('0001-01-01')).toBe(1);
    expect(isoWeekday('9999-12-31')).toBe(5);
  });

  it('list consecutive dates across month, year and leap-day boundaries, and stop at 9999-12-31', () => {
    expect(datesFrom('2024-02-28', 3)).toEqual(['2024-02-28', '2024-02-29', '2024-03-01']);
    expect(datesFrom('2026-12-31', 2)).toEqual(['2026-12-31', '2027-01-01']);
    expect(datesFrom('9999-12-30', 366)).toEqual(['9999-12-30', '9999-12-31']);
    expect(datesFrom('2026-01-01', 366)).toHaveLength(366);
    expect(datesFrom('0099-12-31', 2)).toEqual(['0099-12-31', '0100-01-01']);
  });

  it('accept HH:mm from 00:00 to 23:59 only', () => {
    for (const time of ['00:00', '09:30', '23:59']) expect(TIME_PATTERN.test(time)).toBe(true);
    for (const time of ['24:00', '9:30', '0930', '09:60', '09:30:00', ' 09:30'])
      expect(TIME_PATTERN.test(time)).toBe(false);
  });

  it("take a date's exception over its weekday, and closed when neither says open", () => {
    const monday: DayHours = { timeOpen: '09:00', timeClose: '18:00', capacity: null };
    const week = new Map([[1, monday]]);
    const special: DayException = { closed: false, timeOpen: '10:00', timeClose: '14:00', capacity: 5 };
    const exceptions = new Map<string, DayException>([
      ['2026-11-30', { closed: true }],
      ['2026-12-01', special],
    ]);
    expect(hoursOf('2026-11-23', week, exceptions)).toBe(monday);
    expect(hoursOf('2026-11-30', week, exceptions)).toBeNull();
    expect(hoursOf('2026-12-01', week, exceptions)).toBe(special);
    expect(hoursOf('2026-12-02', week, exceptions)).toBeNull();
  });
});
