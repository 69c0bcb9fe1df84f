import type { SpecialEvent } from '../special-events/special-event.entity.js';
import { collectEvents, type FeedPage, renderFeed, utcDateTime } from './calendar-feed.js';

const event = (eventId: string, dates: string[], name = `Event ${eventId}`): SpecialEvent => ({
  eventId,
  name,
  location: 'Hall 1',
  eventDescription: 'A talk.',
  dates,
  price: 5,
  version: 1,
  sortDate: dates[0] ?? '~',
  capacity: null,
  ticketsSold: 0,
});

/** Pages of `size` events from `events`, the cursor being the index of the next page's first. */
function pagesOf(events: SpecialEvent[], size: number): (cursor: string | undefined) => Promise<FeedPage> {
  return (cursor) => {
    const from = cursor === undefined ? 0 : Number(cursor);
    const next = from + size;
    return Promise.resolve({
      events: events.slice(from, next),
      nextCursor: next < events.length ? String(next) : undefined,
    });
  };
}

const noStamps = (): Promise<ReadonlyMap<string, number>> => Promise.resolve(new Map());

describe('collectEvents', () => {
  const events = Array.from({ length: 7 }, (_, i) => event(`e${i}`, ['2026-01-01']));

  it('follows the cursors to the last page, reading the stamps once per page', async () => {
    const asked: string[][] = [];
    const collected = await collectEvents(
      pagesOf(events, 3),
      (ids) => {
        asked.push([...ids]);
        return Promise.resolve(new Map(ids.map((id) => [id, 1000])));
      },
      100,
    );
    expect(collected.events.map((e) => e.eventId)).toEqual(events.map((e) => e.eventId));
    expect(asked).toEqual([['e0', 'e1', 'e2'], ['e3', 'e4', 'e5'], ['e6']]);
    expect(collected.modifiedAt.get('e6')).toBe(1000);
    expect(collected.truncated).toBe(false);
  });

  it('stops at the cap, part way through a page, and says so', async () => {
    const collected = await collectEvents(pagesOf(events, 3), noStamps, 4);
    expect(collected.events.map((e) => e.eventId)).toEqual(['e0', 'e1', 'e2', 'e3']);
    expect(collected.truncated).toBe(true);
  });

  it('is not truncated when the cap is exactly the number of events', async () => {
    const collected = await collectEvents(pagesOf(events, 7), noStamps, 7);
    expect(collected.events).toHaveLength(7);
    expect(collected.truncated).toBe(false);
  });

  it('goes on past empty pages that still have a next one (a list page cut short by its walk bound)', async () => {
    const pages: FeedPage[] = [{ events: [], nextCursor: 'a' }, { events: [events[0]] }];
    const collected = await collectEvents((cursor) => Promise.resolve(pages[cursor === undefined ? 0 : 1]), noStamps);
    expect(collected.events).toEqual([events[0]]);
  });

  it('keeps an event met twice once, as last seen', async () => {
    const moved = event('e0', ['2026-02-01'], 'Moved');
    const pages: FeedPage[] = [{ events: [events[0]], nextCursor: 'a' }, { events: [moved] }];
    const collected = await collectEvents((cursor) => Promise.resolve(pages[cursor === undefined ? 0 : 1]), noStamps);
    expect(collected.events).toEqual([moved]);
  });
});

