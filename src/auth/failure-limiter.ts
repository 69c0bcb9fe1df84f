export interface FailureLimiterOptions {
  readonly limit: number;
  readonly windowMs: number;
  /** Addresses tracked at once; the oldest window is forgotten first. */
  readonly maxAddresses?: number;
  readonly now?: () => number;
}

interface Window {
  startedAt: number;
  failures: number;
}

/**
 * Counts failed authentications per client address in fixed windows. Once an address reaches the
 * limit, every protected request from it is refused with 429 until its window ends, valid
 * credentials or not: answering valid ones would let guessing go on unthrottled. Successful
 * requests are never counted.
 */
export class FailureLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly now: () => number;
  private readonly maxAddresses: number;

  constructor(private readonly options: FailureLimiterOptions) {
    this.now = options.now ?? Date.now;
    this.maxAddresses = options.maxAddresses ?? 100_000;
  }

  /** Whole seconds until `address` may try again, or 0 when it is not blocked. */
  retryAfterSeconds(address: string): number {
    const window = this.windows.get(address);
    if (!window) return 0;
    const remaining = window.startedAt + this.options.windowMs - this.now();
    if (remaining <= 0) {
      this.windows.delete(address);
      return 0;
    }
    return window.failures >= this.options.limit ? Math.ceil(remaining / 1000) : 0;
  }

  recordFailure(address: string): void {
    const now = this.now();
    let window = this.windows.get(address);
    if (!window || window.startedAt + this.options.windowMs <= now) {
      this.windows.delete(address);
      window = { startedAt: now, failures: 0 };
      this.windows.set(address, window);
      if (this.windows.size > this.maxAddresses) {
        this.windows.delete(this.windows.keys().next().value as string);
      }
    }
    window.failures++;
  }
}
