import { Injectable } from '@nestjs/common';
import { Capacity } from '../capacity/capacity.js';
import { isRolledBack } from '../database/database-errors.js';
import { Sql, type SqlStatement } from '../database/sql.js';
import { type DayHours, isoWeekday } from './museum-days.js';
import { capacityOf, SLOTTED_DAY_ADMISSIONS, slotsOf } from './museum-hours.repository.js';

/** A date's hours as a slotted sale reads them, with the day's and one slot's tickets sold. */
export interface SlotDay {
  /** null: closed (its exception closes it, or its weekday has no hours). */
  readonly hours: DayHours | null;
  /** General tickets sold for the date; null: no admissions row yet. */
  readonly sold: number | null;
  /** Tickets sold for the slot asked about; null: no row yet. */
  readonly slotSold: number | null;
}

interface SlotDayRow {
  exception_day: string | null;
  exception_closed: number | string | null;
  exception_open: string | null;
  exception_close: string | null;
  exception_capacity: number | string | null;
  exception_slot_minutes: number | string | null;
  exception_slot_capacity: number | string | null;
  weekday_open: string | null;
  weekday_close: string | null;
  weekday_capacity: number | string | null;
  weekday_slot_minutes: number | string | null;
  weekday_slot_capacity: number | string | null;
  sold: number | string | null;
  slot_sold: number | string | null;
}

/** The date's exception and weekday hours, its tickets sold and one slot's, in one query. Parameters: date, ISO weekday, date, date, slot time. */
export const SLOT_DAY_SQL =
  'SELECT e.day AS exception_day, e.closed AS exception_closed, e.time_open AS exception_open, ' +
  'e.time_close AS exception_close, e.capacity AS exception_capacity, e.slot_minutes AS exception_slot_minutes, ' +
  'e.slot_capacity AS exception_slot_capacity, w.time_open AS weekday_open, w.time_close AS weekday_close, ' +
  'w.capacity AS weekday_capacity, w.slot_minutes AS weekday_slot_minutes, w.slot_capacity AS weekday_slot_capacity, ' +
  'a.sold AS sold, s.sold AS slot_sold ' +
  'FROM (SELECT 1 AS one) x ' +
  'LEFT JOIN museum_hours_exceptions e ON e.day = ? ' +
  'LEFT JOIN museum_weekly_hours w ON w.weekday = ? ' +
  'LEFT JOIN museum_general_admissions a ON a.day = ? ' +
  'LEFT JOIN museum_slot_admissions s ON s.day = ? AND s.slot_time = ?';

/**
 * Takes the seat of a slot: one more sold on the date's slot row while fewer than the slot
 * capacity the date has now (its exception's when it has one, else its weekday's): a day whose
 * slots were removed meanwhile refuses (NULL). Run after SLOTTED_DAY_ADMISSIONS' UPDATE of the date's row
 * in the same transaction (Capacity's `also`), so both bounds hold together and every sale locks
 * the date's row first. Parameters: date, slot time, date, ISO weekday, date.
 */
export const TAKE_SLOT_SQL =
  'UPDATE museum_slot_admissions SET sold = sold + 1 WHERE day = ? AND slot_time = ? AND sold < COALESCE(' +
  '(SELECT e.slot_capacity FROM museum_hours_exceptions e WHERE e.day = ? AND e.closed = 0), ' +
  '(SELECT w.slot_capacity FROM museum_weekly_hours w WHERE w.weekday = ? ' +
  'AND NOT EXISTS (SELECT 1 FROM museum_hours_exceptions x WHERE x.day = ?)))';

export const SLOTS_SOLD_SQL = 'SELECT slot_time, sold FROM museum_slot_admissions WHERE day = ?';

/** Times a slot's row is made again when its insert was rolled back (a Galera conflict). */
const ENSURE_ATTEMPTS = 5;

function hoursOfRow(row: SlotDayRow): DayHours | null {
  if (row.exception_day !== null) {
    if (Number(row.exception_closed) === 1 || row.exception_open === null || row.exception_close === null) return null;
    return {
      timeOpen: row.exception_open,
      timeClose: row.exception_close,
      capacity: capacityOf(row.exception_capacity),
      ...slotsOf({ slot_minutes: row.exception_slot_minutes, slot_capacity: row.exception_slot_capacity }),
    };
  }
  if (row.weekday_open === null || row.weekday_close === null) return null;
  return {
    timeOpen: row.weekday_open,
    timeClose: row.weekday_close,
    capacity: capacityOf(row.weekday_capacity),
    ...slotsOf({ slot_minutes: row.weekday_slot_minutes, slot_capacity: row.weekday_slot_capacity }),
  };
}

/** General admission by time slot: the tickets sold per date and slot (museum_slot_admissions). */
@Injectable()
export class TimeSlotsRepository {
  constructor(
    private readonly sql: Sql,
    private readonly capacity: Capacity,
  ) {}

  /** The hours of `date`, its general tickets sold and those of the slot at `time` ('' for none). */
  async day(date: string, time: string): Promise<SlotDay> {
    const [row] = await this.sql.select<SlotDayRow>(SLOT_DAY_SQL, [date, isoWeekday(date), date, date, time]);
    return {
      hours: hoursOfRow(row),
      sold: row.sold === null ? null : Number(row.sold),
      slotSold: row.slot_sold === null ? null : Number(row.slot_sold),
    };
  }

  /** The tickets sold per slot start of `date` (slots without a sale left out). */
  async soldPerSlot(date: string): Promise<Map<string, number>> {
    const rows = await this.sql.select<{ slot_time: string; sold: number | string }>(SLOTS_SOLD_SQL, [date]);
    return new Map(rows.map((row) => [row.slot_time, Number(row.sold)]));
  }

  /**
   * Takes one general admission for `date` in the slot at `time`, and runs `joined` with it: true,
   * or false (nothing ran). The day's place (SLOTTED_DAY_ADMISSIONS, against its capacity) and the slot's
   * (TAKE_SLOT_SQL, against its slot capacity) are two conditional UPDATEs of one transaction: a
   * refusal of either undoes both. Both rows must exist (ensureSlotRow, and the admissions row).
   */
  take(date: string, time: string, joined: readonly SqlStatement[]): Promise<boolean> {
    const weekday = isoWeekday(date);
    return this.capacity.take(
      {
        pool: SLOTTED_DAY_ADMISSIONS,
        key: date,
        parameters: [date, date, weekday],
        also: [{ sql: TAKE_SLOT_SQL, parameters: [date, time, date, weekday, date] }],
      },
      joined,
    );
  }

  /**
   * The slot's row, made at its first sale (a no-op when it exists). Two Galera nodes making it at
   * once conflict at certification: the loser finds it made.
   */
  async ensureSlotRow(date: string, time: string): Promise<void> {
    const insert = `${this.sql.isMysql ? 'INSERT IGNORE' : 'INSERT OR IGNORE'} INTO museum_slot_admissions (day, slot_time, sold) VALUES (?, ?, 0)`;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.sql.execute(insert, [date, time]);
        return;
      } catch (error) {
        if (!isRolledBack(error) || attempt >= ENSURE_ATTEMPTS) throw error;
      }
    }
  }
}
