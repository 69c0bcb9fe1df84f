import { Injectable, Logger } from '@nestjs/common';
import { MuseumClock } from '../domain/museum-clock.js';
import { isFull } from '../capacity/capacity-pool.js';
import { isCalendarDate } from '../domain/calendar-dates.js';
import { limitPlaceholder } from '../database/sql-limit.js';
import type { SqlStatement } from '../database/sql-statements.js';
import { SqlStatements } from '../database/sql-statements.js';
import {
  type DayException,
  type DayHours,
  HOURS_HORIZON_DAYS,
  lastDateOf,
  openDaysFrom,
  WEEKDAYS,
  type Weekday,
} from './museum-days.js';
import { DayAdmissions } from './day-admissions.repository.js';
import { MuseumHoursRefusal } from './museum-hours.refusals.js';

export type AdmissionOutcome =
  | { readonly outcome: 'admitted' }
  | { readonly outcome: 'closed' } // the museum is not open on that date
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

interface WeekRow {
  weekday: number | string;
  time_open: string;
  time_close: string;
  capacity: number | string | null;
}

interface ExceptionRow {
  day: string;
  closed: number | string;
  time_open: string | null;
  time_close: string | null;
  capacity: number | string | null;
}

const capacityOf = (value: number | string | null): number | null => (value === null ? null : Number(value));

function toException(row: Pick<ExceptionRow, 'closed' | 'time_open' | 'time_close' | 'capacity'>): DayException {
  if (Number(row.closed) === 1 || row.time_open === null || row.time_close === null) return { closed: true };
  return { closed: false, timeOpen: row.time_open, timeClose: row.time_close, capacity: capacityOf(row.capacity) };
}

function dayHoursOf(row: Pick<WeekRow, 'time_open' | 'time_close' | 'capacity'>): DayHours {
  return { timeOpen: row.time_open, timeClose: row.time_close, capacity: capacityOf(row.capacity) };
}

/** A row of HOURS_SQL: the week's (`w`), an exception (`e`) or a date's sales (`s`). */
interface HoursRow {
  kind: 'w' | 'e' | 's';
  day: string | null;
  weekday: number | string | null;
  closed: number | string;
  time_open: string;
  time_close: string;
  capacity: number | string | null;
  sold: number | string;
}

/**
 * All a page of getMuseumHours reads, in one statement: the week, the exceptions of the horizon
 * (from, to) and the first (limit) dates of the horizon (from, to) with general tickets sold.
 */
const hoursSql = (limit: string): string =>
  "SELECT 'w' AS kind, NULL AS day, weekday, 0 AS closed, time_open, time_close, capacity, 0 AS sold " +
  'FROM museum_weekly_hours ' +
  "UNION ALL SELECT 'e', day, NULL, closed, time_open, time_close, capacity, 0 " +
  'FROM museum_hours_exceptions WHERE day >= ? AND day <= ? ' +
  "UNION ALL SELECT 's', day, NULL, 0, NULL, NULL, NULL, sold " +
  'FROM (SELECT day, sold FROM museum_general_admissions ' +
  `WHERE day >= ? AND day <= ? AND sold > 0 ORDER BY day LIMIT ${limit}) AS sales`;
