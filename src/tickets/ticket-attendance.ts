import { Injectable, type OnModuleInit } from '@nestjs/common';
import { type Attendance, type AttendanceCounter, type DayCounts, NO_ATTENDANCE } from '../domain/attendance.js';
import { DayAttendance } from '../museum-hours/day-attendance.js';
import { EventAttendance } from '../special-events/event-attendance.js';
import type { TicketStatus } from './ticket.entity.js';
import { type StatusCount, TicketsRepository } from './tickets.repository.js';

/**
 * The tickets' counts for the attendance routes of special events and museum hours, which those
 * modules answer: this fills their counters when the application starts, so that neither imports
 * tickets. Each count is one GROUP BY of the database over one event's or one date's tickets.
 */
@Injectable()
export class TicketAttendance implements AttendanceCounter, OnModuleInit {
  constructor(
    private readonly tickets: TicketsRepository,
    private readonly events: EventAttendance,
    private readonly days: DayAttendance,
  ) {}

  onModuleInit(): void {
    this.events.countWith(this);
    this.days.countWith(this);
  }

  async eventDates(eventId: string): Promise<ReadonlyMap<string, DayCounts>> {
    const groups = new Map<string, StatusCount[]>();
    for (const group of await this.tickets.eventTicketsPerDate(eventId)) {
      groups.set(group.ticket_date, [...(groups.get(group.ticket_date) ?? []), group]);
    }
    return new Map([...groups].map(([date, ofDate]) => [date, dayCounts(ofDate)]));
  }

  async generalDay(date: string): Promise<DayCounts> {
    return dayCounts(await this.tickets.generalTicketsPerTime(date));
  }
}

/** One date's groups (by time and status) as the day's counts and each time's. */
function dayCounts(groups: readonly StatusCount[]): DayCounts {
  let day = NO_ATTENDANCE;
  const times = new Map<string, Attendance>();
  for (const group of groups) {
    day = tally(day, group);
    if (group.ticket_time !== null) addTo(times, group.ticket_time, group);
  }
  return { day, times };
}

function addTo(counts: Map<string, Attendance>, key: string, group: StatusCount): void {
  counts.set(key, tally(counts.get(key) ?? NO_ATTENDANCE, group));
}

/** `counts` with a group of tickets of one status added: a checked-in ticket is also one held (sold). */
function tally(counts: Attendance, group: StatusCount): Attendance {
  const tickets = Number(group.tickets);
  switch (group.status as TicketStatus) {
    case 'cancelled':
      return { ...counts, cancelled: counts.cancelled + tickets };
    case 'checked-in':
      return { ...counts, sold: counts.sold + tickets, checkedIn: counts.checkedIn + tickets };
    case 'active':
      return { ...counts, sold: counts.sold + tickets };
  }
}
