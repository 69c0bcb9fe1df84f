import { type ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, type ThrottlerLimitDetail, type ThrottlerStorage } from '@nestjs/throttler';
import type { Request } from 'express';
import { isAnonymousRead } from '../common/http/public-read.js';
import { ProblemException } from '../common/problem/problem.js';
import { clientAddress } from './basic.strategy.js';

export interface WindowCountsOptions {
  /** Keys (client addresses) counted at once; the oldest window is forgotten first. */
  readonly maxEntries?: number;
  readonly now?: () => number;
}

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

interface Window {
  readonly startedAt: number;
  hits: number;
}

/**
 * @nestjs/throttler's storage as one fixed window per key: a number and a time, whatever the
 * limit, where the library's own store keeps a timestamp per hit (a thousand per address at the
 * default limit) and scans them on every request. Bounded in keys, so a flood from many addresses
 * cannot grow it without end. In this process only: each instance counts the reads it serves.
 */
export class WindowCounts implements ThrottlerStorage {
  private readonly windows = new Map<string, Window>();
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(options: WindowCountsOptions = {}) {
    this.maxEntries = options.maxEntries ?? 100_000;
    this.now = options.now ?? Date.now;
  }

  increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const now = this.now();
    let window = this.windows.get(key);
    if (window === undefined || window.startedAt + ttl <= now) {
      this.windows.delete(key);
      window = { startedAt: now, hits: 0 };
      this.windows.set(key, window);
      if (this.windows.size > this.maxEntries) this.windows.delete(this.windows.keys().next().value as string);
    }
    window.hits++;
    const secondsLeft = Math.max(1, Math.ceil((window.startedAt + ttl - now) / 1000));
    const isBlocked = window.hits > limit;
    return Promise.resolve({
      totalHits: window.hits,
      timeToExpire: secondsLeft,
      isBlocked,
      timeToBlockExpire: isBlocked ? secondsLeft : 0,
    });
  }
}

/**
 * The rate limit of anonymous reads (PUBLIC_RATE_LIMIT per PUBLIC_RATE_WINDOW_SECONDS and client
 * address): @nestjs/throttler's guard, global, after the Basic guard, counting only the requests
 * that guard let in without credentials. The address is the one the failure limiter counts
 * (TRUST_PROXY decides whether a proxy may say it). The answer is this service's 429 problem with
 * Retry-After; no X-RateLimit headers, since public answers are cached and shared.
 */
@Injectable()
export class PublicReadThrottler extends ThrottlerGuard {
  protected override shouldSkip(context: ExecutionContext): Promise<boolean> {
    return Promise.resolve(!isAnonymousRead(context.switchToHttp().getRequest<Request>()));
  }

  protected override getTracker(request: Record<string, unknown>): Promise<string> {
    return Promise.resolve(clientAddress(request as unknown as Request));
  }

  /** One count per address across every public route, not one per route. */
  protected override generateKey(_context: ExecutionContext, tracker: string): string {
    return tracker;
  }

  protected override throwThrottlingException(_context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    throw new ProblemException(429, 'Too many requests without credentials from this address; try again later.', {
      headers: { 'Retry-After': String(Math.max(1, detail.timeToBlockExpire)) },
    });
  }
}
