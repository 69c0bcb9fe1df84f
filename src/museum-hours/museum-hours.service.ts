import { Injectable, Logger } from '@nestjs/common';
import { MuseumClock } from '../domain/museum-clock.js';
import { isFull } from '../capacity/capacity-pool.js';
import { isCalendarDate } from '../domain/calendar-dates.js';
import type { SqlStatement } from '../database/sql.js';
import {
  type DayException,
  type DayHours,
  HOURS_HORIZON_DAYS,
  lastDateOf,
  openDaysFrom,
  WEEKDAYS,
  type Weekday,
} from './museum-days.js';
import { MuseumHoursRefusal } from './museum-hours.refusals.js';
import { MuseumHoursRepository } from './museum-hours.repository.js';

export type AdmissionOutcome =
  | { readonly outcome: 'admitted' }
  | { readonly outcome: 'closed' } // the museum is not open on that date
  | { readonly outcome: 'slotted' } // the day has time slots: a sale names one (TimeSlotsService.admit)
  | { readonly outcome: 'sold-out'; readonly capacity: number }; // the day's general capacity is reached

/** One open day of the list (getMuseumHours). */
export interface OpenDay {
  readonly date: string;
  readonly timeOpen: string;
  readonly timeClose: string;
  /** Only on a day with a capacity: what is left of it (never below 0). */
  readonly ticketsAvailable?: number;
}

/** The regular week: each weekday's hours, or null when the museum is closed that day. */
export type Week = Record<Weekday, DayHours | null>;

/** Times a sale is tried again when the day changed between its refusal and the look at why. */
const ADMIT_ATTEMPTS = 5;

/**
 * Opening hours (the regular week and per-date exceptions) and the general admissions sold per
 * date, in this module's own tables. Other modules sell through admitGeneral, never the tables.
 */
@Injectable()
export class MuseumHoursService {
  private readonly logger = new Logger(MuseumHoursService.name);

  constructor(
    private readonly hours: MuseumHoursRepository,
    private readonly clock: MuseumClock,
  ) {}

  /**
   * The last date tickets are sold for: the end of the horizon getMuseumHours shows, HOURS_HORIZON_DAYS
   * days from `today` (itself included), so that no one buys for a day whose hours no one can see.
   */
  lastSaleDate(today: string): string {
    return lastDateOf(today, HOURS_HORIZON_DAYS);
  }

  /**
   * The open days from `startDate` (default: today in MUSEUM_TIME_ZONE) on, in date order, `limit`
   * per page. Looks at HOURS_HORIZON_DAYS days from `startDate` at most, so any request costs a
   * bounded amount of work; a page beyond the open days of that horizon is empty.
   */
  async list(startDate: string | undefined, page: number, limit: number): Promise<OpenDay[]> {
    const start = startDate ?? this.clock.today();
    const skip = (page - 1) * limit;
    if (skip >= HOURS_HORIZON_DAYS) return [];
    const last = lastDateOf(start, HOURS_HORIZON_DAYS);
    // One round trip: the week, the horizon's exceptions and the first `wanted` dates with sales.
    // The page holds the first `wanted` open days, so those sales cover it unless dates with sales
    // that are closed now came before its end (a week changed after selling): then one more query.
    const wanted = skip + limit;
    const { week, exceptions, sold } = await this.hours.horizon(start, last, wanted);
    let lastSold: string | null = null;
    for (const day of sold.keys()) if (lastSold === null || day > lastSold) lastSold = day;
    const days = openDaysFrom(start, HOURS_HORIZON_DAYS, week, exceptions, wanted).slice(skip);
    if (days.length === 0) return [];
    const limited = days.filter((day) => day.capacity !== null);
    if (lastSold !== null && sold.size >= wanted && limited.length > 0) {
      const lastLimited = limited[limited.length - 1].date;
      if (lastLimited > lastSold)
        for (const [day, count] of await this.hours.soldAfter(lastSold, lastLimited)) sold.set(day, count);
    }
    return days.map(({ date, timeOpen, timeClose, capacity }) =>
      capacity === null
        ? { date, timeOpen, timeClose }
        : { date, timeOpen, timeClose, ticketsAvailable: Math.max(0, capacity - (sold.get(date) ?? 0)) },
    );
  }

