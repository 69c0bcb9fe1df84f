import { Injectable } from '@nestjs/common';
import { type Attendance, type AttendanceCounter, NO_ATTENDANCE, NOTHING_SOLD } from '../domain/attendance.js';
import { slotTimes } from './museum-days.js';
import { TimeSlotsRepository } from './time-slots.repository.js';

/** One slot's attendance. */
export interface SlotAttendance extends Attendance {
  /** The slot's start, `HH:MM`. */
  readonly time: string;
}

/** One day's general-admission attendance, as GET /museum-hours/{date}/attendance answers it (in a list of one). */
export interface DayAttendanceAnswer extends Attendance {
  readonly date: string;
  /** Present when the day has slots, or tickets sold for a slot: each slot in time order. */
  readonly slots?: readonly SlotAttendance[];
}

/**
 * The attendance of a day's general admission. The museum's hours sell no tickets: the module
 * that does fills the counter (`countWith`, in its `onModuleInit`), so that museum-hours never
 * imports it; with none, nothing was sold.
 */
@Injectable()
export class DayAttendance {
  private counter: AttendanceCounter = NOTHING_SOLD;

  constructor(private readonly slots: TimeSlotsRepository) {}

  countWith(counter: AttendanceCounter): void {
    this.counter = counter;
  }

  /**
   * The day's counts, with each slot's when the day has slots: those of its grid (its hours as
   * they are now, none sold included) and any other start a ticket holds (sold before the grid
   * changed), so that no ticket goes uncounted. A closed day answers its counts too: it may have
   * tickets sold before it closed.
   */
  async of(date: string): Promise<DayAttendanceAnswer> {
    const [{ hours }, counts] = await Promise.all([this.slots.day(date, ''), this.counter.generalDay(date)]);
    const grid = hours === null ? [] : slotTimes(hours);
    const times = [...new Set([...grid, ...counts.times.keys()])].sort();
    const answer: DayAttendanceAnswer = { date, ...counts.day };
    if (times.length === 0) return answer;
    return { ...answer, slots: times.map((time) => ({ time, ...(counts.times.get(time) ?? NO_ATTENDANCE) })) };
  }
}
