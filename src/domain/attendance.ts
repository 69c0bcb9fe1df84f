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

/** The counts of one general-admission day: all of its tickets, and those of each slot start that has any. */
export interface DayCounts {
  readonly day: Attendance;
  /** By slot start (`HH:MM`); tickets of the whole day (no time) count only in `day`. */
  readonly slots: ReadonlyMap<string, Attendance>;
}

/** What the module that sells tickets counts, each with one aggregate statement of its own table. */
export interface AttendanceCounter {
  /** A special event's tickets by the date they admit on (`YYYY-MM-DD`); dates without a ticket left out. */
  eventDates(eventId: string): Promise<ReadonlyMap<string, Attendance>>;
  /** General admission's tickets for `date` (`YYYY-MM-DD`). */
  generalDay(date: string): Promise<DayCounts>;
}

/** A counter for a service in which nothing sells tickets: nothing was sold. */
export const NOTHING_SOLD: AttendanceCounter = {
  eventDates: () => Promise.resolve(new Map()),
  generalDay: () => Promise.resolve({ day: NO_ATTENDANCE, slots: new Map() }),
};
