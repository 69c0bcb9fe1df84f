import { describe, expect, it } from 'vitest';
import type { Attendance, DayCounts } from '../domain/attendance.js';
import { attendanceOf } from './event-attendance.js';

const counts = (sold: number, checkedIn: number, cancelled: number): Attendance => ({ sold, checkedIn, cancelled });
const ZERO = counts(0, 0, 0);

describe('attendanceOf', () => {
  it('lists each ISO item once in stored order, free text left out, a date without tickets as zeros', () => {
    const byDate = new Map<string, DayCounts>([['2030-01-02', { day: counts(3, 1, 2), times: new Map() }]]);
    expect(attendanceOf(['2030-01-02', 'Spring', '2030-01-01', '2030-01-02'], byDate)).toEqual([
      { date: '2030-01-02', ...counts(3, 1, 2) },
      { date: '2030-01-01', ...ZERO },
    ]);
  });

  it('gives a date item every ticket of its date, and a session its own and those of its date that name no time', () => {
    // Five tickets at 14:00, two at 16:00, four for the date as a whole.
    const day: DayCounts = {
      day: counts(9, 3, 2),
      times: new Map([
        ['14:00', counts(4, 2, 1)],
        ['16:00', counts(2, 0, 0)],
      ]),
    };
    const byDate = new Map([['2030-01-02', day]]);
    expect(attendanceOf(['2030-01-02T14:00', '2030-01-02T16:00', '2030-01-02T18:00', '2030-01-02'], byDate)).toEqual([
      { date: '2030-01-02T14:00', ...counts(7, 3, 2) },
      { date: '2030-01-02T16:00', ...counts(5, 1, 1) },
      { date: '2030-01-02T18:00', ...counts(3, 1, 1) },
      { date: '2030-01-02', ...counts(9, 3, 2) },
    ]);
  });

  it('shares a date among its sessions when no ticket names a time', () => {
    const byDate = new Map([['2030-01-02', { day: counts(4, 2, 1), times: new Map() }]]);
    expect(attendanceOf(['2030-01-02T14:00', '2030-01-02T16:00'], byDate)).toEqual([
      { date: '2030-01-02T14:00', ...counts(4, 2, 1) },
      { date: '2030-01-02T16:00', ...counts(4, 2, 1) },
    ]);
  });
});
