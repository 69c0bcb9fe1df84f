import { Injectable } from '@nestjs/common';
import { Capacity } from '../capacity/capacity.js';
import type { CapacityPool } from '../capacity/capacity-pool.js';
import { isRolledBack } from '../database/database-errors.js';
import { limitPlaceholder } from '../database/sql-limit.js';
import { Sql, type SqlStatement } from '../database/sql.js';
import { type DayException, type DayHours, isoWeekday, type SlotGrid } from './museum-days.js';

/**
 * The module's tables have no entity: their migrations describe them, and the row types below
 * are what a SELECT returns (MySQL hands integers back as strings in aggregates and bigints).
 */
interface WeekRow {
  weekday: number | string;
  time_open: string;
  time_close: string;
  capacity: number | string | null;
  /** Absent where a query leaves the slots out (a list of the open days). */
  slot_minutes?: number | string | null;
  slot_capacity?: number | string | null;
}

interface ExceptionRow {
  day: string;
  closed: number | string;
  time_open: string | null;
  time_close: string | null;
  capacity: number | string | null;
  slot_minutes?: number | string | null;
  slot_capacity?: number | string | null;
}

type SlotColumns = Pick<WeekRow, 'slot_minutes' | 'slot_capacity'>;

/** The slot grid of a row's columns: none when either is NULL or not read. */
export function slotsOf(row: SlotColumns): { slots: SlotGrid } | object {
  const { slot_minutes: minutes, slot_capacity: capacity } = row;
  if (minutes === null || minutes === undefined || capacity === null || capacity === undefined) return {};
  return { slots: { minutes: Number(minutes), capacity: Number(capacity) } };
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

/** What a page of the hours reads at once (MuseumHoursRepository.horizon). */
export interface Horizon {
  /** The regular week, by ISO weekday (1 = Monday); a weekday without a row is closed. */
  readonly week: Map<number, DayHours>;
  readonly exceptions: Map<string, DayException>;
  /** General tickets sold per date, for the first dates with sales. */
  readonly sold: Map<string, number>;
}

export const capacityOf = (value: number | string | null): number | null => (value === null ? null : Number(value));

function toException(
  row: Pick<ExceptionRow, 'closed' | 'time_open' | 'time_close' | 'capacity'> & SlotColumns,
): DayException {
  if (Number(row.closed) === 1 || row.time_open === null || row.time_close === null) return { closed: true };
  return {
    closed: false,
    timeOpen: row.time_open,
    timeClose: row.time_close,
    capacity: capacityOf(row.capacity),
    ...slotsOf(row),
  };
}

function dayHoursOf(row: Pick<WeekRow, 'time_open' | 'time_close' | 'capacity'> & SlotColumns): DayHours {
  return { timeOpen: row.time_open, timeClose: row.time_close, capacity: capacityOf(row.capacity), ...slotsOf(row) };
}

const slotColumnsOf = (hours: DayHours): [number | null, number | null] =>
  hours.slots === undefined ? [null, null] : [hours.slots.minutes, hours.slots.capacity];

/**
 * All a page of the hours reads, in one statement: the week, the exceptions of the horizon
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

/** A day's admissions pool whose limits are read under `condition` on the exception (`e`) or the weekday (`w`). */
const dayAdmissions = (name: string, condition: (alias: 'e' | 'w') => string): CapacityPool => ({
  name,
  table: 'museum_general_admissions',
  key: 'day',
  taken: 'sold',
  limits: [
    {
      from: { table: 'museum_hours_exceptions e', where: `e.day = ? AND e.closed = 0${condition('e')}` },
      limit: 'e.capacity',
    },
    {
      when: 'NOT EXISTS (SELECT 1 FROM museum_hours_exceptions e WHERE e.day = ?)',
      from: { table: 'museum_weekly_hours w', where: `w.weekday = ?${condition('w')}` },
      limit: 'w.capacity',
    },
  ],
  turns: false,
});

/**
 * A day's general admissions as a capacity pool: the date's row of museum_general_admissions
 * counts the tickets sold, against the capacity of the date's exception when it has one that
 * opens it, else of its weekday's hours when it has them; a date closed either way takes none,
 * and so does a day with time slots (its sales name a slot: SLOTTED_DAY_ADMISSIONS).
 * Parameters after the date: the date, the date, its ISO weekday.
 */
export const DAY_ADMISSIONS: CapacityPool = dayAdmissions(
  'day-admissions',
  (alias) => ` AND ${alias}.slot_minutes IS NULL`,
);

/**
 * The same pool for a sale of a day with time slots: the day's place, whatever its slots, taken
 * with the slot's (TimeSlotsRepository.take) in one transaction. Same parameters.
 */
export const SLOTTED_DAY_ADMISSIONS: CapacityPool = dayAdmissions('slotted-day-admissions', () => '');

/** A `HH:MM` column as minutes after midnight, in SQL alike on SQLite and MySQL (text read as a number). */
export const minutesOfColumn = (column: string): string => `(SUBSTR(${column}, 1, 2) * 60 + SUBSTR(${column}, 4, 2))`;

/**
 * Every change of the hours and every admissions row made bumps the one row of
 * museum_hours_revision first, in its transaction: they take their locks in one order (this row,
 * then the admissions rows), and on Galera any two of them conflict at certification, so none
 * copies hours another is changing (see hoursCopyStatements).
 */
const BUMP_HOURS_REVISION: SqlStatement = {
  sql: 'UPDATE museum_hours_revision SET revision = revision + 1 WHERE id = 1',
  parameters: [],
};

/** The columns of a date's admissions row that copy its hours, and what each copies of an hours row. */
const HOURS_COPY: readonly (readonly [column: string, of: (alias: 'e' | 'w') => string])[] = [
  ['hours_opens_at', (alias) => minutesOfColumn(`${alias}.time_open`)],
  ['hours_closes_at', (alias) => minutesOfColumn(`${alias}.time_close`)],
  ['hours_capacity', (alias) => `${alias}.capacity`],
  ['hours_slot_minutes', (alias) => `${alias}.slot_minutes`],
  ['hours_slot_capacity', (alias) => `${alias}.slot_capacity`],
];

const ROW = 'museum_general_admissions';
const EXCEPTION_OF_ROW = `museum_hours_exceptions e WHERE e.day = ${ROW}.day`;
const WEEKDAY_OF_ROW = `museum_weekly_hours w WHERE w.weekday = ${ROW}.weekday`;

/**
 * The statements that copy the hours a date has now onto its admissions row (`date`), or onto
 * every row (null): the weekday's on a row whose date has no exception, the exception's on one
 * that has (closed: hours_open 0, the rest NULL). The row is then all a slotted sale on MySQL reads
 * under its lock (TAKE_DAY_AND_SLOT_SQL): the hours' rows are not joined there. Every writer of the
 * hours runs these in its own transaction, after BUMP_HOURS_REVISION, so the copy never lags the
 * hours it copies. Each row is written once: by the first statement, or by the second.
 */
export function hoursCopyStatements(date: string | null): SqlStatement[] {
  const where = date === null ? '' : `${ROW}.day = ? AND `;
  const parameters = date === null ? [] : [date];
  const copy = (from: string, open: string, alias: 'e' | 'w'): string =>
    [
      `hours_open = ${open}`,
      ...HOURS_COPY.map(([column, of]) => `${column} = (SELECT ${of(alias)} FROM ${from})`),
    ].join(', ');
  return [
    {
      sql: `UPDATE ${ROW} SET ${copy(WEEKDAY_OF_ROW, `EXISTS (SELECT 1 FROM ${WEEKDAY_OF_ROW})`, 'w')} WHERE ${where}NOT EXISTS (SELECT 1 FROM ${EXCEPTION_OF_ROW})`,
      parameters,
    },
    {
      sql: `UPDATE ${ROW} SET ${copy(EXCEPTION_OF_ROW, `EXISTS (SELECT 1 FROM ${EXCEPTION_OF_ROW} AND e.closed = 0)`, 'e')} WHERE ${where}EXISTS (SELECT 1 FROM ${EXCEPTION_OF_ROW})`,
      parameters,
    },
  ];
}

/** Whether the museum is open on a date, the day's capacity and the general tickets sold. */
export interface AdmissionDay {
  readonly open: boolean;
  readonly capacity: number | null;
  /** null: no admissions row yet. */
  readonly sold: number | null;
  /** Whether the day's hours have time slots. */
  readonly slotted: boolean;
}

interface AdmissionDayRow {
  exception_closed: number | string | null;
  exception_day: string | null;
  exception_capacity: number | string | null;
  weekday: number | string | null;
  weekday_capacity: number | string | null;
  exception_slot_minutes: number | string | null;
  weekday_slot_minutes: number | string | null;
  sold: number | string | null;
}

export const ADMISSION_DAY_SQL =
  'SELECT e.day AS exception_day, e.closed AS exception_closed, e.capacity AS exception_capacity, ' +
  'w.weekday AS weekday, w.capacity AS weekday_capacity, e.slot_minutes AS exception_slot_minutes, ' +
  'w.slot_minutes AS weekday_slot_minutes, a.sold AS sold ' +
  'FROM (SELECT 1 AS one) x ' +
  'LEFT JOIN museum_hours_exceptions e ON e.day = ? ' +
  'LEFT JOIN museum_weekly_hours w ON w.weekday = ? ' +
  'LEFT JOIN museum_general_admissions a ON a.day = ?';

/** Times the date's admissions row is made again when its insert was rolled back (a Galera conflict). */
const ENSURE_ATTEMPTS = 5;

/** A slot's place given back (a cancelled ticket). Parameters: the date, the slot's time. */
export const GIVE_SLOT_SQL =
  'UPDATE museum_slot_admissions SET sold = sold - 1 WHERE day = ? AND slot_time = ? AND sold > 0';

/** The opening hours: the regular week, the per-date exceptions, and the sales they are checked against. */
@Injectable()
export class MuseumHoursRepository {
  constructor(
    private readonly sql: Sql,
    private readonly capacity: Capacity,
  ) {}

  /** The week, the exceptions from `from` to `to`, and the first `soldLimit` dates of that span with sales. */
  async horizon(from: string, to: string, soldLimit: number): Promise<Horizon> {
    const rows = await this.sql.select<HoursRow>(this.sql.isMysql ? HOURS_SQL_MYSQL : HOURS_SQL_SQLITE, [
      from,
      to,
      from,
      to,
      soldLimit,
    ]);
    const horizon: Horizon = { week: new Map(), exceptions: new Map(), sold: new Map() };
    for (const row of rows) {
      if (row.kind === 'w') horizon.week.set(Number(row.weekday), dayHoursOf(row));
      else if (row.kind === 'e') horizon.exceptions.set(row.day as string, toException(row));
      else horizon.sold.set(row.day as string, Number(row.sold));
    }
    return horizon;
  }

  /** The regular week, by ISO weekday (1 = Monday). */
  async week(): Promise<Map<number, DayHours>> {
    const rows = await this.sql.select<WeekRow>(
      'SELECT weekday, time_open, time_close, capacity, slot_minutes, slot_capacity FROM museum_weekly_hours',
    );
    return new Map(rows.map((row) => [Number(row.weekday), dayHoursOf(row)]));
  }

  /**
   * Replaces the whole week in one transaction, with the copies of the hours on the admissions rows
   * of the dates without an exception (hoursCopyStatements); `open` holds the ISO weekdays with hours.
   */
  async replaceWeek(open: ReadonlyMap<number, DayHours>): Promise<void> {
    const rows = [...open].map(([weekday, hours]) => [
      weekday,
      hours.timeOpen,
      hours.timeClose,
      hours.capacity,
      ...slotColumnsOf(hours),
    ]);
    const statements: SqlStatement[] = [
      BUMP_HOURS_REVISION,
      { sql: 'DELETE FROM museum_weekly_hours', parameters: [] },
    ];
    if (rows.length > 0) {
      statements.push({
        sql: `INSERT INTO museum_weekly_hours (weekday, time_open, time_close, capacity, slot_minutes, slot_capacity) VALUES ${rows.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')}`,
        parameters: rows.flat(),
      });
    }
    // The dates with an exception keep theirs: only the others' copies change.
    await this.sql.transaction([...statements, hoursCopyStatements(null)[0]]);
  }

  /**
   * Sets the exception of `date` unless the date has more general tickets sold than `bound` (null:
   * no bound): the check and the write are one transaction that writes the date's admissions row
   * (which must exist), so a concurrent sale waits for it or it for the sale, and copies the new
   * hours onto that row (hoursCopyStatements). False when refused.
   */
  async setExceptionIfSoldAtMost(date: string, exception: DayException, bound: number | null): Promise<boolean> {
    const guard: SqlStatement =
      bound === null
        ? { sql: 'UPDATE museum_general_admissions SET revision = revision + 1 WHERE day = ?', parameters: [date] }
        : {
            sql: 'UPDATE museum_general_admissions SET revision = revision + 1 WHERE day = ? AND sold <= ?',
            parameters: [date, bound],
          };
    const written = await this.sql.transactionIf(
      [BUMP_HOURS_REVISION, guard],
      [
        { sql: 'DELETE FROM museum_hours_exceptions WHERE day = ?', parameters: [date] },
        {
          sql: 'INSERT INTO museum_hours_exceptions (day, closed, time_open, time_close, capacity, slot_minutes, slot_capacity) VALUES (?, ?, ?, ?, ?, ?, ?)',
          parameters: exception.closed
            ? [date, 1, null, null, null, null, null]
            : [date, 0, exception.timeOpen, exception.timeClose, exception.capacity, ...slotColumnsOf(exception)],
        },
        ...hoursCopyStatements(date),
      ],
    );
    return written !== null;
  }

  /** Whether `date` has an exception that closes it. */
  async closedByException(date: string): Promise<boolean> {
    const rows = await this.sql.select<{ closed: number | string }>(
      'SELECT closed FROM museum_hours_exceptions WHERE day = ?',
      [date],
    );
    return rows.length > 0 && Number(rows[0].closed) === 1;
  }

  /** Removes the exception of `date`, its admissions row copying the weekday's hours again; false when it had none. */
  async deleteException(date: string): Promise<boolean> {
    const [, deleted] = await this.sql.transaction([
      BUMP_HOURS_REVISION,
      { sql: 'DELETE FROM museum_hours_exceptions WHERE day = ?', parameters: [date] },
      ...hoursCopyStatements(date),
    ]);
    return deleted > 0;
  }

  /** The general tickets sold per date after `after` up to `last` (dates with none left out). */
  async soldAfter(after: string, last: string): Promise<Map<string, number>> {
    const rows = await this.sql.select<{ day: string; sold: number | string }>(
      'SELECT day, sold FROM museum_general_admissions WHERE day > ? AND day <= ? AND sold > 0',
      [after, last],
    );
    return new Map(rows.map((row) => [row.day, Number(row.sold)]));
  }

  /** The general tickets sold for `date`. */
  async soldOn(date: string): Promise<number> {
    const rows = await this.sql.select<{ sold: number | string }>(
      'SELECT sold FROM museum_general_admissions WHERE day = ?',
      [date],
    );
    return rows.length === 0 ? 0 : Number(rows[0].sold);
  }

  /**
   * Takes one general admission for `date` (a place of the day's capacity pool, DAY_ADMISSIONS) and
   * runs `joined` with it: true, or false (nothing ran).
   */
  takeAdmission(date: string, joined: readonly SqlStatement[]): Promise<boolean> {
    return this.capacity.take({ pool: DAY_ADMISSIONS, key: date, parameters: [date, date, isoWeekday(date)] }, joined);
  }

  /**
   * Gives one general admission of `date` back when `cancel` changes a row, in one transaction,
   * and the place of its slot at `time` with it (null: a ticket of the whole day): whether it did.
   */
  giveAdmission(date: string, cancel: SqlStatement, time: string | null = null): Promise<boolean> {
    const slot = time === null ? [] : [{ sql: GIVE_SLOT_SQL, parameters: [date, time] }];
    return this.capacity.giveBack(DAY_ADMISSIONS, date, cancel, slot);
  }

  /** In one query: whether the museum is open on `date` (its exception, else its weekday), its capacity, the tickets sold. */
  async admissionDay(date: string): Promise<AdmissionDay> {
    const [row] = await this.sql.select<AdmissionDayRow>(ADMISSION_DAY_SQL, [date, isoWeekday(date), date]);
    const sold = row.sold === null ? null : Number(row.sold);
    if (row.exception_day !== null) {
      const open = Number(row.exception_closed) === 0;
      const slotted = open && row.exception_slot_minutes !== null;
      return { open, capacity: open ? capacityOf(row.exception_capacity) : null, sold, slotted };
    }
    const slotted = row.weekday !== null && row.weekday_slot_minutes !== null;
    return { open: row.weekday !== null, capacity: capacityOf(row.weekday_capacity), sold, slotted };
  }

  /**
   * The date's admissions row, made at its first sale or exception, with the copy of the hours the
   * date has now (hoursCopyStatements); when it exists, its copy is made again. Two Galera nodes
   * making it at once, or one making it while another changes the hours, conflict at certification
   * (BUMP_HOURS_REVISION): the loser tries again, and finds it made, or copies the new hours.
   */
  async ensureAdmissionsRow(date: string): Promise<void> {
    const insert = `${this.sql.isMysql ? 'INSERT IGNORE' : 'INSERT OR IGNORE'} INTO museum_general_admissions (day, sold, revision, weekday) VALUES (?, 0, 0, ?)`;
    const statements = [
      BUMP_HOURS_REVISION,
      { sql: insert, parameters: [date, isoWeekday(date)] },
      ...hoursCopyStatements(date),
    ];
    for (let attempt = 1; ; attempt++) {
      try {
        await this.sql.transaction(statements);
        return;
      } catch (error) {
        if (!isRolledBack(error) || attempt >= ENSURE_ATTEMPTS) throw error;
      }
    }
  }
}
