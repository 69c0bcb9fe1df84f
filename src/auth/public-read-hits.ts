import { Logger } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { HitCounts } from './public-read-hits.repository.js';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** The most reads one lease hands out, whatever the limit. */
const MAX_LEASE = 256;

/**
 * How long a read waits for its count: a database that stops answering (rather than refusing)
 * would otherwise hold every anonymous read of the address, all waiting on one lease. Past it the
 * read is let through, as when the count fails; the lease still lands when the database answers.
 */
export const COUNT_WAIT_MS = 1000;

/**
 * The most addresses whose leases are kept: past it (a flood from many addresses in one window), a
 * new address's reads are counted one statement each, as without leases, and nothing is kept.
 */
const MAX_LEASES = 10_000;

/**
 * The positions in an address's window that this instance took from the database and has not
 * handed out yet: `next` to `end`, both in the window's count. `size` is the last lease's.
 */
interface Lease {
  readonly windowStart: number;
  next: number;
  end: number;
  size: number;
  refill?: Promise<void>;
}

/**
 * @nestjs/throttler's storage, shared by every instance on the database: a fixed window per
 * client address, aligned on the clock (`floor(now / ttl) * ttl`), so that every instance names
 * the same window without asking. The database decides each count (HitCounts.add).
 *
 * An instance does not ask the database for every read: it takes a lease of positions in the
 * window's count (the count raised by the lease's size in one statement) and hands them out one
 * per read, in order. The first lease of a window is one read; each next one doubles, up to
 * limit/16 (at least 1) and MAX_LEASE. So a few reads from an address cost a statement each, as
 * before, and a flood costs one statement per lease: a read is then as cheap as one with
 * credentials. Positions past the limit are refused; once the lease has reached past it, the rest
 * of the window is refused without asking. What a lease costs: positions taken and not handed out
 * by the window's end count as reads, so an address that moves between instances may be refused
 * up to one lease per instance early (at most limit/16 each). Never late: a position is handed out
 * once, by the one instance that took it.
 *
 * The windows that ended are deleted once per window by each instance, a range of the table's key,
 * and so are the leases. When the count cannot be made (the database is unreachable), the read is
 * let through and a warning is logged, at most once a window: the limit protects the database, and
 * a read that needs it fails anyway (503) while it is down.
 */
export class SharedWindowCounts implements ThrottlerStorage {
  private readonly logger = new Logger('PublicReadLimit');
  private readonly leases = new Map<string, Lease>();
  private cleanup?: NodeJS.Timeout;
  private warnedWindow = -1;

  constructor(
    private readonly counts: HitCounts,
    private readonly now: () => number = Date.now,
  ) {}

  async increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const now = this.now();
    const windowStart = Math.floor(now / ttl) * ttl;
    this.cleanup ??= this.scheduleCleanup(ttl);
    let totalHits: number;
    try {
      const taken = this.take(key, windowStart, limit);
      totalHits = typeof taken === 'number' ? taken : await this.within(taken);
    } catch (error) {
      if (this.warnedWindow !== windowStart) {
        this.warnedWindow = windowStart;
        this.logger.warn({
          msg: 'Anonymous reads are not counted (the database did not answer); they are let through',
          err: error,
        });
      }
      totalHits = 0;
    }
    const secondsLeft = Math.max(1, Math.ceil((windowStart + ttl - now) / 1000));
    const isBlocked = totalHits > limit;
    return { totalHits, timeToExpire: secondsLeft, isBlocked, timeToBlockExpire: isBlocked ? secondsLeft : 0 };
  }

  /** Stops the cleanup and closes what the counts opened. */
  close(): void {
    clearInterval(this.cleanup);
    this.counts.close();
  }

  /** The count, or a failure once COUNT_WAIT_MS passed without it. */
  private within(count: Promise<number>): Promise<number> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`No count within ${COUNT_WAIT_MS} ms`)), COUNT_WAIT_MS);
    });
    return Promise.race([count, late]).finally(() => clearTimeout(timer));
  }

  /**
   * This read's position in the address's window count: at once from the lease (nearly every
   * read of a flood), or once a new lease is taken.
   */
  private take(key: string, windowStart: number, limit: number): number | Promise<number> {
    let lease = this.leases.get(key);
    if (lease === undefined || lease.windowStart !== windowStart) {
      lease = { windowStart, next: 1, end: 0, size: 0 };
      if (this.leases.size >= MAX_LEASES) this.forgetBefore(windowStart);
      if (this.leases.size < MAX_LEASES) this.leases.set(key, lease);
    }
    // Past the limit already: refused for the rest of the window, without a statement.
    if (lease.next <= lease.end || lease.end > limit) return lease.next++;
    return this.leased(key, lease, limit);
  }

  private async leased(key: string, lease: Lease, limit: number): Promise<number> {
    while (lease.next > lease.end && lease.end <= limit) {
      lease.refill ??= this.refill(key, lease, limit);
      await lease.refill;
    }
    return lease.next++;
  }

  private async refill(key: string, lease: Lease, limit: number): Promise<void> {
    try {
      const size = Math.min(MAX_LEASE, Math.max(1, Math.floor(limit / 16)), Math.max(1, lease.size * 2));
      const total = await this.counts.add(lease.windowStart, key, size);
      lease.size = size;
      lease.next = total - size + 1;
      lease.end = total;
    } finally {
      lease.refill = undefined;
    }
  }

  private forgetBefore(windowStart: number): void {
    for (const [key, lease] of this.leases) if (lease.windowStart < windowStart) this.leases.delete(key);
  }

  private scheduleCleanup(ttl: number): NodeJS.Timeout {
    // Instances started together do not all delete at the same moment.
    const timer = setInterval(
      () => {
        const current = Math.floor(this.now() / ttl) * ttl;
        this.forgetBefore(current);
        this.counts.dropBefore(current).catch((error: unknown) => {
          this.logger.warn({ msg: 'Ended windows of the public read limit were not deleted', err: error });
        });
      },
      ttl + Math.floor(Math.random() * Math.min(ttl, 10_000)),
    );
    timer.unref();
    return timer;
  }
}
