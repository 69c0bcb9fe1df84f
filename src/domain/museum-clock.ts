/**
 * What the museum's clock says a setting is: `now` (milliseconds since the epoch) at the real
 * instant `setAt`; a frozen clock stays at `now`, a running one moves on from it at the real
 * clock's pace. Two instances that share one setting (test mode stores it in the database) agree
 * on the museum's time, because each works it out from the same three numbers.
 */
export interface MuseumClockSetting {
  readonly now: number;
  readonly frozen: boolean;
  readonly setAt: number;
}

/**
 * The museum's clock: what instant and what day it is at the museum (MUSEUM_TIME_ZONE). Opening
 * hours, "not in the past", the sales horizon, check-in, the calendar feed and public reads all
 * ask it, so they agree on "today" at midnight. ConfigModule provides one to every module.
 *
 * It follows the real clock (`Date.now()`) unless set: test mode's `/testing/clock` and the
 * project's own tests set it (frozen, or running from an instant) so that nothing depends on the
 * machine's date. Unset, `now()` costs one comparison over `Date.now()`. What measures real elapsed
 * time (rate-limit windows, TTLs, leases, backoff, signature timestamps) does not ask this clock.
 */
export class MuseumClock {
  private readonly format: Intl.DateTimeFormat;
  private setting: MuseumClockSetting | undefined;

  /** `timeZone`: an IANA name, validated by loadConfig. */
  constructor(readonly timeZone: string) {
    this.format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
  }

  /** The museum's instant, milliseconds since the epoch. */
  now(): number {
    const setting = this.setting;
    if (setting === undefined) return Date.now();
    return setting.frozen ? setting.now : setting.now + (Date.now() - setting.setAt);
  }

  /** Whether the clock stands still (only ever when set frozen). */
  get frozen(): boolean {
    return this.setting?.frozen ?? false;
  }

  /** The setting in force, or undefined when the clock follows the real one. */
  current(): MuseumClockSetting | undefined {
    return this.setting;
  }

  /** Sets the clock to `now` (ms), frozen there or running on from it; returns the setting. */
  set(now: number, frozen: boolean): MuseumClockSetting {
    const setting = { now, frozen, setAt: Date.now() };
    this.apply(setting);
    return setting;
  }

  /** Moves the clock `ms` forward from where it is, frozen or not as it was. */
  advance(ms: number): MuseumClockSetting {
    return this.set(this.now() + ms, this.frozen);
  }

  /** Puts a setting in force as it is (one read from the database), or real time with undefined. */
  apply(setting: MuseumClockSetting | undefined): MuseumClockSetting | undefined {
    this.setting = setting;
    // The cached date belongs to the old clock.
    this.todayMinute = Number.NaN;
    return setting;
  }

  /** Back to the real clock. */
  reset(): void {
    this.apply(undefined);
  }

  private todayMinute = Number.NaN;
  private todayDate = '';

  /**
   * Today's date in the museum, `YYYY-MM-DD`. Worked out once per minute of now(): every time
   * zone's offset is whole minutes, so the museum's date never changes within one.
   */
  today(): string {
    const minute = Math.floor(this.now() / 60_000);
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
