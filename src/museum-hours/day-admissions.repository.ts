import type { Capacity } from '../capacity/capacity.js';
import type { CapacityPool } from '../capacity/capacity-pool.js';
import { isRolledBack } from '../database/database-errors.js';
import type { Sql, SqlStatement } from '../database/sql.js';
import { isoWeekday } from './museum-days.js';

/**
 * A day's general admissions as a capacity pool: the date's row of museum_general_admissions
 * counts the tickets sold, against the capacity of the date's exception when it has one that
 * opens it, else of its weekday's hours when it has them; a date closed either way takes none.
 * Parameters after the date: the date, the date, its ISO weekday.
 */
export const DAY_ADMISSIONS: CapacityPool = {
  name: 'day-admissions',
  table: 'museum_general_admissions',
  key: 'day',
  taken: 'sold',
  limits: [
    { from: { table: 'museum_hours_exceptions e', where: 'e.day = ? AND e.closed = 0' }, limit: 'e.capacity' },
    {
      when: 'NOT EXISTS (SELECT 1 FROM museum_hours_exceptions e WHERE e.day = ?)',
      from: { table: 'museum_weekly_hours w', where: 'w.weekday = ?' },
      limit: 'w.capacity',
    },
  ],
  turns: false,
};

/** Whether the museum is open on a date, the day's capacity and the general tickets sold. */
export interface AdmissionDay {
  readonly open: boolean;
  readonly capacity: number | null;
  /** null: no admissions row yet. */
  readonly sold: number | null;
}

interface AdmissionDayRow {
  exception_closed: number | string | null;
  exception_day: string | null;
  exception_capacity: number | string | null;
  weekday: number | string | null;
  weekday_capacity: number | string | null;
  sold: number | string | null;
}

export const ADMISSION_DAY_SQL =
  'SELECT e.day AS exception_day, e.closed AS exception_closed, e.capacity AS exception_capacity, ' +
  'w.weekday AS weekday, w.capacity AS weekday_capacity, a.sold AS sold ' +
  'FROM (SELECT 1 AS one) x ' +
  'LEFT JOIN museum_hours_exceptions e ON e.day = ? ' +
  'LEFT JOIN museum_weekly_hours w ON w.weekday = ? ' +
  'LEFT JOIN museum_general_admissions a ON a.day = ?';

/** Times the date's admissions row is made again when its insert was rolled back (a Galera conflict). */
const ENSURE_ATTEMPTS = 5;

const capacityOf = (value: number | string | null): number | null => (value === null ? null : Number(value));

/** The general admissions sold per date (museum_general_admissions), taken through Capacity. */
export class DayAdmissions {
  constructor(
    private readonly sql: Sql,
    private readonly capacity: Capacity,
  ) {}

  /** Takes one general admission for `date` and runs `joined` with it: true, or false (nothing ran). */
  take(date: string, joined: readonly SqlStatement[]): Promise<boolean> {
    return this.capacity.take({ pool: DAY_ADMISSIONS, key: date, parameters: [date, date, isoWeekday(date)] }, joined);
  }

  /** In one query: whether the museum is open on `date` (its exception, else its weekday), its capacity, the tickets sold. */
  async day(date: string): Promise<AdmissionDay> {
    const [row] = await this.sql.select<AdmissionDayRow>(ADMISSION_DAY_SQL, [date, isoWeekday(date), date]);
    const sold = row.sold === null ? null : Number(row.sold);
    if (row.exception_day !== null) {
      const open = Number(row.exception_closed) === 0;
      return { open, capacity: open ? capacityOf(row.exception_capacity) : null, sold };
    }
    return { open: row.weekday !== null, capacity: capacityOf(row.weekday_capacity), sold };
  }

  /**
   * The date's admissions row, made at its first sale or exception (a no-op when it exists). Two
   * Galera nodes making it at once conflict at certification: the loser finds it made.
   */
  async ensureRow(date: string): Promise<void> {
    const insert = `${this.sql.isMysql ? 'INSERT IGNORE' : 'INSERT OR IGNORE'} INTO museum_general_admissions (day, sold, revision) VALUES (?, 0, 0)`;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.sql.execute(insert, [date]);
        return;
      } catch (error) {
        if (!isRolledBack(error) || attempt >= ENSURE_ATTEMPTS) throw error;
      }
    }
  }
}
