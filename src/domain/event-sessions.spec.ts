import { eventDays, sessionChoice, sessionOf, sessionStart, sessionTimeProblem } from './event-sessions.js';

describe('sessionOf', () => {
  it.each([
    ['2026-12-24T18:00', { date: '2026-12-24', time: '18:00' }],
    ['2026-12-24T00:00', { date: '2026-12-24', time: '00:00' }],
    ['2026-12-24T23:59', { date: '2026-12-24', time: '23:59' }],
  ])('%s is a session', (item, session) => {
    expect(sessionOf(item)).toEqual(session);
  });

  it.each([
    '2026-12-24',
    '2026-12-24T18:00Z',
    '2026-12-24T18:00+01:00',
    '2026-12-24T18:00:00',
    '2026-02-30T10:00',
    'x',
  ])('%s is no session', (item) => {
    expect(sessionOf(item)).toBeNull();
  });

  it.each(['2026-12-24T25:00', '2026-12-24T24:00', '2026-12-24T12:60'])('%s has an impossible time', (item) => {
    expect(sessionOf(item)).toBeNull();
    expect(sessionTimeProblem(item)).toMatch(/no such time of day/);
  });

  it('finds no problem in the other forms', () => {
    expect(sessionTimeProblem('2026-12-24T18:00')).toBeNull();
    expect(sessionTimeProblem('2026-12-24T25:00Z')).toBeNull();
    expect(sessionTimeProblem('next Tuesday')).toBeNull();
  });
});

describe('eventDays', () => {
  it('groups the sessions by date, each time once and in order, and keeps the dates held all day', () => {
    const days = eventDays([
      '2026-12-24T18:00',
      '2026-12-24T14:00',
      '2026-12-24T18:00',
      '2026-12-25',
      '2026-12-26T10:00Z',
      '2026-12-27T09:00',
      'free text',
    ]);
    expect([...days.sessions]).toEqual([
      ['2026-12-24', ['14:00', '18:00']],
      ['2026-12-27', ['09:00']],
    ]);
    expect([...days.allDay].sort()).toEqual(['2026-12-25', '2026-12-26']);
  });
});

describe('sessionStart', () => {
  const at = (date: string, time: string, zone: string) => new Date(sessionStart({ date, time }, zone)).toISOString();

  it('reads the local time in the zone', () => {
    expect(at('2026-12-24', '18:00', 'UTC')).toBe('2026-12-24T18:00:00.000Z');
    expect(at('2026-12-24', '18:00', 'Europe/Amsterdam')).toBe('2026-12-24T17:00:00.000Z');
    expect(at('2026-07-01', '18:00', 'Europe/Amsterdam')).toBe('2026-07-01T16:00:00.000Z');
    expect(at('2026-07-01', '09:30', 'America/New_York')).toBe('2026-07-01T13:30:00.000Z');
    expect(at('2026-12-24', '00:15', 'Asia/Kolkata')).toBe('2026-12-23T18:45:00.000Z');
  });

  it('takes the first of a time that occurs twice, and moves a skipped time forward (RFC 5545)', () => {
    // Europe/Amsterdam: clocks go back at 03:00 on 2026-10-25, forward at 02:00 on 2026-03-29.
    expect(at('2026-10-25', '02:30', 'Europe/Amsterdam')).toBe('2026-10-25T00:30:00.000Z');
    expect(at('2026-03-29', '02:30', 'Europe/Amsterdam')).toBe('2026-03-29T01:30:00.000Z');
  });
});

describe('sessionChoice', () => {
  const dates = ['2031-03-05T18:00', '2031-03-05T14:00', '2031-03-06T10:00', '2031-03-07', '2031-03-06'];

  it("chooses the session at the time, or a date's only one; a date without sessions is all day", () => {
    expect(sessionChoice(dates, '2031-03-05', '18:00')).toEqual({
      kind: 'session',
      session: { date: '2031-03-05', time: '18:00' },
      item: '2031-03-05T18:00',
    });
    // The all-day item of 2031-03-06 sells nothing of its own beside its session.
    expect(sessionChoice(dates, '2031-03-06', undefined)).toMatchObject({ kind: 'session', item: '2031-03-06T10:00' });
    expect(sessionChoice(dates, '2031-03-07', undefined)).toEqual({ kind: 'all-day' });
  });

  it('needs a time among several, and refuses a time that is no session (naming the times)', () => {
    expect(sessionChoice(dates, '2031-03-05', undefined)).toEqual({ kind: 'time-required', times: ['14:00', '18:00'] });
    expect(sessionChoice(dates, '2031-03-05', '15:00')).toEqual({ kind: 'unknown-time', times: ['14:00', '18:00'] });
    expect(sessionChoice(dates, '2031-03-06', '10:30')).toEqual({ kind: 'unknown-time', times: ['10:00'] });
    expect(sessionChoice(dates, '2031-03-07', '10:00')).toEqual({ kind: 'unknown-time', times: [] });
  });
});
