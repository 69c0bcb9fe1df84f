import { describe, expect, it } from 'vitest';
import { CursorKey } from '../special-events/cursor-signing-keys.js';
import { decodeTicketCursor, encodeTicketCursor, type TicketFilters, ticketCursorKeyId } from './ticket-cursor.js';

const KEY = new CursorKey('k1', Buffer.alloc(32, 7));
const OTHER_KEY = new CursorKey('k1', Buffer.alloc(32, 8));
const TICKET = '0196a8f4-6e2b-7c3d-9e4f-5a6b7c8d9e0f';
const FILTERS = { ticketDate: '2026-12-05', email: 'a@example.com' };

describe('ticket search cursors', () => {
  it('give back the ticket id with the filters and key they were issued for', () => {
    const cursor = encodeTicketCursor(TICKET, FILTERS, KEY);
    expect(ticketCursorKeyId(cursor)).toBe('k1');
    expect(decodeTicketCursor(cursor, FILTERS, KEY)).toBe(TICKET);
    expect(cursor.length).toBeLessThan(100);
  });

  it('are refused with other filters, another secret, an unknown key or a changed position', () => {
    const cursor = encodeTicketCursor(TICKET, FILTERS, KEY);
    expect(decodeTicketCursor(cursor, { ...FILTERS, email: 'b@example.com' }, KEY)).toBeNull();
    expect(decodeTicketCursor(cursor, { ticketDate: '2026-12-05' }, KEY)).toBeNull();
    expect(decodeTicketCursor(cursor, FILTERS, OTHER_KEY)).toBeNull();
    expect(decodeTicketCursor(cursor, FILTERS, undefined)).toBeNull();
    const [, keyId, mac] = cursor.split('.');
    const moved = `${Buffer.from('0196a8f4-6e2b-7c3d-9e4f-5a6b7c8d9e10').toString('base64url')}.${keyId}.${mac}`;
    expect(decodeTicketCursor(moved, FILTERS, KEY)).toBeNull();
    expect(ticketCursorKeyId('not a cursor')).toBeNull();
  });

  it('are bound to the order filtered by, and a cursor without one stays valid as it was', () => {
    const byOrder = { ...FILTERS, orderId: '0196a8f4-6e2b-7c3d-9e4f-5a6b7c8d9e11' };
    const cursor = encodeTicketCursor(TICKET, byOrder, KEY);
    expect(decodeTicketCursor(cursor, byOrder, KEY)).toBe(TICKET);
    expect(decodeTicketCursor(cursor, FILTERS, KEY)).toBeNull();
    expect(decodeTicketCursor(cursor, { ...byOrder, orderId: '0196a8f4-6e2b-7c3d-9e4f-5a6b7c8d9e12' }, KEY)).toBeNull();
    expect(decodeTicketCursor(encodeTicketCursor(TICKET, FILTERS, KEY), byOrder, KEY)).toBeNull();
  });

  it('are the cursors issued before (the MAC text unchanged): a deploy does not break a walk under way', () => {
    // Issued by the code of 3e23235 (filtersText as an array joined by newlines) with KEY.
    const issued: [TicketFilters, string][] = [
      [FILTERS, 'MDE5NmE4ZjQtNmUyYi03YzNkLTllNGYtNWE2YjdjOGQ5ZTBm.k1.a0fj7TKOcz-dVHydKlwPcg'],
      [
        { eventId: 'e', status: 'active', orderId: '0196a8f4-6e2b-7c3d-9e4f-5a6b7c8d9e11' },
        'MDE5NmE4ZjQtNmUyYi03YzNkLTllNGYtNWE2YjdjOGQ5ZTBm.k1.2R_FD0Agi_m0OvKmV-rNLg',
      ],
      [{}, 'MDE5NmE4ZjQtNmUyYi03YzNkLTllNGYtNWE2YjdjOGQ5ZTBm.k1.FtHH0sAHf3ulS7O24-irRw'],
    ];
    for (const [filters, cursor] of issued) {
      expect(encodeTicketCursor(TICKET, filters, KEY)).toBe(cursor);
      expect(decodeTicketCursor(cursor, filters, KEY)).toBe(TICKET);
    }
  });

  it('are refused when signed over something that is not a ticket id', () => {
    expect(decodeTicketCursor(encodeTicketCursor('nope', {}, KEY), {}, KEY)).toBeNull();
  });
});
