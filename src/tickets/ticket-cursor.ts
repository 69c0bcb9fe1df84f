import { timingSafeEqual } from 'node:crypto';
import { isRfc9562Uuid } from '../common/validation/validators.js';
import type { CursorKey } from '../special-events/cursor-signing-keys.js';

/** What a ticket search is filtered by: a cursor is valid only for the filters it was issued for. */
export interface TicketFilters {
  readonly eventId?: string;
  readonly ticketDate?: string;
  readonly status?: string;
  readonly email?: string;
  readonly orderId?: string;
}

/** Bytes of HMAC-SHA256 a cursor carries: 128 bits, as the special events' list cursors. */
const MAC_BYTES = 16;
const PART = /^[A-Za-z0-9_-]+$/;

/**
 * The filters as the MAC covers them: each filter's value or nothing, one per line, in a fixed
 * order (no filter holds a newline: the query's rules allow none).
 */
function filtersText(filters: TicketFilters): string {
  // orderId only when given: a cursor issued before orders keeps its MAC. One template, no arrays.
  const orderId = filters.orderId === undefined ? '' : `\n${filters.orderId}`;
  return `${filters.eventId ?? ''}\n${filters.ticketDate ?? ''}\n${filters.status ?? ''}\n${filters.email ?? ''}${orderId}`;
}

/**
 * The `cursor` of a ticket search's `next` link: the id of the page's last ticket (base64url),
 * the id of the key that signed it and an HMAC-SHA256 of both with the filters
 * (`payload.keyId.mac`), with the keys that sign the special events' list cursors. The filters are
 * signed, not carried, so a cursor stays short whatever the email searched for; a cursor changed,
 * or sent with other filters, is a 400, never a page from a forged position.
 */
export function encodeTicketCursor(afterTicketId: string, filters: TicketFilters, key: CursorKey): string {
  const payload = Buffer.from(afterTicketId, 'utf8').toString('base64url');
  return `${payload}.${key.id}.${mac(payload, key.id, filters, key)}`;
}

/** The id of the key a cursor says it was signed with, or null when it has no such shape. */
export function ticketCursorKeyId(cursor: string): string | null {
  const parts = cursor.split('.');
  return parts.length === 3 && parts.every((part) => PART.test(part)) ? parts[1] : null;
}

/**
 * The ticket id a cursor holds, or null when it is not one this service issued for `filters`:
 * its signature does not verify with `key` (the key of ticketCursorKeyId's id, undefined when
 * unknown), or what it holds is not a ticket id.
 */
export function decodeTicketCursor(cursor: string, filters: TicketFilters, key: CursorKey | undefined): string | null {
  if (key === undefined || ticketCursorKeyId(cursor) !== key.id) return null;
  const [payload, keyId, signature] = cursor.split('.');
  const expected = Buffer.from(mac(payload, keyId, filters, key), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const ticketId = Buffer.from(payload, 'base64url').toString('utf8');
  return isRfc9562Uuid(ticketId) && ticketId === ticketId.toLowerCase() ? ticketId : null;
}

function mac(payload: string, keyId: string, filters: TicketFilters, key: CursorKey): string {
  return key
    .mac(`tickets\n${payload}.${keyId}\n${filtersText(filters)}`)
    .subarray(0, MAC_BYTES)
    .toString('base64url');
}
