import { Logger } from '@nestjs/common';
import type { FailureLimiter } from './failure-limiter.js';

/** What `GuessGate.check` found: the lookup's own result, or that the guesser must wait. */
export type Guess<T> =
  { readonly kind: 'checked'; readonly value: T } | { readonly kind: 'limited'; readonly retryAfterSeconds: number };

interface Lane {
  inFlight: number;
  /** Checks waiting for a turn, first come first served; each is told whether it got one. */
  readonly waiting: ((admitted: boolean) => void)[];
}

/**
 * Runs lookups of a secret someone may be guessing (a ticket's confirmation code) so that only
 * those that turn out wrong count as failures (FailureLimiter), and yet a burst of concurrent
 * guesses cannot all start before the first one fails: per address and name, no more counted
 * lookups run at once than that name has failures left before the limit. Others wait for a running
 * one to end, then start if its answer was right (nothing counted), or go on as limited once the
 * failures reach the limit.
 *
 * The limit slows wrong answers only: a limited check is still looked up, without counting, and a
 * right answer is returned as any other (a door whose scanner misread a few codes must still
 * admit every valid ticket; a code of 128 random bits is not guessed anyway), while a wrong one is
 * `limited`. So right answers never meet a 429, and of any number of concurrent wrong ones exactly
 * as many as the limit allows are answered as wrong, the rest as limited. The moment a name's
 * failures reach the limit is logged at warn level, once per window.
 */
export class GuessGate {
  private readonly logger = new Logger('GuessGate');
  private readonly lanes = new Map<string, Lane>();

  constructor(private readonly limiter: FailureLimiter) {}

  /**
   * Runs `lookup`, and counts a failure when `failed(value)` says its value is one. Once `name`
   * may fail no more from `address`, the lookup still runs, uncounted, and a failure is `limited`.
   * A rejected lookup counts nothing.
   */
  async check<T>(
    address: string,
    name: string,
    lookup: () => Promise<T>,
    failed: (value: T) => boolean,
  ): Promise<Guess<T>> {
    const key = `${address}\n${name}`;
    for (;;) {
      const retryAfterSeconds = this.limiter.retryAfterSeconds(address, name);
      if (retryAfterSeconds > 0) return this.checkLimited(lookup, failed, retryAfterSeconds);
      let lane = this.lanes.get(key);
      if (lane === undefined) {
        lane = { inFlight: 0, waiting: [] };
        this.lanes.set(key, lane);
      }
      if (lane.waiting.length === 0 && lane.inFlight < this.limiter.attemptsLeft(address, name)) {
        lane.inFlight++;
        break;
      }
      // A turn handed over by `release` arrives with its slot already taken (inFlight counts it).
      const waiting = lane;
      if (await new Promise<boolean>((admit) => waiting.waiting.push(admit))) break;
    }
    try {
      const value = await lookup();
      if (failed(value)) this.fail(address, name);
      return { kind: 'checked', value };
    } finally {
      this.release(key, address, name);
    }
  }

  /** A check past the limit: looked up all the same, and only a failure is refused (uncounted). */
  private async checkLimited<T>(
    lookup: () => Promise<T>,
    failed: (value: T) => boolean,
    retryAfterSeconds: number,
  ): Promise<Guess<T>> {
    const value = await lookup();
    return failed(value) ? { kind: 'limited', retryAfterSeconds } : { kind: 'checked', value };
  }

  /** Counts a failure, and warns when it is the one that brings the limit on. */
  private fail(address: string, name: string): void {
    this.limiter.begin(address, name);
    if (this.limiter.attemptsLeft(address, name) > 0) return;
    // Only the check that takes the last attempt left warns: those after it are limited.
    const retryAfterSeconds = this.limiter.retryAfterSeconds(address, name);
    if (retryAfterSeconds === 0) return;
    this.logger.warn({
      msg: 'Guess limit reached: wrong answers from this client are refused until the window ends; right ones are still admitted',
      client: address,
      name,
      retryAfterSeconds,
    });
  }

  /** Ends a lookup, and hands its turn on: to as many waiting checks as may run, or to all to be refused. */
  private release(key: string, address: string, name: string): void {
    const lane = this.lanes.get(key);
    if (lane === undefined) return;
    lane.inFlight--;
    const limited = this.limiter.retryAfterSeconds(address, name) > 0;
    while (lane.waiting.length > 0 && (limited || lane.inFlight < this.limiter.attemptsLeft(address, name))) {
      const admit = lane.waiting.shift() as (admitted: boolean) => void;
      if (!limited) lane.inFlight++;
      admit(!limited);
    }
    if (lane.inFlight === 0 && lane.waiting.length === 0) this.lanes.delete(key);
  }
}
