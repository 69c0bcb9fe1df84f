import { Injectable } from '@nestjs/common';
import { givePlacesSql, placesLeft, takePlacesParameters, takePlacesSql } from '../capacity/capacity-pool.js';
import type { PlaceClaim } from '../capacity/place-claim.js';
import type { SqlStatement } from '../database/sql.js';
import { isoWeekday, slotTimes } from './museum-days.js';
import { DAY_ADMISSIONS, MuseumHoursRepository, SLOTTED_DAY_ADMISSIONS } from './museum-hours.repository.js';
import { TimeSlotsRepository } from './time-slots.repository.js';
import { slotsWithRoom } from './time-slots.service.js';

/**
 * Several seats of a slot: as TAKE_SLOT_SQL, the slot's row grows by the count while the slot
 * capacity the date has now leaves room for all of them. Parameters: count, date, slot time,
 * count, date, ISO weekday, date.
 */
export const TAKE_SLOT_PLACES_SQL =
  'UPDATE museum_slot_admissions SET sold = sold + ? WHERE day = ? AND slot_time = ? AND sold + ? <= COALESCE(' +
  '(SELECT e.slot_capacity FROM museum_hours_exceptions e WHERE e.day = ? AND e.closed = 0), ' +
  '(SELECT w.slot_capacity FROM museum_weekly_hours w WHERE w.weekday = ? ' +
  'AND NOT EXISTS (SELECT 1 FROM museum_hours_exceptions x WHERE x.day = ?)))';

/** Several seats of a slot given back. Parameters: count, date, slot time, count. */
export const GIVE_SLOT_PLACES_SQL =
  'UPDATE museum_slot_admissions SET sold = sold - ? WHERE day = ? AND slot_time = ? AND sold >= ?';

const TAKE_DAY_SQL = takePlacesSql(DAY_ADMISSIONS);
const TAKE_SLOTTED_DAY_SQL = takePlacesSql(SLOTTED_DAY_ADMISSIONS);
/** Both pools share the admissions row: one give-back serves either. */
const GIVE_DAY_SQL = givePlacesSql(DAY_ADMISSIONS);

/** How many later slots with room a full slot's refusal names (as TimeSlotsService does). */
const NEXT_SLOTS_NAMED = 3;

/** What a claim of several general admissions found (AdmissionClaims.claim). */
export type AdmissionClaimOutcome =
  | { readonly outcome: 'claimable'; readonly claim: PlaceClaim; readonly time: string | null }
  | { readonly outcome: 'closed' }
  | { readonly outcome: 'sold-out'; readonly capacity: number; readonly left: number }
  | { readonly outcome: 'no-slots' }
  | { readonly outcome: 'unknown-time'; readonly times: readonly string[] }
  | {
      readonly outcome: 'slot-full';
      readonly time: string;
      readonly capacity: number;
      readonly next: readonly string[];
      readonly left: number;
    };

/**
 * General admissions asked several at a time, for a transaction that takes other places too (an
 * order of several lines, Capacity.takeAll): the same bounds a single sale meets (the day's
 * capacity, and on a day with time slots the slot's), decided by the database in the same
 * conditional UPDATEs, each growing by the count.
 */
@Injectable()
export class AdmissionClaims {
  constructor(
    private readonly slots: TimeSlotsRepository,
    private readonly hours: MuseumHoursRepository,
  ) {}

  /**
   * The claim of `count` general admissions for `date` at `time` (a slot's start on a day with
   * time slots, undefined on a day without), or why not as read. The rows the claim writes exist
   * once it is made (a date's first sale makes them).
   */
  async claim(date: string, time: string | undefined, count: number): Promise<AdmissionClaimOutcome> {
    const day = await this.slots.day(date, time ?? '');
    if (day.hours === null) return { outcome: 'closed' };
    const { hours } = day;
    const dayLeft = placesLeft(hours.capacity, day.sold ?? 0);
    if (hours.capacity !== null && dayLeft !== undefined && dayLeft < count) {
      return { outcome: 'sold-out', capacity: hours.capacity, left: dayLeft };
    }
    const weekday = isoWeekday(date);
    const stamp = JSON.stringify(hours);
    if (hours.slots === undefined) {
      if (time !== undefined) return { outcome: 'no-slots' };
      if (day.sold === null) await this.hours.ensureAdmissionsRow(date);
      const guard = {
        sql: TAKE_DAY_SQL,
        parameters: takePlacesParameters(DAY_ADMISSIONS, date, [date, date, weekday], count),
      };
      const claim = { row: { pool: DAY_ADMISSIONS, key: date }, guards: [guard], stamp, left: dayLeft ?? null };
      return { outcome: 'claimable', claim, time: null };
    }
    const times = slotTimes(hours);
    if (time === undefined || !times.includes(time)) return { outcome: 'unknown-time', times };
    const slotLeft = Math.max(0, hours.slots.capacity - (day.slotSold ?? 0));
    if (slotLeft < count) {
      const sold = await this.slots.soldPerSlot(date);
      const next = slotsWithRoom(hours, await this.hours.soldOn(date), sold)
        .filter((slot) => slot.time > time && slot.ticketsAvailable >= count)
        .slice(0, NEXT_SLOTS_NAMED)
        .map((slot) => slot.time);
      return { outcome: 'slot-full', time, capacity: hours.slots.capacity, next, left: slotLeft };
    }
    if (day.sold === null) await this.hours.ensureAdmissionsRow(date);
    if (day.slotSold === null) await this.slots.ensureSlotRow(date, time);
    const claim: PlaceClaim = {
      row: { pool: SLOTTED_DAY_ADMISSIONS, key: date },
      guards: [
        {
          sql: TAKE_SLOTTED_DAY_SQL,
          parameters: takePlacesParameters(SLOTTED_DAY_ADMISSIONS, date, [date, date, weekday], count),
        },
        { sql: TAKE_SLOT_PLACES_SQL, parameters: [count, date, time, count, date, weekday, date] },
      ],
      stamp,
      left: Math.min(slotLeft, dayLeft ?? slotLeft),
    };
    return { outcome: 'claimable', claim, time };
  }

  /**
   * What gives `count` general admissions of `date` (and of its slot at `time`, when not null)
   * back, for the transaction that cancels their tickets.
   */
  release(date: string, time: string | null, count: number): SqlStatement[] {
    return [
      { sql: GIVE_DAY_SQL, parameters: [count, date, count] },
      ...(time === null ? [] : [{ sql: GIVE_SLOT_PLACES_SQL, parameters: [count, date, time, count] }]),
    ];
  }
}