describe('renderFeed', () => {
  const text = (body: Buffer): string[] => body.toString('utf8').split('\r\n');

  it('gives one VEVENT per distinct ISO date within the range, ordered by date then eventId', () => {
    const collected = {
      events: [
        event('b', ['2026-01-03', 'every Sunday', '2026-01-01T18:30Z', '2026-01-03']),
        event('a', ['2026-01-03', '2025-12-31']),
      ],
      modifiedAt: new Map([['a', Date.UTC(2026, 0, 2, 3, 4, 5, 678)]]),
      truncated: false,
    };
    const lines = text(renderFeed(collected, { startDate: '2026-01-01' }, Date.UTC(2026, 5, 1)).body);
    expect(lines.filter((line) => line.startsWith('UID:'))).toEqual([
      'UID:b-20260101@museum-special-events',
      'UID:a-20260103@museum-special-events',
      'UID:b-20260103@museum-special-events',
    ]);
    expect(lines.filter((line) => line.startsWith('DTEND'))).toEqual([
      'DTEND;VALUE=DATE:20260102',
      'DTEND;VALUE=DATE:20260104',
      'DTEND;VALUE=DATE:20260104',
    ]);
    // a's stamp, then b's generation time (no stamp).
    expect(lines.filter((line) => line.startsWith('LAST-MODIFIED'))).toEqual([
      'LAST-MODIFIED:20260601T000000Z',
      'LAST-MODIFIED:20260102T030405Z',
      'LAST-MODIFIED:20260601T000000Z',
    ]);
    expect(lines.at(-1)).toBe('');
    expect(lines.at(-2)).toBe('END:VCALENDAR');
  });

  it('ends DTEND the next day across months, years and leap days', () => {
    const collected = {
      events: [event('a', ['2024-02-28', '2024-02-29', '2025-02-28', '2026-12-31'])],
      modifiedAt: new Map<string, number>(),
      truncated: false,
    };
    const lines = text(renderFeed(collected, {}, 0).body).filter((line) => /^DT(START|END)/.test(line));
    expect(lines).toEqual([
      'DTSTART;VALUE=DATE:20240228',
      'DTEND;VALUE=DATE:20240229',
      'DTSTART;VALUE=DATE:20240229',
      'DTEND;VALUE=DATE:20240301',
      'DTSTART;VALUE=DATE:20250228',
      'DTEND;VALUE=DATE:20250301',
      'DTSTART;VALUE=DATE:20261231',
      'DTEND;VALUE=DATE:20270101',
    ]);
  });

  it('counts events without an ISO date, and marks a truncated feed', () => {
    const collected = {
      events: [event('a', ['every Sunday']), event('b', []), event('c', ['2026-01-01'])],
      modifiedAt: new Map<string, number>(),
      truncated: true,
    };
    const lines = text(renderFeed(collected, {}, 0).body);
    expect(lines).toContain('X-MUSEUM-SKIPPED-EVENTS:2');
    expect(lines).toContain('X-MUSEUM-TRUNCATED:EVENTS=10000');
    expect(lines.filter((line) => line === 'BEGIN:VEVENT')).toHaveLength(1);
  });

  it('stops before the VEVENTs pass the size bound, keeping the earliest days, and says so', () => {
    const collected = {
      events: [event('a', ['2026-01-01', '2026-01-02', '2026-01-03'])],
      modifiedAt: new Map<string, number>(),
      truncated: false,
    };
    const whole = renderFeed(collected, {}, 0).body.toString('utf8');
    expect(whole).not.toContain('X-MUSEUM-TRUNCATED');
    const one = /BEGIN:VEVENT[\s\S]*?END:VEVENT\r\n/.exec(whole)?.[0] ?? '';
    const cut = text(renderFeed(collected, {}, 0, Buffer.byteLength(one) * 2 + 10).body);
    expect(cut).toContain(`X-MUSEUM-TRUNCATED:OCTETS=${Buffer.byteLength(one) * 2 + 10}`);
    expect(cut.filter((line) => line.startsWith('DTSTART'))).toEqual([
      'DTSTART;VALUE=DATE:20260101',
      'DTSTART;VALUE=DATE:20260102',
    ]);
    expect(cut.at(-2)).toBe('END:VCALENDAR');
  });

  it('gives the same bytes and ETag for the same events, another ETag when one changes', () => {
    const collected = { events: [event('a', ['2026-01-01'])], modifiedAt: new Map([['a', 5]]), truncated: false };
    const first = renderFeed(collected, {}, 1);
    expect(renderFeed(collected, {}, 2)).toEqual(first);
    expect(first.etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    const renamed = { ...collected, events: [event('a', ['2026-01-01'], 'Renamed')] };
    expect(renderFeed(renamed, {}, 1).etag).not.toBe(first.etag);
  });

  it('writes UTC date-times without fractions', () => {
    expect(utcDateTime(Date.UTC(2026, 10, 25, 9, 5, 7, 999))).toBe('20261125T090507Z');
  });
});
