import { isRfc9562Uuid } from '../common/validation/validators.js';
import { isCalendarDate, NO_DATE } from '../database/event-dates.js';
import type { ListPosition } from './special-events.store.js';

/** The date range a list was asked for; a cursor is valid only for the range it was issued in. */
export interface ListRange {
  readonly start?: string;
  readonly end?: string;
}

/**
 * The `cursor` of a `next` link: the position of the page's last event and the range it belongs
 * to, as base64url JSON. Opaque to clients (docs/api.md says so); decoded strictly, so that a
 * cursor that was altered or belongs to another range is a 400, never a wrong page.
 */
export function encodeCursor(position: ListPosition, range: ListRange): string {
  const payload = [position.key, position.eventId, range.start ?? null, range.end ?? null];
  return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
}

/** The position a cursor holds, or null when it is not one this service issued for `range`. */
export function decodeCursor(cursor: string, range: ListRange): ListPosition | null {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(payload) || payload.length !== 4) return null;
  const [key, eventId, start, end] = payload as unknown[];
  if (start !== (range.start ?? null) || end !== (range.end ?? null)) return null;
  if (typeof key !== 'string' || typeof eventId !== 'string') return null;
  if (!isRfc9562Uuid(eventId) || eventId !== eventId.toLowerCase()) return null;
  const unfiltered = range.start === undefined && range.end === undefined;
  if (!isCalendarDate(key) && !(unfiltered && key === NO_DATE)) return null;
  return { key, eventId };
}
