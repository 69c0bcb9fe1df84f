import { Logger } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { HitCounts } from './public-read-hits.repository.js';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * @nestjs/throttler's storage, shared by every instance on the database: a fixed window per
 * client address, aligned on the clock (`floor(now / ttl) * ttl`), so that every instance names
 * the same window without asking. The database decides each count (HitCounts.add); the windows
 * that ended are deleted once per window by each instance, a range of the table's key. When the
 * count cannot be made (the database is unreachable), the read is let through and a warning is
 * logged, at most once a window: the limit protects the database, and a read that needs it fails
 * anyway (503) while it is down.
 */
export class SharedWindowCounts implements ThrottlerStorage {
  private readonly logger = new Logger('PublicReadLimit');
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
      totalHits = await this.counts.add(windowStart, key);
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

  private scheduleCleanup(ttl: number): NodeJS.Timeout {
    // Instances started together do not all delete at the same moment.
    const timer = setInterval(
      () => {
        const current = Math.floor(this.now() / ttl) * ttl;
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
