import type { SpecialEvent } from '../special-events/special-event.entity.js';
import { type FeedPage, type FeedRange, utcDateTime } from './calendar-feed.js';
import { type BuiltFeed, buildFeed, type FeedLimits, type FeedSources } from './feed-builder.js';

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
  durationMinutes: null,
  capacityPerDate: null,
  prices: null,
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
const goOn = (): Promise<boolean> => Promise.resolve(true);
const LIMITS: FeedLimits = { cap: 10_000, maxOctets: 16 * 1024 * 1024, stampless: 0 };

async function build(
  readPage: FeedSources['readPage'],
  options: { range?: FeedRange; limits?: Partial<FeedLimits>; sources?: Partial<FeedSources> } = {},
): Promise<string[]> {
  const built = await buildFeed(
    options.range ?? {},
    { readPage, readStamps: noStamps, pause: goOn, ...options.sources },
    { ...LIMITS, ...options.limits },
  );
  return text(built);
}

function text(built: BuiltFeed | undefined): string[] {
  expect(built).toBeDefined();
  const body = Buffer.concat(built?.chunks ?? []);
  expect(body.length).toBe(built?.octets);
  return body.toString('utf8').split('\r\n');
}

const uids = (lines: string[]): string[] =>
  lines.filter((line) => line.startsWith('UID:')).map((line) => line.slice(4).replace('@museum-special-events', ''));

describe('buildFeed, reading the list', () => {
  const events = Array.from({ length: 7 }, (_, i) => event(`e${i}`, ['2026-01-01']));

  it('follows the cursors to the last page, reading the stamps once per page', async () => {
    const asked: string[][] = [];
    const lines = await build(pagesOf(events, 3), {
      sources: {
        readStamps: (ids) => {
          asked.push([...ids]);
          return Promise.resolve(new Map(ids.map((id) => [id, Date.UTC(2026, 0, 2)])));
        },
      },
    });
    expect(uids(lines)).toEqual(events.map((e) => `${e.eventId}-20260101`));
    expect(asked).toEqual([['e0', 'e1', 'e2'], ['e3', 'e4', 'e5'], ['e6']]);
    expect(lines.filter((line) => line.startsWith('DTSTAMP'))).toEqual(Array(7).fill('DTSTAMP:20260102T000000Z'));
    expect(lines.some((line) => line.startsWith('X-MUSEUM-TRUNCATED'))).toBe(false);
  });

  it('stops at the cap, part way through a page, and says so', async () => {
    const lines = await build(pagesOf(events, 3), { limits: { cap: 4 } });
    expect(uids(lines)).toEqual(['e0-20260101', 'e1-20260101', 'e2-20260101', 'e3-20260101']);
    expect(lines).toContain('X-MUSEUM-TRUNCATED:EVENTS=4');
  });

  it('is not truncated when the cap is exactly the number of events', async () => {
    const lines = await build(pagesOf(events, 7), { limits: { cap: 7 } });
    expect(uids(lines)).toHaveLength(7);
    expect(lines.some((line) => line.startsWith('X-MUSEUM-TRUNCATED'))).toBe(false);
  });

  it('goes on past empty pages that still have a next one (a list page cut short by its walk bound)', async () => {
    const pages: FeedPage[] = [{ events: [], nextCursor: 'a' }, { events: [events[0]] }];
    const lines = await build((cursor) => Promise.resolve(pages[cursor === undefined ? 0 : 1]));
    expect(uids(lines)).toEqual(['e0-20260101']);
  });

  it('keeps an event met twice once, as first seen', async () => {
    const moved = event('e0', ['2026-02-01'], 'Moved');
    const pages: FeedPage[] = [{ events: [events[0]], nextCursor: 'a' }, { events: [moved] }];
    const lines = await build((cursor) => Promise.resolve(pages[cursor === undefined ? 0 : 1]));
    expect(uids(lines)).toEqual(['e0-20260101']);
  });

  it('pauses between slices of the work, and stops when the pause says the feed is no longer wanted', async () => {
    let pauses = 0;
    const counting = (): Promise<boolean> => Promise.resolve(++pauses > 0);
    await build(pagesOf(events, 3), { sources: { pause: counting } });
    // After each page read and after each VEVENT.
    expect(pauses).toBeGreaterThanOrEqual(3 + 7);
    let left = 4;
    const stopping = (): Promise<boolean> => Promise.resolve(--left > 0);
    const built = await buildFeed({}, { readPage: pagesOf(events, 3), readStamps: noStamps, pause: stopping }, LIMITS);
    expect(built).toBeUndefined();
  });
});