const HOURS_SQL_SQLITE = hoursSql(limitPlaceholder('sqlite'));
const HOURS_SQL_MYSQL = hoursSql(limitPlaceholder('mysql'));

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
    private readonly sql: SqlStatements,
    private readonly clock: MuseumClock,
    private readonly admissions: DayAdmissions,
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
    const rows = await this.sql.select<HoursRow>(this.sql.isMysql ? HOURS_SQL_MYSQL : HOURS_SQL_SQLITE, [
      start,
      last,
      start,
      last,
      wanted,
    ]);
    const week = new Map<number, DayHours>();
    const exceptions = new Map<string, DayException>();
    const sold = new Map<string, number>();
    let lastSold: string | null = null;
    for (const row of rows) {
      if (row.kind === 'w') week.set(Number(row.weekday), dayHoursOf(row));
      else if (row.kind === 'e') exceptions.set(row.day as string, toException(row));
      else {
        sold.set(row.day as string, Number(row.sold));
        if (lastSold === null || (row.day as string) > lastSold) lastSold = row.day as string;
      }
    }
    const days = openDaysFrom(start, HOURS_HORIZON_DAYS, week, exceptions, wanted).slice(skip);
    if (days.length === 0) return [];
    const limited = days.filter((day) => day.capacity !== null);
    if (lastSold !== null && sold.size >= wanted && limited.length > 0) {
      const lastLimited = limited[limited.length - 1].date;
      if (lastLimited > lastSold)
        for (const [day, count] of await this.soldAfter(lastSold, lastLimited)) sold.set(day, count);
    }
    return days.map(({ date, timeOpen, timeClose, capacity }) =>
      capacity === null
        ? { date, timeOpen, timeClose }
        : { date, timeOpen, timeClose, ticketsAvailable: Math.max(0, capacity - (sold.get(date) ?? 0)) },
    );
  }

  async getWeek(): Promise<Week> {
    const week = await this.readWeek();
    return Object.fromEntries(WEEKDAYS.map((name, index) => [name, week.get(index + 1) ?? null])) as Week;
  }

  /**
   * Replaces the whole week at once. Tickets already sold stay valid whatever the new week says: a
   * day closed or given a capacity below its sales keeps them, and shows ticketsAvailable 0.
   */
  async setWeek(week: Week): Promise<Week> {
    const open = WEEKDAYS.flatMap((name, index) => {
      const hours = week[name];
      return hours === null ? [] : [[index + 1, hours.timeOpen, hours.timeClose, hours.capacity]];
    });
    const statements: SqlStatement[] = [{ sql: 'DELETE FROM museum_weekly_hours', parameters: [] }];
    if (open.length > 0) {
      statements.push({
        sql: `INSERT INTO museum_weekly_hours (weekday, time_open, time_close, capacity) VALUES ${open.map(() => '(?, ?, ?, ?)').join(', ')}`,
        parameters: open.flat(),
      });
    }
    await this.sql.transaction(statements);
    this.logger.log({ msg: 'Museum week set', openDays: open.length });
    return this.getWeek();
  }

  /**
   * Sets the exception of `date`. Refused (409) when it would close a date with general tickets
   * sold, or give it a capacity below them: the check and the write are one transaction that
   * writes the date's admissions row, so a concurrent sale waits for it or it for the sale.
   */
  async setException(date: string, exception: DayException): Promise<DayException> {
    await this.ensureAdmissionsRow(date);
    const bound = exception.closed ? 0 : exception.capacity;
    const guard: SqlStatement =
      bound === null
        ? { sql: 'UPDATE museum_general_admissions SET revision = revision + 1 WHERE day = ?', parameters: [date] }
        : {
            sql: 'UPDATE museum_general_admissions SET revision = revision + 1 WHERE day = ? AND sold <= ?',
            parameters: [date, bound],
          };
    const written = await this.sql.transactionIf(guard, [
      { sql: 'DELETE FROM museum_hours_exceptions WHERE day = ?', parameters: [date] },
      {
        sql: 'INSERT INTO museum_hours_exceptions (day, closed, time_open, time_close, capacity) VALUES (?, ?, ?, ?, ?)',
        parameters: exception.closed
          ? [date, 1, null, null, null]
          : [date, 0, exception.timeOpen, exception.timeClose, exception.capacity],
      },
    ]);
    if (written === null) {
      const sold = await this.soldOn(date);
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
  async closedByException(date: string): Promise<boolean> {
    const rows = await this.sql.select<{ closed: number | string }>(
      'SELECT closed FROM museum_hours_exceptions WHERE day = ?',
      [date],
    );
    return rows.length > 0 && Number(rows[0].closed) === 1;
  }

  /** Removes the exception of `date` (404 when it has none): the week's hours apply again. */
  async deleteException(date: string): Promise<void> {
    const removed = await this.sql.execute('DELETE FROM museum_hours_exceptions WHERE day = ?', [date]);
    if (removed === 0) throw new MuseumHoursRefusal('no-exception', { date });
    this.logger.log({ msg: 'Museum hours exception removed', date });
  }

  /**
   * Takes one general admission for `date` (YYYY-MM-DD) when the museum is open that day and the
   * day's capacity (if it has one) is not reached, and runs `joined` in the same transaction, only
   * when admitted. The database decides the capacity: the day is a capacity pool (DAY_ADMISSIONS)
   * whose place Capacity takes with one conditional UPDATE.
   */
  async admitGeneral(date: string, joined: readonly SqlStatement[]): Promise<AdmissionOutcome> {
    if (!isCalendarDate(date)) throw new TypeError(`admitGeneral: not a YYYY-MM-DD date: ${date}`);
    for (let attempt = 1; ; attempt++) {
      if (await this.admissions.take(date, joined)) return { outcome: 'admitted' };
      // Refused: closed, sold out, or no admissions row yet for the date (its first sale). One
      // query says which: a sell-out refuses hundreds of buyers at once, and each holding several
      // pooled connections at a time overflowed MySQL's pool queue (503s).
      const day = await this.admissions.day(date);
      if (!day.open) return { outcome: 'closed' };
      if (day.capacity !== null && day.sold !== null && isFull(day.capacity, day.sold)) {
        return { outcome: 'sold-out', capacity: day.capacity };
      }
      if (day.sold === null) await this.ensureAdmissionsRow(date);
      // Otherwise the day changed between the refusal and this look (hours reopened, capacity
      // raised): try again, a bounded number of times.
      if (attempt >= ADMIT_ATTEMPTS) {
        return day.capacity === null ? { outcome: 'closed' } : { outcome: 'sold-out', capacity: day.capacity };
      }
    }
  }

  private async readWeek(): Promise<Map<number, DayHours>> {
    const rows = await this.sql.select<WeekRow>(
      'SELECT weekday, time_open, time_close, capacity FROM museum_weekly_hours',
    );
    return new Map(rows.map((row) => [Number(row.weekday), dayHoursOf(row)]));
  }

  /** The general tickets sold per date after `after` up to `last` (dates with none left out). */
  private async soldAfter(after: string, last: string): Promise<Map<string, number>> {
    const rows = await this.sql.select<{ day: string; sold: number | string }>(
      'SELECT day, sold FROM museum_general_admissions WHERE day > ? AND day <= ? AND sold > 0',
      [after, last],
    );
    return new Map(rows.map((row) => [row.day, Number(row.sold)]));
  }

  private async soldOn(date: string): Promise<number> {
    const rows = await this.sql.select<{ sold: number | string }>(
      'SELECT sold FROM museum_general_admissions WHERE day = ?',
      [date],
    );
    return rows.length === 0 ? 0 : Number(rows[0].sold);
  }

  /** The date's admissions row (DayAdmissions.ensureRow). */
  private ensureAdmissionsRow(date: string): Promise<void> {
    return this.admissions.ensureRow(date);
  }
}
