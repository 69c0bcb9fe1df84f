import { timingSafeEqual } from 'node:crypto';
import { isRfc9562Uuid } from '../common/validation/validators.js';
import { isCalendarDate, NO_DATE } from '../domain/calendar-dates.js';
import type { CursorKey } from './cursor-signing-keys.js';
import type { ListPosition } from './special-events.repository.js';

/** The date range a list was asked for; a cursor is valid only for the range it was issued in. */
export interface ListRange {
  readonly start?: string;
  readonly end?: string;
}

/** Bytes of HMAC-SHA256 a cursor carries: 128 bits, as forgeable as guessing a random UUID twice over. */
const MAC_BYTES = 16;
const PART = /^[A-Za-z0-9_-]+$/;

/**
 * The `cursor` of a `next` link: the position of the page's last event and the range it belongs
 * to, as base64url JSON, then the id of the key that signed it and an HMAC-SHA256 of both
 * (`payload.keyId.mac`). Opaque to clients (docs/api.md says so); a cursor whose position or range
 * was changed, or that belongs to another range, is a 400, never a page from a forged position.
 */
export function encodeCursor(position: ListPosition, range: ListRange, key: CursorKey): string {
  const payload = Buffer.from(
    JSON.stringify([position.key, position.eventId, range.start ?? null, range.end ?? null]),
    'utf8',
  ).toString('base64url');
  return `${payload}.${key.id}.${mac(`${payload}.${key.id}`, key)}`;
}

/** The id of the key a cursor says it was signed with, or null when it has no such shape. */
export function cursorKeyId(cursor: string): string | null {
  const parts = cursor.split('.');
  return parts.length === 3 && parts.every((part) => PART.test(part)) ? parts[1] : null;
}

/**
 * The position a cursor holds, or null when it is not one this service issued for `range`: its
 * signature does not verify with `key` (the key of cursorKeyId's id, undefined when unknown), or
 * what it holds is not a position of this range.
 */
export function decodeCursor(cursor: string, range: ListRange, key: CursorKey | undefined): ListPosition | null {
  if (key === undefined || cursorKeyId(cursor) !== key.id) return null;
  const [payloadText, keyId, signature] = cursor.split('.');
  const expected = Buffer.from(mac(`${payloadText}.${keyId}`, key), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(payloadText, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(payload) || payload.length !== 4) return null;
  const [position, eventId, start, end] = payload as unknown[];
  if (start !== (range.start ?? null) || end !== (range.end ?? null)) return null;
  if (typeof position !== 'string' || typeof eventId !== 'string') return null;
  if (!isRfc9562Uuid(eventId) || eventId !== eventId.toLowerCase()) return null;
  const unfiltered = range.start === undefined && range.end === undefined;
  if (!isCalendarDate(position) && !(unfiltered && position === NO_DATE)) return null;
  return { key: position, eventId };
}

function mac(text: string, key: CursorKey): string {
  return key.mac(text).subarray(0, MAC_BYTES).toString('base64url');
}
