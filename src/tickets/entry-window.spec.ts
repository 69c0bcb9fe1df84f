import { describe, expect, it } from 'vitest';
import { entryAt } from './entry-window.js';

const at = (instant: string): number => Date.parse(instant);
const ticket = { date: '2031-03-05', time: '14:00' };

describe('entryAt', () => {
  it('opens earlyMinutes before the time, in the museum time zone', () => {
    const paris = 'Europe/Paris'; // UTC+1 in March before the change
    expect(entryAt(at('2031-03-05T12:44:59Z'), paris, ticket, 15, { kind: 'day' })).toEqual({
      kind: 'too-early',
      time: '14:00',
      opensAt: '13:45',
    });
    expect(entryAt(at('2031-03-05T12:45:00Z'), paris, ticket, 15, { kind: 'day' })).toEqual({ kind: 'open' });
    expect(entryAt(at('2031-03-05T12:59:00Z'), paris, ticket, 0, { kind: 'day' })).toMatchObject({
      kind: 'too-early',
      opensAt: '14:00',
    });
  });

  it("closes at the session's end or the day's close, and never without either", () => {
    const utc = 'UTC';
    const duration = { kind: 'duration', minutes: 90 } as const;
    expect(entryAt(at('2031-03-05T15:29:00Z'), utc, ticket, 15, duration)).toEqual({ kind: 'open' });
    expect(entryAt(at('2031-03-05T15:30:00Z'), utc, ticket, 15, duration)).toEqual({
      kind: 'closed',
      time: '14:00',
      closedAt: '15:30',
    });
    const close = { kind: 'close', time: '17:00' } as const;
    expect(entryAt(at('2031-03-05T16:59:00Z'), utc, ticket, 15, close)).toEqual({ kind: 'open' });
    expect(entryAt(at('2031-03-05T17:00:00Z'), utc, ticket, 15, close)).toMatchObject({ closedAt: '17:00' });
    expect(entryAt(at('2031-03-05T23:59:00Z'), utc, ticket, 15, { kind: 'day' })).toEqual({ kind: 'open' });
  });

  it('counts real minutes across a change of clocks', () => {
    // Paris skips 02:00-03:00 on 2031-03-30: a 03:30 session opens 15 minutes before, at 03:15 local (01:15 UTC).
    const early = { date: '2031-03-30', time: '03:30' };
    expect(entryAt(at('2031-03-30T01:14:00Z'), 'Europe/Paris', early, 15, { kind: 'day' })).toMatchObject({
      kind: 'too-early',
      opensAt: '03:15',
    });
    expect(entryAt(at('2031-03-30T01:15:00Z'), 'Europe/Paris', early, 15, { kind: 'day' })).toEqual({ kind: 'open' });
    // 60 minutes of session from 01:30 local (00:30 UTC) end at 03:30 local, clocks having jumped.
    const night = { date: '2031-03-30', time: '01:30' };
    expect(
      entryAt(at('2031-03-30T01:30:00Z'), 'Europe/Paris', night, 15, { kind: 'duration', minutes: 60 }),
    ).toMatchObject({ kind: 'closed', closedAt: '03:30' });
  });
});
