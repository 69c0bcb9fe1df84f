import { hash, randomBytes } from 'node:crypto';

export interface FailureLimiterOptions {
  /** Failed attempts per client address and user name within a window before 429. */
  readonly limit: number;
  /** Failed attempts per client address across all user names within a window before 429. */
  readonly addressLimit: number;
  readonly windowMs: number;
  /**
   * Counters kept at once (each kind); the oldest window is forgotten first. Every entry has the
   * same size whatever the address and name (see the class), so this bounds the bytes too.
   */
  readonly maxEntries?: number;
  readonly now?: () => number;
}

interface Window {
  startedAt: number;
  failures: number;
}

/**
 * Throttles password guessing without locking users out. Only credentials that were sent and
 * turned out wrong count (a request without credentials, or with a malformed header, never does:
 * clients that ask first and answer the challenge would lock themselves out), in fixed windows:
 *
 * - per client address and user name (`limit`): the guesser of one account gets 429 for that
 *   name, right password or wrong (answering a right one would tell the guesser), while other
 *   users at the same address (a NAT, an office) go on;
 * - per client address across names (`addressLimit`, higher): an address trying many names gets
 *   429 for every name, except names that authenticated from that address within the window.
 *
 * An attempt is counted when its check begins (`begin`) and taken back when it succeeds
 * (`succeeded`), so that checks in flight count at once: a burst of concurrent guesses cannot all
 * start before the first one fails.
 *
 * The maps are keyed by a keyed SHA-256 of the address and name, never by the text itself: both
 * come from the request (a user name may be 16 KiB of header), and an entry that kept the name
 * would let anonymous requests from many addresses pin `maxEntries` copies of it. So each entry
 * is a 44-character digest and a small window, whatever was sent.
 */
export class FailureLimiter {
  private readonly byName = new Map<string, Window>();
  private readonly byAddress = new Map<string, Window>();
  /** When each address + name last authenticated, for the exception to the address cap. */
  private readonly successes = new Map<string, number>();
  private readonly now: () => number;
  private readonly maxEntries: number;
  /** 256 random bits as text: the keys are of this process only, and not reversible offline. */
  private readonly secret = randomBytes(32).toString('base64url');

  constructor(private readonly options: FailureLimiterOptions) {
    this.now = options.now ?? (() => Date.now());
    this.maxEntries = options.maxEntries ?? 100_000;
  }

  /** Whole seconds until `username` may be tried again from `address`, or 0 when it may now. */
  retryAfterSeconds(address: string, username: string): number {
    // Nearly always: nobody has failed lately, and this runs on every authenticated request.
    if (this.byName.size === 0 && this.byAddress.size === 0) return 0;
    const now = this.now();
    const pair = this.pairKey(address, username);
    const byName = this.remaining(this.byName, pair, this.options.limit, now);
    if (byName > 0) return Math.ceil(byName / 1000);
    const byAddress = this.remaining(this.byAddress, this.addressKey(address), this.options.addressLimit, now);
    if (byAddress > 0 && !this.succeededRecently(pair, now)) return Math.ceil(byAddress / 1000);
    return 0;
  }

  /**
   * How many more failures `username` may have from `address` before `retryAfterSeconds` says
   * wait: 0 when it says so now.
   */
  attemptsLeft(address: string, username: string): number {
    const { limit, addressLimit } = this.options;
    if (this.byName.size === 0 && this.byAddress.size === 0) return Math.min(limit, addressLimit);
    const now = this.now();
    const pair = this.pairKey(address, username);
    const byName = limit - this.failuresIn(this.byName, pair, now);
    const byAddress = this.succeededRecently(pair, now)
      ? Infinity
      : addressLimit - this.failuresIn(this.byAddress, this.addressKey(address), now);
    return Math.max(0, Math.min(byName, byAddress));
  }

  /** Counts an attempt as failed from now on: call `succeeded` if it turns out right. */
  begin(address: string, username: string): void {
    const now = this.now();
    this.count(this.byName, this.pairKey(address, username), now, 1);
    this.count(this.byAddress, this.addressKey(address), now, 1);
  }

  /** Takes back the attempt `begin` counted (it was right, or its check could not be made). */
  withdraw(address: string, username: string): void {
    const now = this.now();
    this.count(this.byName, this.pairKey(address, username), now, -1);
    this.count(this.byAddress, this.addressKey(address), now, -1);
  }

  /** Remembers that `username` authenticated from `address` (exempt from the address cap). */
  succeeded(address: string, username: string): void {
    const pair = this.pairKey(address, username);
    const now = this.now();
    const last = this.successes.get(pair);
    // Refreshed at most twice a window: this runs on every authenticated request.
    if (last !== undefined && now - last < this.options.windowMs / 2) return;
    this.successes.delete(pair);
    this.successes.set(pair, now);
    if (this.successes.size > this.maxEntries) this.successes.delete(this.successes.keys().next().value as string);
  }

  /** The fixed-size key of an address and a user name (a newline occurs in neither). */
  private pairKey(address: string, username: string): string {
    return hash('sha256', `${this.secret}p${address}\n${username}`, 'base64');
  }

  /** The fixed-size key of an address; another prefix than `pairKey`'s, so the two never meet. */
  private addressKey(address: string): string {
    return hash('sha256', `${this.secret}a${address}`, 'base64');
  }

  /** How many counters it keeps now, of each kind together (for tests of its bound). */
  get entries(): number {
    return this.byName.size + this.byAddress.size + this.successes.size;
  }

  private succeededRecently(pair: string, now: number): boolean {
    const last = this.successes.get(pair);
    return last !== undefined && now - last < this.options.windowMs;
  }

  /** The failures counted for `key` in its current window. */
  private failuresIn(windows: Map<string, Window>, key: string, now: number): number {
    const window = windows.get(key);
    return window === undefined || window.startedAt + this.options.windowMs <= now ? 0 : window.failures;
  }

  /** Milliseconds left in the window of `key` when it reached `limit`, else 0. */
  private remaining(windows: Map<string, Window>, key: string, limit: number, now: number): number {
    const window = windows.get(key);
    if (!window) return 0;
    const remaining = window.startedAt + this.options.windowMs - now;
    if (remaining <= 0) {
      windows.delete(key);
      return 0;
    }
    return window.failures >= limit ? remaining : 0;
  }

  private count(windows: Map<string, Window>, key: string, now: number, delta: 1 | -1): void {
    let window = windows.get(key);
    if (!window || window.startedAt + this.options.windowMs <= now) {
      // A withdrawal whose window has ended has nothing left to take back.
      if (delta < 0) return;
      windows.delete(key);
      window = { startedAt: now, failures: 0 };
      windows.set(key, window);
      if (windows.size > this.maxEntries) windows.delete(windows.keys().next().value as string);
    }
    window.failures = Math.max(0, window.failures + delta);
  }
}
