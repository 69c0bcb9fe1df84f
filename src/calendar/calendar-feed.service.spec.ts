import type { AppConfig } from '../config/app-config.js';
import type { SpecialEvent } from '../special-events/special-event.entity.js';
import { type SpecialEventsService, withDerivedColumns } from '../special-events/special-events.service.js';
import type { CalendarEventStamps } from './calendar.repository.js';
import { CalendarFeedService, type FeedOutcome } from './calendar-feed.service.js';

const event = (eventId: string): SpecialEvent =>
  Object.assign(
    withDerivedColumns(
      {
        eventId,
        name: `Event ${eventId}`,
        location: 'Hall 1',
        eventDescription: 'A talk.',
        dates: ['2026-01-01'],
        price: 5,
      },
      1,
    ),
    { sortDate: '2026-01-01' },
  );

/**
 * The service over a list of 3 pages of 2 events whose reads wait for `open()`: `reads` counts the
 * pages read (a build reads all 3), `version` is what the stamps say (a new one: a new tag).
 */
function service(): { feeds: CalendarFeedService; reads: () => number; open: () => void; bump: () => void } {
  const events = Array.from({ length: 6 }, (_, i) => event(`e${i}`));
  let reads = 0;
  let gate: Promise<void> = new Promise(() => {});
  let open = (): void => {};
  const closed = (): void => {
    gate = new Promise((resolve) => (open = resolve));
  };
  closed();
  let latest = 1;
  const list = async ({ cursor }: { cursor?: string }) => {
    await gate;
    reads++;
    const from = cursor === undefined ? 0 : Number(cursor);
    return {
      events: events.slice(from, from + 2),
      nextCursor: from + 2 < events.length ? String(from + 2) : undefined,
    };
  };
  const stamps = {
    version: () => Promise.resolve({ count: 6, latest, sum: String(latest) }),
    read: () => Promise.resolve(new Map<string, number>()),
  };
  const feeds = new CalendarFeedService(
    { list } as unknown as SpecialEventsService,
    stamps as unknown as CalendarEventStamps,
    { museum: { timeZone: 'UTC' } } as AppConfig,
  );
  return { feeds, reads: () => reads, open: () => open(), bump: () => void latest++ };
}

const RANGE = { startDate: '2026-01-01', endDate: '2026-12-31' };
const never = (): boolean => false;
const ask = (feeds: CalendarFeedService, signal = new AbortController().signal): Promise<FeedOutcome> =>
  feeds.feed(RANGE, never, signal);

function sent(outcome: FeedOutcome): Extract<FeedOutcome, { kind: 'feed' }> {
  if (outcome.kind !== 'feed') throw new Error(`expected a feed, got ${outcome.kind}`);
  return outcome;
}

describe('CalendarFeedService: requests for the same feed at the same time', () => {
  it('share one build and its bytes, and a request after the last is sent builds again', async () => {
    const { feeds, reads, open } = service();
    const [first, second] = [ask(feeds), ask(feeds)];
    open();
    const [a, b] = (await Promise.all([first, second])).map(sent);
    expect(reads()).toBe(3);
    expect(a.chunks).toBe(b.chunks);
    expect(Buffer.concat(a.chunks).toString()).toMatch(/^UID:e5\b/m);
    // A request while the feed is still being sent joins it too.
    a.release();
    a.recycle();
    const c = sent(await ask(feeds));
    expect(c.chunks).toBe(a.chunks);
    expect(reads()).toBe(3);
    for (const done of [b, c]) {
      done.release();
      done.recycle();
    }
    const d = sent(await ask(feeds));
    expect(reads()).toBe(6);
    expect(Buffer.concat(d.chunks).equals(Buffer.concat(a.chunks))).toBe(true);
    d.release();
  });

  it('do not share across a change of the events (another tag)', async () => {
    const { feeds, reads, open, bump } = service();
    const first = ask(feeds);
    bump();
    const second = ask(feeds);
    open();
    const [a, b] = (await Promise.all([first, second])).map(sent);
    expect(a.etag).not.toBe(b.etag);
    expect(a.chunks).not.toBe(b.chunks);
    expect(reads()).toBe(6);
  });

  it('go on building for those still waiting when one goes away, and stop when all have', async () => {
    const { feeds, reads, open } = service();
    const [leaving, staying] = [new AbortController(), new AbortController()];
    const [first, second] = [ask(feeds, leaving.signal), ask(feeds, staying.signal)];
    await new Promise((resolve) => setImmediate(resolve));
    leaving.abort();
    open();
    expect((await first).kind).toBe('abandoned');
    const kept = sent(await second);
    expect(reads()).toBe(3);
    expect(Buffer.concat(kept.chunks).toString()).toMatch(/^UID:e5\b/m);
    kept.release();

    const { feeds: other, reads: otherReads, open: openOther } = service();
    const [x, y] = [new AbortController(), new AbortController()];
    const gone = [ask(other, x.signal), ask(other, y.signal)];
    await new Promise((resolve) => setImmediate(resolve));
    x.abort();
    y.abort();
    openOther();
    expect((await Promise.all(gone)).map((outcome) => outcome.kind)).toEqual(['abandoned', 'abandoned']);
    expect(otherReads()).toBeLessThan(3);
    // The stopped build is not joined: the next request builds the whole feed.
    const after = sent(await ask(other));
    expect(Buffer.concat(after.chunks).toString()).toMatch(/^UID:e5\b/m);
  });
});
