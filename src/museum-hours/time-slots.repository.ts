import { Injectable } from '@nestjs/common';
import { Capacity } from '../capacity/capacity.js';
import { isRolledBack } from '../database/database-errors.js';
import { Sql, type SqlStatement } from '../database/sql.js';
import { type DayHours, isoWeekday, TIME_PATTERN } from './museum-days.js';
import {
  capacityOf,
  minutesOfColumn as minutesOf,
  SLOTTED_DAY_ADMISSIONS,
  slotsOf,
} from './museum-hours.repository.js';

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
 * Whether the hours of `alias` (an exception's or a weekday's row) have a slot starting at `?` (its
 * minutes after midnight, three times) with room for one more: a start of their grid (from
 * time_open every slot_minutes, before time_close) whose row has sold fewer than slot_capacity. A
 * row without a grid (NULL slot_minutes or slot_capacity) has none.
 */
const slotWithRoom = (alias: 'e' | 'w'): string =>
  `? >= ${minutesOf(`${alias}.time_open`)} AND ? < ${minutesOf(`${alias}.time_close`)} ` +
  `AND (? - ${minutesOf(`${alias}.time_open`)}) % ${alias}.slot_minutes = 0 ` +
  `AND museum_slot_admissions.sold < ${alias}.slot_capacity`;

/**
 * Whether the time `?` names a slot start of the grid the date has now (its exception's when it
 * has one that opens it, else its weekday's, when there is no exception) with room for one more on
 * its row of museum_slot_admissions: false for a day closed, without slots, or whose grid no
 * longer starts a slot then, and for a full slot. Parameters: takeSlotConditionParameters.
 */
const SLOT_HAS_ROOM =
  `(EXISTS (SELECT 1 FROM museum_hours_exceptions e WHERE e.day = ? AND e.closed = 0 AND ${slotWithRoom('e')}) ` +
  'OR (NOT EXISTS (SELECT 1 FROM museum_hours_exceptions x WHERE x.day = ?) ' +
  `AND EXISTS (SELECT 1 FROM museum_weekly_hours w WHERE w.weekday = ? AND ${slotWithRoom('w')})))`;

/**
 * Takes the seat of a slot: one more sold on the date's slot row, only while SLOT_HAS_ROOM (its
 * time starts a slot of the grid the date has now, with room). The database decides all of it in
 * this one write, so a sale needs no read before it (TimeSlotsService.admit reads only to explain
 * a refusal). Run after SLOTTED_DAY_ADMISSIONS' UPDATE of the date's row in the same transaction
 * (Capacity's `also`), so both bounds hold together and every sale locks the date's row first.
 * SQLite's way; MySQL/MariaDB take both places in one statement (TAKE_DAY_AND_SLOT_SQL).
 * Parameters: takeSlotParameters.
 */
export const TAKE_SLOT_SQL = `UPDATE museum_slot_admissions SET sold = sold + 1 WHERE day = ? AND slot_time = ? AND ${SLOT_HAS_ROOM}`;

/** The minutes after midnight of `time` (`HH:MM`): a time of another shape starts no slot (-1). */
const minutesOfTime = (time: string): number =>
  TIME_PATTERN.test(time) ? Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5)) : -1;

/** The parameters of SLOT_HAS_ROOM for the slot at `time` of `date`. */
function takeSlotConditionParameters(date: string, time: string): unknown[] {
  const minutes = minutesOfTime(time);
  return [date, minutes, minutes, minutes, date, isoWeekday(date), minutes, minutes, minutes];
}

/** The parameters of TAKE_SLOT_SQL for the slot at `time` (`HH:MM`) of `date`. */
export function takeSlotParameters(date: string, time: string): unknown[] {
  return [date, time, ...takeSlotConditionParameters(date, time)];
}

/** The parameters of SLOTTED_DAY_ADMISSIONS' limits for `date` (after its key). */
const slottedDayParameters = (date: string): unknown[] => [date, date, isoWeekday(date)];

/**
 * MySQL/MariaDB: the day's place and the slot's in one multi-table UPDATE, under the conditions
 * of SLOTTED_DAY_ADMISSIONS' UPDATE and TAKE_SLOT_SQL together (the date open; the day under its
 * capacity; the time a start of its grid; the slot under its slot capacity): one round trip instead
 * of two, so a slotted sale is START, this, the ticket's INSERT, COMMIT, as a sale of a day without
 * slots. It changes both rows or neither (a missing row, like a refused bound, joins nothing).
 *
 * The hours are read from the date's own row, which carries a copy of them (hours_open and the
 * hours_ columns, hoursCopyStatements): the statement reads the two rows it writes and nothing
 * else. Joined instead (the exception's and the weekday's rows by key), the hours were looked up
 * while the date's row, which every sale of the date waits for, was held: a multi-table UPDATE
 * reads, and so locks, rows looked up by key while it is planned. Every change of the hours writes
 * the copies of the dates it changes in its own transaction, so a sale finds the hours the date has
 * now, as the join did: a sale and a change of the date's hours wait for each other on that row
 * (on Galera, conflict at certification). STRAIGHT_JOIN reads, and so locks, the date's row before
 * the slot's, the order of every other transaction writing both. Parameters:
 * takeDayAndSlotParameters.
 */
export const TAKE_DAY_AND_SLOT_SQL =
  'UPDATE museum_general_admissions a STRAIGHT_JOIN museum_slot_admissions s ON s.day = a.day AND s.slot_time = ? ' +
  'SET a.sold = a.sold + 1, s.sold = s.sold + 1 ' +
  'WHERE a.day = ? AND a.hours_open = 1 AND (a.hours_capacity IS NULL OR a.sold < a.hours_capacity) ' +
  'AND ? >= a.hours_opens_at AND ? < a.hours_closes_at AND (? - a.hours_opens_at) % a.hours_slot_minutes = 0 ' +
  'AND s.sold < a.hours_slot_capacity';

/** The parameters of TAKE_DAY_AND_SLOT_SQL for the slot at `time` (`HH:MM`) of `date`. */
export function takeDayAndSlotParameters(date: string, time: string): unknown[] {
  const minutes = minutesOfTime(time);
  return [time, date, minutes, minutes, minutes];
}

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
   * (TAKE_SLOT_SQL, a start of the day's grid, against its slot capacity) are taken in one
   * transaction, both or neither: on SQLite by two conditional UPDATEs, on MySQL/MariaDB by one
   * (TAKE_DAY_AND_SLOT_SQL, a round trip fewer). Both rows must exist (ensureSlotRow, and the
   * admissions row): a missing one refuses too.
   */
  take(date: string, time: string, joined: readonly SqlStatement[]): Promise<boolean> {
    return this.capacity.take(
      {
        pool: SLOTTED_DAY_ADMISSIONS,
        key: date,
        parameters: slottedDayParameters(date),
        also: [{ sql: TAKE_SLOT_SQL, parameters: takeSlotParameters(date, time) }],
        ...(this.sql.isMysql
          ? { together: { sql: TAKE_DAY_AND_SLOT_SQL, parameters: takeDayAndSlotParameters(date, time) } }
          : {}),
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
