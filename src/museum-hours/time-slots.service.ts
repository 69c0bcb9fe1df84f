import { Injectable } from '@nestjs/common';
import { isFull, placesLeft } from '../capacity/capacity-pool.js';
import type { SqlStatement } from '../database/sql.js';
import { type DayHours, slotTimes } from './museum-days.js';
import { MuseumHoursRefusal } from './museum-hours.refusals.js';
import { MuseumHoursService } from './museum-hours.service.js';
import { MuseumHoursRepository } from './museum-hours.repository.js';
import { type SlotDay, TimeSlotsRepository } from './time-slots.repository.js';

/** One slot of a day, as GET /museum-hours/{date}/slots answers it. */
export interface Slot {
  readonly time: string;
  readonly capacity: number;
  /** What a buyer can still get in it: the smaller of the slot's places left and the day's (never below 0). */
  readonly ticketsAvailable: number;
}

/** What a general sale for a date and (maybe) a time did (TimeSlotsService.admit). */
export type SlotAdmissionOutcome =
  | { readonly outcome: 'admitted'; readonly time: string | null }
  | { readonly outcome: 'closed' }
  | { readonly outcome: 'sold-out'; readonly capacity: number } // the day's capacity
  | { readonly outcome: 'no-slots' } // a time asked of a day without slots
  | { readonly outcome: 'unknown-time'; readonly times: readonly string[] } // none, or none of the day's slots
  | {
      readonly outcome: 'slot-full';
      readonly time: string;
      readonly capacity: number;
      readonly next: readonly string[];
    };

/** How many slots with room a full slot's refusal names. */
const NEXT_SLOTS_NAMED = 3;

/** Times a slotted sale is tried again when its write was refused for a reason its read did not see (rows made meanwhile, the day changed). */
const ADMIT_ATTEMPTS = 5;

/** How many slots found full an instance remembers (fullSlots), at most: past it, it forgets them all. */
const FULL_SLOTS_REMEMBERED = 10_000;

/**
 * General admission by time slot: a day whose hours carry a slot grid (slotMinutes, slotCapacity)
 * sells each general ticket for one slot, against the slot's capacity and the day's, both decided
 * by the database in the sale's one transaction (TimeSlotsRepository.take). A sale of a slot
 * writes first, as a sale of a day without slots does: the transaction's two conditional UPDATEs
 * (one on MySQL/MariaDB) check the day is open, the time one of its grid's starts and both bounds,
 * with no read before; only a refusal reads the day, to say why (or to make the rows a first sale
 * needs, then try again). A sale without a time is first tried as MuseumHoursService.admitGeneral
 * sells a day without slots (one write), which a slotted day refuses.
 */
@Injectable()
export class TimeSlotsService {
  /**
   * Slots (`date time`) this instance last found full: their next buyers read first, and are
   * refused without a write while the read finds them full still (as a sale read first before),
   * so that the many refused buyers of a sold-out slot do not each lock the day's row the sales
   * write. A hint only: a read that finds room (a ticket cancelled) forgets it, and the write
   * decides as ever.
   */
  private readonly fullSlots = new Set<string>();

  constructor(
    private readonly slots: TimeSlotsRepository,
    private readonly hours: MuseumHoursRepository,
    private readonly days: MuseumHoursService,
  ) {}

  /** The slots of `date` with their places left: [] for a day without slots, a refusal (404) for a closed day. */
  async list(date: string): Promise<Slot[]> {
    const day = await this.slots.day(date, '');
    if (day.hours === null) throw new MuseumHoursRefusal('closed-day', { date });
    if (day.hours.slots === undefined) return [];
    return slotsWithRoom(day.hours, day.sold ?? 0, await this.slots.soldPerSlot(date));
  }

  /** The hours of `date` as they are now (the week's, or its exception's), or null when the museum is closed then. */
  async hoursOn(date: string): Promise<DayHours | null> {
    return (await this.slots.day(date, '')).hours;
  }

