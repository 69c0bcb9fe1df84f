import type { CanActivate, ExecutionContext, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import { ThrottlerGuard, type ThrottlerLimitDetail } from '@nestjs/throttler';
import type { Sql } from '../database/sql.js';
import type { PublicReadConfig } from '../config/app-config.js';
import type { Request } from 'express';
import { isAnonymousRead } from '../common/http/public-read.js';
import { ProblemException } from '../common/problem/problem.js';
import { clientAddress } from './basic.strategy.js';
import { SharedWindowCounts } from './public-read-hits.js';
import { hitCountsFor } from './public-read-hits.repository.js';

/**
 * The rate limit of anonymous reads (PUBLIC_RATE_LIMIT per PUBLIC_RATE_WINDOW_SECONDS and client
 * address): a global guard after the Basic guard that hands the requests that guard let in
 * without credentials to AnonymousReadCounter, and lets every other request through at once with
 * a plain `true`. Nest awaits a promise a guard returns (an async call and turns of the microtask
 * queue), and nearly every request here sends credentials: a settled promise for them was work on
 * every request for a limit that only anonymous reads have.
 */
export class PublicReadThrottler implements CanActivate, OnModuleInit, OnApplicationShutdown {
  private readonly counter: AnonymousReadCounter;

  constructor(config: PublicReadConfig, sql: Sql, reflector: Reflector) {
    this.counter = new AnonymousReadCounter(config, sql, reflector);
  }

  /** The library guard reads its options here (its throttlers), as it would as a guard of its own. */
  onModuleInit(): Promise<void> {
    return this.counter.onModuleInit();
  }

  onApplicationShutdown(): void {
    this.counter.onApplicationShutdown();
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    return isAnonymousRead(context.getArgByIndex<Request>(0)) ? this.counter.canActivate(context) : true;
  }
}

/**
 * @nestjs/throttler's guard, counting the anonymous reads in the database that every instance
 * shares (SharedWindowCounts). The address is the one the failure limiter counts (TRUST_PROXY
 * decides whether a proxy may say it). The answer is this service's 429 problem with
 * Retry-After; no X-RateLimit headers, since public answers are cached and shared.
 */
class AnonymousReadCounter extends ThrottlerGuard implements OnApplicationShutdown {
  private readonly counts: SharedWindowCounts;

  constructor(config: PublicReadConfig, sql: Sql, reflector: Reflector) {
    const counts = new SharedWindowCounts(hitCountsFor(sql));
    super(
      { throttlers: [{ limit: config.rateLimit, ttl: config.rateWindowMs }], setHeaders: false },
      counts,
      reflector,
    );
    this.counts = counts;
  }

  onApplicationShutdown(): void {
    this.counts.close();
  }

  /**
   * An anonymous read (PublicReadThrottler hands over no other) goes straight to the library's
   * handleRequest (count, limit, 429) with the one configured throttler: the base class would
   * first read six pieces of route metadata (@Throttle, @SkipThrottle and the like) per request,
   * about 2% of an anonymous list's CPU, and no route here sets any. Such a decorator would
   * therefore be ignored: the limit is the configuration's, for every public route alike
   * (docs/api.md).
   */
  override canActivate(context: ExecutionContext): Promise<boolean> {
    const throttler = this.throttlers[0];
    if (throttler === undefined) return super.canActivate(context);
    const { limit, ttl } = throttler as { limit: number; ttl: number };
    return this.handleRequest({
      context,
      limit,
      ttl,
      blockDuration: ttl,
      throttler,
      getTracker: this.commonOptions.getTracker as NonNullable<typeof this.commonOptions.getTracker>,
      generateKey: this.commonOptions.generateKey as NonNullable<typeof this.commonOptions.generateKey>,
    });
  }

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