describe('buildFeed, rendering', () => {
  it('gives one VEVENT per distinct ISO date within the range, ordered by date then eventId, across pages', async () => {
    // In list order (first date in the range, then eventId); their later days interleave.
    const listed = [
      event('b', ['2026-01-03', 'every Sunday', '2026-01-01T18:30Z', '2026-01-03', '2026-01-09']),
      event('a', ['2026-01-03', '2025-12-31', '2026-01-05']),
      event('c', ['2026-01-04']),
      event('d', ['2026-01-08', '2026-01-06']),
    ];
    const lines = await build(pagesOf(listed, 1), {
      range: { startDate: '2026-01-01' },
      limits: { stampless: Date.UTC(2026, 5, 1) },
      sources: {
        readStamps: (ids) =>
          Promise.resolve(new Map(ids.includes('a') ? [['a', Date.UTC(2026, 0, 2, 3, 4, 5, 678)]] : [])),
      },
    });
    expect(uids(lines)).toEqual([
      'b-20260101',
      'a-20260103',
      'b-20260103',
      'c-20260104',
      'a-20260105',
      'd-20260106',
      'd-20260108',
      'b-20260109',
    ]);
    expect(lines.filter((line) => line.startsWith('DTEND')).slice(0, 2)).toEqual([
      'DTEND;VALUE=DATE:20260102',
      'DTEND;VALUE=DATE:20260104',
    ]);
    // a's stamp; the others have none, and carry the stamp the feed's tag covers.
    expect(lines.filter((line) => line.startsWith('LAST-MODIFIED')).slice(0, 3)).toEqual([
      'LAST-MODIFIED:20260601T000000Z',
      'LAST-MODIFIED:20260102T030405Z',
      'LAST-MODIFIED:20260601T000000Z',
    ]);
    expect(lines.at(-1)).toBe('');
    expect(lines.at(-2)).toBe('END:VCALENDAR');
  });

  it('ends DTEND the next day across months, years and leap days', async () => {
    const listed = [event('a', ['2024-02-28', '2024-02-29', '2025-02-28', '2026-12-31'])];
    const lines = (await build(pagesOf(listed, 1))).filter((line) => /^DT(START|END)/.test(line));
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

  it('gives a session its start and end in UTC, from its local time in the museum time zone', async () => {
    const tour: SpecialEvent = Object.assign(
      event('t', ['2026-12-24T18:00', '2026-12-24T14:00', '2026-12-25', '2026-07-01T09:30']),
      { durationMinutes: 90 },
    );
    const open = event('o', ['2026-12-24T10:00']);
    const lines = await build(pagesOf([open, tour], 2), { limits: { timeZone: 'Europe/Amsterdam' } });
    expect(uids(lines)).toEqual([
      't-20260701T0930',
      'o-20261224T1000',
      't-20261224T1400',
      't-20261224T1800',
      't-20261225',
    ]);
    expect(lines.filter((line) => /^DT(START|END)/.test(line))).toEqual([
      'DTSTART:20260701T073000Z',
      'DTEND:20260701T090000Z',
      // Without a duration, a session has a start only (RFC 5545: it ends when it starts).
      'DTSTART:20261224T090000Z',
      'DTSTART:20261224T130000Z',
      'DTEND:20261224T143000Z',
      'DTSTART:20261224T170000Z',
      'DTEND:20261224T183000Z',
      'DTSTART;VALUE=DATE:20261225',
      'DTEND;VALUE=DATE:20261226',
    ]);
  });

  it('keeps a date held all day beside its sessions, and the offset form all day as written', async () => {
    const listed = [event('a', ['2026-12-24T18:00', '2026-12-24', '2026-12-26T18:00Z'])];
    const lines = await build(pagesOf(listed, 1));
    expect(uids(lines)).toEqual(['a-20261224', 'a-20261224T1800', 'a-20261226']);
    expect(lines.filter((line) => line.startsWith('DTSTART'))).toEqual([
      'DTSTART;VALUE=DATE:20261224',
      'DTSTART:20261224T180000Z',
      'DTSTART;VALUE=DATE:20261226',
    ]);
  });

  it('counts events without an ISO date, and marks a truncated feed', async () => {
    const listed = [event('c', ['2026-01-01']), event('a', ['every Sunday']), event('b', []), event('d', [])];
    const lines = await build(pagesOf(listed, 2), { limits: { cap: 3 } });
    expect(lines).toContain('X-MUSEUM-SKIPPED-EVENTS:2');
    expect(lines).toContain('X-MUSEUM-TRUNCATED:EVENTS=3');
    expect(lines.filter((line) => line === 'BEGIN:VEVENT')).toHaveLength(1);
  });

  it('stops before the VEVENTs pass the size bound, keeping the earliest days, and reads no further', async () => {
    const listed = [
      event('a', ['2026-01-01', '2026-01-03']),
      event('b', ['2026-01-02']),
      event('y', ['later']),
      event('z', []),
    ];
    const whole = (await build(pagesOf(listed, 1))).join('\r\n');
    expect(whole).not.toContain('X-MUSEUM-TRUNCATED');
    const one = /BEGIN:VEVENT[\s\S]*?END:VEVENT\r\n/.exec(whole)?.[0] ?? '';
    const maxOctets = Buffer.byteLength(one) * 2 + 10;
    const pages: string[] = [];
    const read = pagesOf(listed, 1);
    const cut = await build((cursor) => (pages.push(cursor ?? ''), read(cursor)), { limits: { maxOctets } });
    expect(cut).toContain(`X-MUSEUM-TRUNCATED:OCTETS=${maxOctets}`);
    // Full once y's page is read (a's second day no longer fits): z's page is not read, so the
    // count of events without an ISO date is unknown, and left out.
    expect(pages).toEqual(['', '1', '2']);
    expect(cut.some((line) => line.startsWith('X-MUSEUM-SKIPPED-EVENTS'))).toBe(false);
    expect(cut.filter((line) => line.startsWith('DTSTART'))).toEqual([
      'DTSTART;VALUE=DATE:20260101',
      'DTSTART;VALUE=DATE:20260102',
    ]);
    expect(cut.at(-2)).toBe('END:VCALENDAR');
  });

  it('counts octets, not characters, of text beyond ASCII; every day of an event has its whole text', async () => {
    const wide = Object.assign(event('w', ['2026-01-01', '2026-01-02', '2026-01-03'], 'Nuit 🦕 des musées'), {
      location: 'Aula, שער',
      eventDescription: 'Dé\u0301jà vu; 恐竜 '.repeat(40),
    });
    const lines = await build(pagesOf([wide], 1));
    const days = [...lines.join('\r\n').matchAll(/BEGIN:VEVENT\r\n[\s\S]*?END:VEVENT\r\n/g)].map(([day]) => day);
    expect(days).toHaveLength(3);
    // The same lines for each day but the date's own.
    const shared = (day: string): string => day.replace(/2026010\d/g, 'DATE');
    expect(new Set(days.map(shared)).size).toBe(1);
    // A bound that two of the three days fit exactly: the third is left out, not the second.
    const two = Buffer.byteLength(days.slice(0, 2).join(''));
    expect(two).toBeGreaterThan(days.slice(0, 2).join('').length);
    const cut = await build(pagesOf([wide], 1), { limits: { maxOctets: two } });
    expect(cut.filter((line) => line.startsWith('DTSTART'))).toEqual([
      'DTSTART;VALUE=DATE:20260101',
      'DTSTART;VALUE=DATE:20260102',
    ]);
    const under = await build(pagesOf([wide], 1), { limits: { maxOctets: two - 1 } });
    expect(under.filter((line) => line.startsWith('DTSTART'))).toEqual(['DTSTART;VALUE=DATE:20260101']);
  });

  it('writes the next feed into the chunks the last one gave back, and only into those it gave back', async () => {
    const long = (id: string, date: string) =>
      Object.assign(event(id, [date]), { eventDescription: `Dé\u0301jà vu; 恐竜 ${id} `.repeat(300) });
    const listed = Array.from({ length: 40 }, (_, i) => long(`e${String(i).padStart(2, '0')}`, '2026-01-01'));
    const feed = () => buildFeed({}, { readPage: pagesOf(listed, 25), readStamps: noStamps, pause: goOn }, LIMITS);
    const first = await feed();
    if (first === undefined) throw new Error('no feed');
    const body = Buffer.concat(first.chunks);
    // The chunks between the head and the tail, each a view of a 64 KiB buffer of its own.
    const memoryOf = (built: BuiltFeed) => new Set(built.chunks.slice(1, -1).map((chunk) => chunk.buffer));
    expect(memoryOf(first).size).toBeGreaterThan(2);
    // Not given back: the next feed has memory of its own.
    const second = await feed();
    if (second === undefined) throw new Error('no feed');
    expect([...memoryOf(second)].filter((memory) => memoryOf(first).has(memory))).toEqual([]);
    first.recycle();
    const third = await feed();
    if (third === undefined) throw new Error('no feed');
    expect([...memoryOf(third)].every((memory) => memoryOf(first).has(memory))).toBe(true);
    // Overwritten, the same bytes: nothing of the last feed is left in what is sent.
    expect(Buffer.concat(third.chunks).equals(body)).toBe(true);
    expect(third.octets).toBe(body.length);
    for (const built of [second, third]) built.recycle();
  });

  it('gives the same bytes for the same events', async () => {
    const listed = Array.from({ length: 300 }, (_, i) => event(`e${String(i).padStart(3, '0')}`, ['2026-01-01']));
    const first = await build(pagesOf(listed, 100));
    expect(await build(pagesOf(listed, 7))).toEqual(first);
  });

  it('writes UTC date-times without fractions', () => {
    expect(utcDateTime(Date.UTC(2026, 10, 25, 9, 5, 7, 999))).toBe('20261125T090507Z');
  });
});