  /**
   * Takes one general admission for `date` at `time` (`HH:MM`, undefined: none given) and runs
   * `joined` in the same transaction, only when admitted. On a day with slots `time` must be one
   * of its slots' starts; on a day without, it must be absent.
   */
  async admit(date: string, time: string | undefined, joined: readonly SqlStatement[]): Promise<SlotAdmissionOutcome> {
    if (time === undefined) return this.admitWithoutTime(date, joined);
    const slot = `${date} ${time}`;
    for (let attempt = 1; ; attempt++) {
      // A slot found full lately is read first: still full, it is refused without a write.
      let day = this.fullSlots.has(slot) ? await this.slots.day(date, time) : null;
      if (day !== null && this.whyRefused(day, time) === null) {
        this.fullSlots.delete(slot);
        day = null;
      }
      if (day === null) {
        if (await this.slots.take(date, time, joined)) return { outcome: 'admitted', time };
        // Refused: closed, not a slot, a bound reached, or a row the first sale makes not there yet.
        day = await this.slots.day(date, time);
      }
      const refusal = this.whyRefused(day, time);
      if (refusal !== null) {
        if (refusal.outcome === 'sold-out' || refusal.outcome === 'slot-full') this.rememberFull(slot);
        return refusal.outcome === 'slot-full' ? this.slotFull(date, day.hours as DayHours, time) : refusal;
      }
      // The rows a first sale needs. The date's row is made again even when it exists: it carries
      // the copy of the day's hours the write read on MySQL (TAKE_DAY_AND_SLOT_SQL), copied anew.
      await this.hours.ensureAdmissionsRow(date);
      if (day.slotSold === null) await this.slots.ensureSlotRow(date, time);
      // Refused with room as read: taken meanwhile, or the day changed between the write and the read.
      if (attempt >= ADMIT_ATTEMPTS) return this.slotFull(date, day.hours as DayHours, time);
    }
  }

  /**
   * Why `day` as read refuses a sale at `time`, or null when it has room there: `slot-full` stands
   * for the refusal slotFull makes (it reads the next slots with room).
   */
  private whyRefused(day: SlotDay, time: string): SlotAdmissionOutcome | null {
    if (day.hours === null) return { outcome: 'closed' };
    const grid = day.hours.slots;
    if (grid === undefined) return { outcome: 'no-slots' };
    const times = slotTimes(day.hours);
    if (!times.includes(time)) return { outcome: 'unknown-time', times };
    if (day.hours.capacity !== null && day.sold !== null && isFull(day.hours.capacity, day.sold)) {
      return { outcome: 'sold-out', capacity: day.hours.capacity };
    }
    if (day.slotSold !== null && isFull(grid.capacity, day.slotSold)) {
      return { outcome: 'slot-full', time, capacity: grid.capacity, next: [] };
    }
    return null;
  }

  private rememberFull(slot: string): void {
    if (this.fullSlots.size >= FULL_SLOTS_REMEMBERED) this.fullSlots.clear();
    this.fullSlots.add(slot);
  }

  /**
   * A sale without a time: as a day without slots sells (one write); a day with slots refuses it,
   * and the read that follows names its slots (unknown-time).
   */
  private async admitWithoutTime(date: string, joined: readonly SqlStatement[]): Promise<SlotAdmissionOutcome> {
    for (let attempt = 1; ; attempt++) {
      const admission = await this.days.admitGeneral(date, joined);
      if (admission.outcome === 'admitted') return { outcome: 'admitted', time: null };
      if (admission.outcome !== 'slotted') return admission;
      const day = await this.slots.day(date, '');
      if (day.hours === null) return { outcome: 'closed' };
      if (day.hours.slots !== undefined) return { outcome: 'unknown-time', times: slotTimes(day.hours) };
      // Its slots were removed since the refusal: a sale of the whole day again. Slots that keep
      // coming and going between reads: answered as admitGeneral answers a day it cannot decide.
      if (attempt >= ADMIT_ATTEMPTS) return { outcome: 'closed' };
    }
  }

  private async slotFull(date: string, hours: DayHours, time: string): Promise<SlotAdmissionOutcome> {
    const capacity = hours.slots?.capacity ?? 0;
    const sold = await this.slots.soldPerSlot(date);
    const daySold = await this.hours.soldOn(date);
    const next = slotsWithRoom(hours, daySold, sold)
      .filter((slot) => slot.time > time && slot.ticketsAvailable > 0)
      .slice(0, NEXT_SLOTS_NAMED)
      .map((slot) => slot.time);
    return { outcome: 'slot-full', time, capacity, next };
  }
}

/** Each slot of `hours` with what is left of it and of the day (`daySold` of its capacity). */
export function slotsWithRoom(hours: DayHours, daySold: number, sold: ReadonlyMap<string, number>): Slot[] {
  const capacity = hours.slots?.capacity ?? 0;
  const dayLeft = placesLeft(hours.capacity, daySold);
  return slotTimes(hours).map((time) => {
    const slotLeft = Math.max(0, capacity - (sold.get(time) ?? 0));
    return { time, capacity, ticketsAvailable: dayLeft === undefined ? slotLeft : Math.min(slotLeft, dayLeft) };
  });
}
