import { afterEach, describe, expect, it, vi } from 'vitest';
import { MuseumClock } from './museum-clock.js';

describe('MuseumClock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("gives the museum's date, not UTC's, on either side of midnight", () => {
    // 2026-03-01T23:30Z is already March 2nd in Tokyo (UTC+9) and still March 1st in New York.
    const instant = Date.parse('2026-03-01T23:30:00Z');
    expect(new MuseumClock('UTC').dateOf(instant)).toBe('2026-03-01');
    expect(new MuseumClock('Asia/Tokyo').dateOf(instant)).toBe('2026-03-02');
    expect(new MuseumClock('America/New_York').dateOf(Date.parse('2026-03-02T04:59:59Z'))).toBe('2026-03-01');
    expect(new MuseumClock('America/New_York').dateOf(Date.parse('2026-03-02T05:00:00Z'))).toBe('2026-03-02');
  });

  it('follows daylight saving time', () => {
    // Paris is UTC+2 in summer: 22:30Z on 2026-07-14 is 00:30 on the 15th there.
    expect(new MuseumClock('Europe/Paris').dateOf(Date.parse('2026-07-14T22:30:00Z'))).toBe('2026-07-15');
    // and UTC+1 in winter: 22:30Z on 2026-01-14 is 23:30 on the 14th.
    expect(new MuseumClock('Europe/Paris').dateOf(Date.parse('2026-01-14T22:30:00Z'))).toBe('2026-01-14');
  });

  it('reads today from Date.now(), so a fake clock moves it', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-12-31T23:59:59Z'));
    expect(new MuseumClock('UTC').today()).toBe('2031-12-31');
    expect(new MuseumClock('Pacific/Kiritimati').today()).toBe('2032-01-01');
  });

  it("changes date at the museum's midnight to the second, although it works the date out once a minute", () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const clock = new MuseumClock('Asia/Kolkata'); // UTC+05:30: midnight is at 18:30Z
    vi.setSystemTime(new Date('2026-03-01T18:29:59.999Z'));
    expect(clock.today()).toBe('2026-03-01');
    vi.setSystemTime(new Date('2026-03-01T18:30:00.000Z'));
    expect(clock.today()).toBe('2026-03-02');
    vi.setSystemTime(new Date('2026-03-01T18:29:30.000Z')); // a clock set back
    expect(clock.today()).toBe('2026-03-01');
  });

  it('set frozen: stands still at the instant, whatever the real clock does, until advanced', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-28T10:00:00Z'));
    const clock = new MuseumClock('Europe/Paris');
    clock.set(Date.parse('2027-03-13T22:59:00Z'), true);
    vi.setSystemTime(new Date('2026-11-29T10:00:00Z'));
    expect(clock.now()).toBe(Date.parse('2027-03-13T22:59:00Z'));
    expect(clock.today()).toBe('2027-03-13');
    clock.advance(60_000); // midnight in Paris
    expect(clock.today()).toBe('2027-03-14');
    expect(clock.frozen).toBe(true);
  });

  it('set running: moves on from the instant at the real pace; reset: the real clock again', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-28T10:00:00Z'));
    const clock = new MuseumClock('UTC');
    clock.set(Date.parse('2030-01-01T00:00:00Z'), false);
    vi.setSystemTime(new Date('2026-11-28T10:00:05Z'));
    expect(clock.now()).toBe(Date.parse('2030-01-01T00:00:05Z'));
    expect(clock.frozen).toBe(false);
    clock.reset();
    expect(clock.now()).toBe(Date.parse('2026-11-28T10:00:05Z'));
    expect(clock.today()).toBe('2026-11-28');
  });
});
