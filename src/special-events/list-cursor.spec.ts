import { decodeCursor, encodeCursor } from './list-cursor.js';

const EVENT_ID = '0196a8f4-6e2b-7c3d-9e4f-5a6b7c8d9e0f';

describe('list cursors', () => {
  it('round-trip a position within the range they were issued for', () => {
    const range = { start: '2026-01-01', end: '2026-12-31' };
    const cursor = encodeCursor({ key: '2026-03-04', eventId: EVENT_ID }, range);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, range)).toEqual({ key: '2026-03-04', eventId: EVENT_ID });
  });

  it('the unfiltered list may be positioned among the events without ISO dates', () => {
    const cursor = encodeCursor({ key: '~', eventId: EVENT_ID }, {});
    expect(decodeCursor(cursor, {})).toEqual({ key: '~', eventId: EVENT_ID });
    // A range never reaches the undated events.
    const ranged = encodeCursor({ key: '~', eventId: EVENT_ID }, { start: '2026-01-01' });
    expect(decodeCursor(ranged, { start: '2026-01-01' })).toBeNull();
  });

  it('is refused for another range than its own', () => {
    const cursor = encodeCursor({ key: '2026-03-04', eventId: EVENT_ID }, { start: '2026-01-01' });
    expect(decodeCursor(cursor, {})).toBeNull();
    expect(decodeCursor(cursor, { start: '2026-01-02' })).toBeNull();
    expect(decodeCursor(cursor, { start: '2026-01-01', end: '2026-12-31' })).toBeNull();
  });

  it.each([
    ['not base64url', 'a+b/c='],
    ['not JSON', Buffer.from('{').toString('base64url')],
    ['not an array', Buffer.from('{"k":1}').toString('base64url')],
    ['a key that is no date', Buffer.from(JSON.stringify(['2026-02-30', EVENT_ID, null, null])).toString('base64url')],
    ['an eventId that is no UUID', Buffer.from(JSON.stringify(['2026-02-03', 'x', null, null])).toString('base64url')],
    [
      'an upper-case eventId',
      Buffer.from(JSON.stringify(['2026-02-03', EVENT_ID.toUpperCase(), null, null])).toString('base64url'),
    ],
    ['a number key', Buffer.from(JSON.stringify([20260203, EVENT_ID, null, null])).toString('base64url')],
  ])('is refused when it holds %s', (_label, cursor) => {
    expect(decodeCursor(cursor, {})).toBeNull();
  });
});
