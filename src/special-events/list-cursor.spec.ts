import { createHmac, randomBytes } from 'node:crypto';
import { CursorKey } from './cursor-signing-keys.js';
import { cursorKeyId, decodeCursor, encodeCursor } from './list-cursor.js';

const EVENT_ID = '0196a8f4-6e2b-7c3d-9e4f-5a6b7c8d9e0f';
const SECRETS = { k1: randomBytes(32), k2: randomBytes(32) };
const KEY = new CursorKey('k1', SECRETS.k1);
const OTHER = new CursorKey('k2', SECRETS.k2);

/** A cursor for `payload` (any JSON) signed properly with `key`: what a holder of the key could make. */
function signed(payload: unknown, key: CursorKey = KEY): string {
  const text = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  const mac = createHmac('sha256', SECRETS[key.id as 'k1' | 'k2'])
    .update(`${text}.${key.id}`)
    .digest()
    .subarray(0, 16)
    .toString('base64url');
  return `${text}.${key.id}.${mac}`;
}

describe('CursorKey', () => {
  it.each([0, 1, 16, 32, 64, 65, 200])(
    'computes HMAC-SHA256 exactly as createHmac does, for a %i-byte key',
    (length) => {
      const secret = randomBytes(length);
      const key = new CursorKey('x', secret);
      for (const text of ['', 'a', 'WyIyMDI2LTAzLTE0Il0.k1', 'é🎟'.repeat(50)]) {
        expect(key.mac(text).equals(createHmac('sha256', secret).update(text, 'utf8').digest())).toBe(true);
      }
    },
  );
});

describe('list cursors', () => {
  it('round-trip a position within the range they were issued for, and name their key', () => {
    const range = { start: '2026-01-01', end: '2026-12-31' };
    const cursor = encodeCursor({ key: '2026-03-04', eventId: EVENT_ID }, range, KEY);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.k1\.[A-Za-z0-9_-]{22}$/);
    expect(cursorKeyId(cursor)).toBe('k1');
    expect(decodeCursor(cursor, range, KEY)).toEqual({ key: '2026-03-04', eventId: EVENT_ID });
  });

  it('the unfiltered list may be positioned among the events without ISO dates', () => {
    const cursor = encodeCursor({ key: '~', eventId: EVENT_ID }, {}, KEY);
    expect(decodeCursor(cursor, {}, KEY)).toEqual({ key: '~', eventId: EVENT_ID });
    // A range never reaches the undated events.
    const ranged = encodeCursor({ key: '~', eventId: EVENT_ID }, { start: '2026-01-01' }, KEY);
    expect(decodeCursor(ranged, { start: '2026-01-01' }, KEY)).toBeNull();
  });

  it('is refused for another range than its own', () => {
    const cursor = encodeCursor({ key: '2026-03-04', eventId: EVENT_ID }, { start: '2026-01-01' }, KEY);
    expect(decodeCursor(cursor, {}, KEY)).toBeNull();
    expect(decodeCursor(cursor, { start: '2026-01-02' }, KEY)).toBeNull();
    expect(decodeCursor(cursor, { start: '2026-01-01', end: '2026-12-31' }, KEY)).toBeNull();
  });

  it('is refused when its position or range was rewritten without the key (issue 26), or with another key', () => {
    const range = { start: '2026-01-01' };
    const cursor = encodeCursor({ key: '2026-03-04', eventId: EVENT_ID }, range, KEY);
    const [, keyId, mac] = cursor.split('.');
    const moved = Buffer.from(JSON.stringify(['2026-09-01', EVENT_ID, '2026-01-01', null])).toString('base64url');
    expect(decodeCursor(`${moved}.${keyId}.${mac}`, range, KEY)).toBeNull();
    const widened = Buffer.from(JSON.stringify(['2026-03-04', EVENT_ID, null, null])).toString('base64url');
    expect(decodeCursor(`${widened}.${keyId}.${mac}`, {}, KEY)).toBeNull();
    // The old unsigned form, and a signature with a flipped character, are no cursors either.
    expect(decodeCursor(cursor.split('.')[0], range, KEY)).toBeNull();
    const flipped = mac.startsWith('A') ? `B${mac.slice(1)}` : `A${mac.slice(1)}`;
    expect(decodeCursor(`${cursor.split('.')[0]}.${keyId}.${flipped}`, range, KEY)).toBeNull();
    // Signed by a key that is not the one it names, or checked against another key.
    expect(decodeCursor(signed(['2026-03-04', EVENT_ID, '2026-01-01', null], OTHER), range, KEY)).toBeNull();
    expect(decodeCursor(cursor, range, undefined)).toBeNull();
    expect(decodeCursor(cursor, range, new CursorKey('k1', SECRETS.k2))).toBeNull();
  });

  it.each([
    ['not JSON', '{'],
    ['not an array', { k: 1 }],
    ['a key that is no date', ['2026-02-30', EVENT_ID, null, null]],
    ['an eventId that is no UUID', ['2026-02-03', 'x', null, null]],
    ['an upper-case eventId', ['2026-02-03', EVENT_ID.toUpperCase(), null, null]],
    ['a number key', [20260203, EVENT_ID, null, null]],
  ])('is refused when it holds %s, even signed', (_label, payload) => {
    const cursor =
      typeof payload === 'string'
        ? (() => {
            const text = Buffer.from(payload).toString('base64url');
            const mac = createHmac('sha256', SECRETS.k1)
              .update(`${text}.k1`)
              .digest()
              .subarray(0, 16)
              .toString('base64url');
            return `${text}.k1.${mac}`;
          })()
        : signed(payload);
    expect(decodeCursor(cursor, {}, KEY)).toBeNull();
  });

  it.each(['a+b/c=', 'x.y', 'a.b.c.d', '..', 'a.k1.'])('has no key id when shaped %s', (cursor) => {
    expect(cursorKeyId(cursor)).toBeNull();
  });
});