  async getWeek(): Promise<Week> {
    const week = await this.hours.week();
    return Object.fromEntries(WEEKDAYS.map((name, index) => [name, week.get(index + 1) ?? null])) as Week;
  }

  /**
   * Replaces the whole week at once. Tickets already sold stay valid whatever the new week says: a
   * day closed or given a capacity below its sales keeps them, and shows ticketsAvailable 0.
   */
  async setWeek(week: Week): Promise<Week> {
    const open = new Map<number, DayHours>();
    WEEKDAYS.forEach((name, index) => {
      const hours = week[name];
      if (hours !== null) open.set(index + 1, hours);
    });
    await this.hours.replaceWeek(open);
    this.logger.log({ msg: 'Museum week set', openDays: open.size });
    return this.getWeek();
  }

  /**
   * Sets the exception of `date`. Refused (409) when it would close a date with general tickets
   * sold, or give it a capacity below them: the check and the write are one transaction that
   * writes the date's admissions row, so a concurrent sale waits for it or it for the sale.
   */
  async setException(date: string, exception: DayException): Promise<DayException> {
    await this.hours.ensureAdmissionsRow(date);
    const bound = exception.closed ? 0 : exception.capacity;
    if (!(await this.hours.setExceptionIfSoldAtMost(date, exception, bound))) {
      const sold = await this.hours.soldOn(date);
      throw new MuseumHoursRefusal(exception.closed ? 'tickets-sold-on-closing' : 'tickets-sold-above-capacity', {
        date,
        sold,
      });
    }
    this.logger.log({ msg: 'Museum hours exception set', date, closed: exception.closed });
    return exception;
  }

  /**
   * Whether `date` is closed by an exception (not merely a weekday without hours): the one kind of
   * closing that refuses special-event tickets too, since events need not keep the regular week.
   */
  closedByException(date: string): Promise<boolean> {
    return this.hours.closedByException(date);
  }

  /** Removes the exception of `date` (404 when it has none): the week's hours apply again. */
  async deleteException(date: string): Promise<void> {
    if (!(await this.hours.deleteException(date))) throw new MuseumHoursRefusal('no-exception', { date });
    this.logger.log({ msg: 'Museum hours exception removed', date });
  }

  /**
   * Takes one general admission for `date` (YYYY-MM-DD) when the museum is open that day and the
   * day's capacity (if it has one) is not reached, and runs `joined` in the same transaction, only
   * when admitted. The database decides the capacity: the day is a capacity pool (DAY_ADMISSIONS)
   * whose place Capacity takes with one conditional UPDATE. A day with time slots admits no one
   * here (`slotted`): its sales name a slot (TimeSlotsService.admit).
   */
  async admitGeneral(date: string, joined: readonly SqlStatement[]): Promise<AdmissionOutcome> {
    if (!isCalendarDate(date)) throw new TypeError(`admitGeneral: not a YYYY-MM-DD date: ${date}`);
    for (let attempt = 1; ; attempt++) {
      if (await this.hours.takeAdmission(date, joined)) return { outcome: 'admitted' };
      // Refused: closed, sold out, or no admissions row yet for the date (its first sale). One
      // query says which: a sell-out refuses hundreds of buyers at once, and each holding several
      // pooled connections at a time overflowed MySQL's pool queue (503s).
      const day = await this.hours.admissionDay(date);
      if (!day.open) return { outcome: 'closed' };
      if (day.slotted) return { outcome: 'slotted' };
      if (day.capacity !== null && day.sold !== null && isFull(day.capacity, day.sold)) {
        return { outcome: 'sold-out', capacity: day.capacity };
      }
      if (day.sold === null) await this.hours.ensureAdmissionsRow(date);
      // Otherwise the day changed between the refusal and this look (hours reopened, capacity
      // raised): try again, a bounded number of times.
      if (attempt >= ADMIT_ATTEMPTS) {
        return day.capacity === null ? { outcome: 'closed' } : { outcome: 'sold-out', capacity: day.capacity };
      }
    }
  }

  /**
   * Runs `cancel` (a general ticket's conditional UPDATE) and, only when it changed a row, gives
   * one admission of `date` back in the same transaction (and one of its slot at `time`), so it can
   * be sold again: whether it ran.
   */
  returnGeneral(date: string, cancel: SqlStatement, time: string | null = null): Promise<boolean> {
    return this.hours.giveAdmission(date, cancel, time);
  }
}
