/**
 * Attendance: what became of the tickets of one date or time slot. `sold` counts the tickets held
 * (active or checked in: the seats and admissions they take), `checkedIn` those of them scanned at
 * the door, `cancelled` those given back. A ticket is in exactly one of `sold − checkedIn`,
 * `checkedIn` and `cancelled`.
 *
 * The module that sells tickets counts them; the modules that own what is sold (an event's dates,
 * a museum day) answer the routes. They meet here, in the kernel, so that neither imports the
 * other: the owner holds a place for a counter (EventAttendance, DayAttendance) and the seller
 * fills it when the application starts.
 */
export interface Attendance {
  readonly sold: number;
  readonly checkedIn: number;
  readonly cancelled: number;
}

export const NO_ATTENDANCE: Attendance = { sold: 0, checkedIn: 0, cancelled: 0 };

/**
 * The counts of one date's tickets: all of them, and those of each start time that has any (a
 * slot's, or an event session's). Tickets of the whole date (no time) count only in `day`.
 */
export interface DayCounts {
  readonly day: Attendance;
  /** By start time, `HH:MM`. */
  readonly times: ReadonlyMap<string, Attendance>;
}

export const NO_DAY_COUNTS: DayCounts = { day: NO_ATTENDANCE, times: new Map() };

/** What the module that sells tickets counts, each with one aggregate statement of its own table. */
export interface AttendanceCounter {
  /** A special event's tickets by the date they admit on (`YYYY-MM-DD`); dates without a ticket left out. */
  eventDates(eventId: string): Promise<ReadonlyMap<string, DayCounts>>;
  /** General admission's tickets for `date` (`YYYY-MM-DD`). */
  generalDay(date: string): Promise<DayCounts>;
}

/** A counter for a service in which nothing sells tickets: nothing was sold. */
export const NOTHING_SOLD: AttendanceCounter = {
  eventDates: () => Promise.resolve(new Map()),
  generalDay: () => Promise.resolve(NO_DAY_COUNTS),
};

/** The sum of two counts. */
export function plus(a: Attendance, b: Attendance): Attendance {
  return { sold: a.sold + b.sold, checkedIn: a.checkedIn + b.checkedIn, cancelled: a.cancelled + b.cancelled };
}

/** `a` less `b`: the tickets of `a` that `b` does not hold. */
export function minus(a: Attendance, b: Attendance): Attendance {
  return { sold: a.sold - b.sold, checkedIn: a.checkedIn - b.checkedIn, cancelled: a.cancelled - b.cancelled };
}
