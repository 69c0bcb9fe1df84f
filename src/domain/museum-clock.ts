/**
 * The museum's calendar: what day it is in MUSEUM_TIME_ZONE. Opening hours, ticket dates and
 * check-in all ask it, so they agree on "today" at midnight. ConfigModule provides one to every
 * module. It reads `Date.now()`, which a test fakes (`vi.useFakeTimers({ toFake: ['Date'] })` and
 * `vi.setSystemTime`) rather than depending on the real date.
 */
export class MuseumClock {
  private readonly format: Intl.DateTimeFormat;

  /** `timeZone`: an IANA name, validated by loadConfig. */
  constructor(readonly timeZone: string) {
    this.format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
  }

  private todayMinute = Number.NaN;
  private todayDate = '';

  /**
   * Today's date in the museum, `YYYY-MM-DD`. Worked out once per minute of Date.now(): every
   * time zone's offset is whole minutes, so the museum's date never changes within one.
   */
  today(): string {
    const minute = Math.floor(Date.now() / 60_000);
    if (minute !== this.todayMinute) {
      this.todayDate = this.dateOf(minute * 60_000);
      this.todayMinute = minute;
    }
    return this.todayDate;
  }

  /** The museum's date at `instant` (milliseconds since the epoch), `YYYY-MM-DD`. */
  dateOf(instant: number): string {
    let year = '';
    let month = '';
    let day = '';
    for (const { type, value } of this.format.formatToParts(instant)) {
      if (type === 'year') year = value.padStart(4, '0');
      else if (type === 'month') month = value;
      else if (type === 'day') day = value;
    }
    return `${year}-${month}-${day}`;
  }
}
