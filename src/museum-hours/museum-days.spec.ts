import {
  datesFrom,
  type DayException,
  type DayHours,
  hoursOf,
  isoWeekday,
  lastDateOf,
  openDaysFrom,
  slotTimes,
  TIME_PATTERN,
} from './museum-days.js';

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

describe('openDaysFrom', () => {
  /** The definition: every date of the horizon, asked of hoursOf, the open ones kept. */
  const reference = (
    start: string,
    count: number,
    week: Map<number, DayHours>,
    exceptions: Map<string, DayException>,
    wanted: number,
  ) =>
    datesFrom(start, count)
      .flatMap((date) => {
        const hours = hoursOf(date, week, exceptions);
        return hours === null ? [] : [{ date, ...hours }];
      })
      .slice(0, wanted);

  it('gives exactly what hoursOf says of each day, for weeks, exceptions, starts and page sizes of every kind', () => {
    const hours = (open: string, capacity: number | null): DayHours => ({
      timeOpen: open,
      timeClose: '18:00',
      capacity,
    });
    let seed = 12345;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const starts = ['2024-02-26', '2026-12-28', '0001-01-01', '9999-12-20', '2025-03-30', '2026-11-25'];
    for (let round = 0; round < 300; round++) {
      const start = starts[round % starts.length];
      const week = new Map<number, DayHours>();
      for (let day = 1; day <= 7; day++)
        if (random(3) > 0) week.set(day, hours(`0${random(10)}:00`, random(2) ? 100 : null));
      const exceptions = new Map<string, DayException>();
      for (const date of datesFrom(start, 40)) {
        if (random(6) === 0)
          exceptions.set(date, random(2) ? { closed: true } : { closed: false, ...hours('11:00', 5) });
      }
      const count = [1, 7, 40, 366][random(4)];
      const wanted = [1, 10, 30, 400][random(4)];
      expect(openDaysFrom(start, count, week, exceptions, wanted)).toEqual(
        reference(start, count, week, exceptions, wanted),
      );
    }
  });

  it('lastDateOf is the last date datesFrom gives', () => {
    for (const [start, count] of [
      ['2026-12-01', 366],
      ['2024-02-28', 2],
      ['9999-12-30', 366],
    ] as const) {
      expect(lastDateOf(start, count)).toBe(datesFrom(start, count).at(-1));
    }
  });
});

describe('slotTimes', () => {
  const day = { timeOpen: '10:00', timeClose: '11:40' };

  it('starts at timeOpen and every slotMinutes after it, the last before timeClose', () => {
    expect(slotTimes({ ...day, slots: { minutes: 30, capacity: 5 } })).toEqual(['10:00', '10:30', '11:00', '11:30']);
    expect(slotTimes({ ...day, timeClose: '11:30', slots: { minutes: 30, capacity: 5 } })).toEqual([
      '10:00',
      '10:30',
      '11:00',
    ]);
    expect(slotTimes({ timeOpen: '09:00', timeClose: '18:00', slots: { minutes: 27, capacity: 1 } })).toHaveLength(20);
    expect(slotTimes({ timeOpen: '00:00', timeClose: '23:59', slots: { minutes: 240, capacity: 1 } })).toEqual([
      '00:00',
      '04:00',
      '08:00',
      '12:00',
      '16:00',
      '20:00',
    ]);
  });

  it('has one slot when slotMinutes is longer than the day, and none without slots', () => {
    expect(slotTimes({ ...day, slots: { minutes: 240, capacity: 5 } })).toEqual(['10:00']);
    expect(slotTimes(day)).toEqual([]);
  });
});
