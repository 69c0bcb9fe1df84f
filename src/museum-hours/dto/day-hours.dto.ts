import { SLOT_CAPACITY_MAX, SLOT_MINUTES, type SlotGrid, TIME_PATTERN } from '../museum-days.js';

/** The most general-admission tickets a day may have: far beyond any museum, inside an INT. */
export const CAPACITY_MAX = 1_000_000;

const TIME_EXAMPLE = 'e.g. 09:30';

/** TIME_PATTERN as the OpenAPI document writes it. */
export const TIME_SCHEMA_PATTERN = '^([01]\\d|2[0-3]):([0-5]\\d)$';

/** Why `value` is not an `HH:mm` time, or null. */
export function timeProblem(value: unknown): string | null {
  return typeof value === 'string' && TIME_PATTERN.test(value)
    ? null
    : `must be a 24-hour time HH:mm from 00:00 to 23:59, ${TIME_EXAMPLE}`;
}

/** Why `value` is not a capacity, or null. */
export function capacityProblem(value: unknown): string | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= CAPACITY_MAX
    ? null
    : `must be a whole number from 1 to ${CAPACITY_MAX} (leave it out for no limit)`;
}

/** Why `value` is not a slot length in minutes, or null. */
export function slotMinutesProblem(value: unknown): string | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= SLOT_MINUTES.min && value <= SLOT_MINUTES.max
    ? null
    : `must be a whole number of minutes from ${SLOT_MINUTES.min} to ${SLOT_MINUTES.max}`;
}

/** Why `value` is not a slot's capacity, or null. */
export function slotCapacityProblem(value: unknown): string | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= SLOT_CAPACITY_MAX
    ? null
    : `must be a whole number from 1 to ${SLOT_CAPACITY_MAX}`;
}

/** The fields of a slot grid that go together: both, or neither (a day without slots). */
export function slotPairProblem(slotMinutes: unknown, slotCapacity: unknown): string | null {
  if ((slotMinutes === undefined) === (slotCapacity === undefined)) return null;
  return slotMinutes === undefined
    ? 'slotMinutes is required with slotCapacity (or leave both out: no time slots)'
    : 'slotCapacity is required with slotMinutes (or leave both out: no time slots)';
}

/** The grid the fields give, or undefined without slots (the fields already checked). */
export function slotGridOf(slotMinutes: number | undefined, slotCapacity: number | undefined): SlotGrid | undefined {
  return slotMinutes === undefined || slotCapacity === undefined
    ? undefined
    : { minutes: slotMinutes, capacity: slotCapacity };
}

/**
 * Why `value` is not `{timeOpen, timeClose, capacity?}` with timeClose after timeOpen (a day ends
 * by midnight), as messages naming the inner field; empty when it is.
 */
export function dayHoursProblems(value: unknown): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return ['must be null (closed) or an object {timeOpen, timeClose, capacity?, slotMinutes?, slotCapacity?}'];
  }
  const hours = value as Record<string, unknown>;
  const problems = Object.keys(hours)
    .filter((key) => !['timeOpen', 'timeClose', 'capacity', 'slotMinutes', 'slotCapacity'].includes(key))
    .map((key) => `${key} is not a property of a day's hours`);
  for (const key of ['timeOpen', 'timeClose'] as const) {
    const problem = hours[key] === undefined ? 'is required' : timeProblem(hours[key]);
    if (problem !== null) problems.push(`${key} ${problem}`);
  }
  if (hours.capacity !== undefined) {
    const problem = capacityProblem(hours.capacity);
    if (problem !== null) problems.push(`capacity ${problem}`);
  }
  if (hours.slotMinutes !== undefined) {
    const problem = slotMinutesProblem(hours.slotMinutes);
    if (problem !== null) problems.push(`slotMinutes ${problem}`);
  }
  if (hours.slotCapacity !== undefined) {
    const problem = slotCapacityProblem(hours.slotCapacity);
    if (problem !== null) problems.push(`slotCapacity ${problem}`);
  }
  const pair = slotPairProblem(hours.slotMinutes, hours.slotCapacity);
  if (pair !== null) problems.push(pair);
  if (problems.length === 0 && (hours.timeClose as string) <= (hours.timeOpen as string)) {
    problems.push(
      hours.slotMinutes === undefined
        ? 'timeClose must be after timeOpen (a day may not run past midnight)'
        : 'timeClose must be after timeOpen, so that the first slot (at timeOpen) starts before close',
    );
  }
  return problems;
}

/**
 * A day's opening hours as the weekly body and answer write them: `capacity` absent for no limit,
 * `slotMinutes` and `slotCapacity` absent for no time slots.
 */
export interface DayHoursDto {
  timeOpen: string;
  timeClose: string;
  capacity?: number;
  slotMinutes?: number;
  slotCapacity?: number;
}
