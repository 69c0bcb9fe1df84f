import { type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Request, Response } from 'express';
import { ProblemException } from '../common/problem/problem.js';
import { AuthMetrics } from './auth.metrics.js';
import { BASIC_CHALLENGE, type AuthenticatedUser } from './basic.strategy.js';
import { clientAddress } from '../common/http/client-address.js';
import { CredentialsVerifier } from './credentials-verifier.js';
import { FailureLimiter } from './failure-limiter.js';
import { HashGateBusyError } from './hash-gate.js';
import { sendsCredentials } from './presented-credentials.js';
import { IS_PUBLIC } from '../common/http/public.decorator.js';
import { applyCachePolicy, CACHE_POLICY, DEFAULT_PRIVATE_CACHE_CONTROL } from '../common/http/cache-policy.js';
import { markAnonymousRead, PUBLIC_READ } from '../common/http/public-read.js';
import type { AppConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/config.module.js';

/** What the guard reads of a route's decorators: see BasicAuthGuard.routeOf. */
interface RouteAuth {
  readonly controller: object;
  readonly isPublic: boolean;
  readonly publicRead: boolean;
  readonly cacheControl: string;
}

/** The one 401 of the service: the same for every kind of failure, so it reveals nothing. */
export function unauthorized(): ProblemException {
  return new ProblemException(401, 'Valid HTTP Basic credentials are required.', {
    headers: { 'WWW-Authenticate': BASIC_CHALLENGE },
  });
}

/** The answer to a guesser, and to a check that found no free hash slot: never a 5xx for input. */
function tooManyAttempts(retryAfterSeconds: number): ProblemException {
  return new ProblemException(429, 'Too many failed authentication attempts from this address; try again later.', {
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });
}

function checksBusy(): ProblemException {
  return new ProblemException(503, 'Too many password checks are waiting; try again shortly.', {
    headers: { 'Retry-After': '1' },
  });
}

/**
 * The global guard (APP_GUARD): every route needs Basic credentials unless marked @Public().
 * Nest runs global guards before a handler's own, so credentials are checked before anything
 * else, the body included (JsonBodyReader). Adds what @nestjs/passport's AuthGuard leaves out: the
 * WWW-Authenticate challenge (nestjs/passport#24), 429 for a guesser (FailureLimiter), and a
 * fast path for credentials whose verdict is cached. It also sets the answer's Cache-Control
 * (cache-policy.ts: `no-store` unless the route's @CachePolicy() says otherwise; an anonymous
 * public read sets its own). `canActivate` authenticates and sets
 * `request.user`; a check of what that user may do belongs after `authenticate`. With public read
 * on, a request to a @PublicRead() route that sends no Authorization header is let in anonymously
 * (and marked so: PublicReadThrottler counts it); one that sends credentials is authenticated as
 * anywhere else, so wrong ones are still a 401.
 */
@Injectable()
export class BasicAuthGuard extends AuthGuard('basic') {
  /** Requests waiting for a check, by address and Authorization header: what begin() counted. */
  private readonly checking = new Map<string, number>();
  /** Each handler's RouteAuth (routeOf). */
  private readonly routes = new WeakMap<object, RouteAuth>();
  private readonly publicRead: boolean;

  constructor(
    private readonly reflector: Reflector,
    private readonly limiter: FailureLimiter,
    private readonly authMetrics: AuthMetrics,
    private readonly verifier: CredentialsVerifier,
    @InjectConfig() config: AppConfig,
  ) {
    super();
    this.publicRead = config.publicRead.enabled;
  }

  override canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const route = this.routeOf(context);
    if (route.isPublic) return true;
    // The request and response by index: switchToHttp() builds three closures on every call.
    const request = context.getArgByIndex<Request>(0);
    if (this.publicRead && route.publicRead && !sendsCredentials(request.headers)) {
      markAnonymousRead(request);
      return true;
    }
    // Before anything can answer (the 401 included): what is behind credentials is the caller's.
    applyCachePolicy(context.getArgByIndex<Response>(1), route.cacheControl);
    return this.authenticate(context, request);
  }

  /**
   * What the route's decorators say (@Public(), @PublicRead(), @CachePolicy()), read once per
   * handler: they are fixed once the classes are defined, and reading metadata is a prototype
   * walk per key on every request. Read again for another class (a handler a subclass inherits).
   */
  private routeOf(context: ExecutionContext): RouteAuth {
    const handler = context.getHandler();
    const controller = context.getClass();
    let route = this.routes.get(handler);
    if (route?.controller !== controller) {
      const targets = [handler, controller];
      route = {
        controller,
        isPublic: Boolean(this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)),
        publicRead: Boolean(this.reflector.get<boolean>(PUBLIC_READ, handler)),
        cacheControl:
          this.reflector.getAllAndOverride<string | undefined>(CACHE_POLICY, targets) ?? DEFAULT_PRIVATE_CACHE_CONTROL,
      };
      this.routes.set(handler, route);
    }
    return route;
  }

  /**
   * Sets `request.user`, or throws 401 (no valid credentials), 429 (a guesser: FailureLimiter) or
   * 503 (no password check could start in time: HashGate). Credentials whose verdict is cached
   * (nearly every request) are decided here and now, with a plain `true` or a throw: Nest awaits
   * a promise a guard returns (an async call and turns of the microtask queue), and a guard's
   * throw reaches the exception filters as its rejection would. Only the others wait, in `check`.
   */
  private authenticate(context: ExecutionContext, request: Request): true | Promise<true> {
    // The credentials' one keyed hash for this request: the cache key, and all that is kept of them.
    const presented = this.verifier.present(request);
    // No credentials, or a header that is not Basic credentials: nothing was guessed, nothing counts.
    if (presented === null) throw this.refuse();
    // Known credentials (nearly every request) are answered from the credential cache, without
    // passport's per-request machinery; the rest go through the strategy.
    const cached = this.verifier.cached(presented);
    const { username } = presented.credentials;

    const address = clientAddress(request);
    const retryAfter = this.limiter.retryAfterSeconds(address, username);
    if (retryAfter > 0) throw tooManyAttempts(retryAfter);
    if (cached !== undefined) {
      if (cached === null) {
        this.limiter.begin(address, username);
        throw this.refuse();
      }
      this.limiter.succeeded(address, username);
      request.user = cached;
      return true;
    }
    return this.check(context, presented.key, address, username);
  }

  /** The credentials' check through the strategy (passport, the password hash): see authenticate. */
  private async check(context: ExecutionContext, key: string, address: string, username: string): Promise<true> {
    // Counted before the check starts, so that concurrent guesses count at once; but once per
    // set of credentials in flight from an address, since those requests share one check
    // (single-flight): forty concurrent first requests of one valid user are one attempt, not forty.
    const attempt = `${address}\n${key}`;
    const waiting = this.checking.get(attempt) ?? 0;
    const counted = waiting === 0;
    this.checking.set(attempt, waiting + 1);
    if (counted) this.limiter.begin(address, username);
    try {
      await super.canActivate(context);
    } catch (error) {
      if (error instanceof ProblemException && error.getStatus() === 401) {
        this.authMetrics.recordFailure();
        throw error;
      }
      // Not a wrong password: the check could not be made.
      if (counted) this.limiter.withdraw(address, username);
      throw error instanceof HashGateBusyError ? checksBusy() : error;
    } finally {
      const left = (this.checking.get(attempt) ?? 1) - 1;
      if (left === 0) this.checking.delete(attempt);
      else this.checking.set(attempt, left);
    }
    if (counted) this.limiter.withdraw(address, username);
    this.limiter.succeeded(address, username);
    return true;
  }

  override handleRequest<TUser = AuthenticatedUser>(error: unknown, user: TUser | false): TUser {
    if (error) throw error;
    if (!user) throw unauthorized();
    return user;
  }

  private refuse(): ProblemException {
    this.authMetrics.recordFailure();
    return unauthorized();
  }
}
