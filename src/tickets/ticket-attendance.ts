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

  async eventDates(eventId: string): Promise<ReadonlyMap<string, Attendance>> {
    const perDate = new Map<string, Attendance>();
    for (const group of await this.tickets.eventTicketsPerDate(eventId)) addTo(perDate, group.grouped ?? '', group);
    return perDate;
  }

  async generalDay(date: string): Promise<DayCounts> {
    let day = NO_ATTENDANCE;
    const slots = new Map<string, Attendance>();
    for (const group of await this.tickets.generalTicketsPerTime(date)) {
      day = tally(day, group);
      if (group.grouped !== null) addTo(slots, group.grouped, group);
    }
    return { day, slots };
  }
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
