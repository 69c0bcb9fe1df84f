import { Injectable } from '@nestjs/common';
import {
  type Attendance,
  type AttendanceCounter,
  type DayCounts,
  minus,
  NO_ATTENDANCE,
  NOTHING_SOLD,
  plus,
} from '../domain/attendance.js';
import { isoDatePart } from '../domain/calendar-dates.js';
import { sessionOf } from '../domain/event-sessions.js';
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
 * counts of its tickets (`counts`, by date `YYYY-MM-DD`; absent: none). A date item counts every
 * ticket of its date. A session item (`YYYY-MM-DDTHH:MM`) counts the tickets of its session and
 * those of its date that name no session: a ticket sold for the date as a whole admits to each of
 * its sessions, as the sessions of a date share its seats when tickets name none.
 */
export function attendanceOf(dates: readonly string[], counts: ReadonlyMap<string, DayCounts>): DateAttendance[] {
  const seen = new Set<string>();
  const answer: DateAttendance[] = [];
  for (const item of dates) {
    const date = isoDatePart(item);
    if (date === null || seen.has(item)) continue;
    seen.add(item);
    const day = counts.get(date);
    const session = sessionOf(item);
    answer.push({
      date: item,
      ...(day === undefined ? NO_ATTENDANCE : session === null ? day.day : ofSession(day, session.time)),
    });
  }
  return answer;
}

/** A session's tickets and its date's that name no time. */
function ofSession(day: DayCounts, time: string): Attendance {
  let timed = NO_ATTENDANCE;
  for (const counts of day.times.values()) timed = plus(timed, counts);
  return plus(day.times.get(time) ?? NO_ATTENDANCE, minus(day.day, timed));
}
