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
 * guesses cannot all start before the first one fails: per address and name, no more lookups run
 * at once than that name has failures left before the limit. Others wait for a running one to end,
 * then start if its answer was right (nothing counted), or get the limiter's answer once the
 * failures reach the limit. So right answers never meet a 429 however many arrive at once, and of
 * any number of concurrent wrong ones exactly as many as the limit allows are looked up.
 */
export class GuessGate {
  private readonly lanes = new Map<string, Lane>();

  constructor(private readonly limiter: FailureLimiter) {}

  /**
   * Runs `lookup` when `name` may still fail from `address`, and counts a failure when
   * `failed(value)` says its value is one. A rejected lookup counts nothing.
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
      if (retryAfterSeconds > 0) return { kind: 'limited', retryAfterSeconds };
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
      if (failed(value)) this.limiter.begin(address, name);
      return { kind: 'checked', value };
    } finally {
      this.release(key, address, name);
    }
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
