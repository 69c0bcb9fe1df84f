import { Injectable } from '@nestjs/common';
import { type Attendance, type AttendanceCounter, NO_ATTENDANCE, NOTHING_SOLD } from '../domain/attendance.js';
import { isoDatePart } from '../domain/calendar-dates.js';
import { SpecialEventsService } from './special-events.service.js';

/** One date item's attendance, as GET /special-events/{eventId}/attendance answers it. */
export interface DateAttendance extends Attendance {
  /** The date item as stored. */
  readonly date: string;
}

/**
 * The attendance of an event's dates. Special events sell no tickets: the module that does fills
 * the counter (`countWith`, in its `onModuleInit`), so that special-events never imports it; with
 * none, nothing was sold.
 */
@Injectable()
export class EventAttendance {
  private counter: AttendanceCounter = NOTHING_SOLD;

  constructor(private readonly events: SpecialEventsService) {}

  countWith(counter: AttendanceCounter): void {
    this.counter = counter;
  }

  /** Each ISO date item of the event with its date's counts; an unknown event is refused (not-found). */
  async of(eventId: string): Promise<DateAttendance[]> {
    const event = await this.events.get(eventId);
    return attendanceOf(event.dates, await this.counter.eventDates(eventId));
  }
}

/**
 * Each ISO item of `dates`, in stored order and once each (free text sells no ticket), with the
 * counts of its date (`YYYY-MM-DD`; absent: none). A ticket admits on a date, so the sessions of one
 * date share its counts, as they share its seats (GET …/availability).
 */
export function attendanceOf(dates: readonly string[], counts: ReadonlyMap<string, Attendance>): DateAttendance[] {
  const seen = new Set<string>();
  const answer: DateAttendance[] = [];
  for (const item of dates) {
    const date = isoDatePart(item);
    if (date === null || seen.has(item)) continue;
    seen.add(item);
    answer.push({ date: item, ...(counts.get(date) ?? NO_ATTENDANCE) });
  }
  return answer;
}
