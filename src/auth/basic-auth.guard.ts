import { type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import { ProblemException } from '../common/problem/problem.js';
import { AuthMetrics } from './auth.metrics.js';
import { BASIC_CHALLENGE, type AuthenticatedUser } from './basic.strategy.js';
import { CredentialsVerifier } from './credentials-verifier.js';
import { FailureLimiter } from './failure-limiter.js';
import { IS_PUBLIC } from './public.decorator.js';

/** The one 401 of the service: the same for every kind of failure, so it reveals nothing. */
export function unauthorized(): ProblemException {
  return new ProblemException(401, 'Valid HTTP Basic credentials are required.', {
    headers: { 'WWW-Authenticate': BASIC_CHALLENGE },
  });
}

/**
 * The global guard (APP_GUARD): every route needs Basic credentials unless marked @Public().
 * Nest runs global guards before a handler's own, so credentials are checked before anything
 * else, the body included (JsonBody). Adds what @nestjs/passport's AuthGuard leaves out: the
 * WWW-Authenticate challenge (nestjs/passport#24), 429 for an address that keeps failing, and a
 * fast path for credentials whose verdict is cached.
 */
@Injectable()
export class BasicAuthGuard extends AuthGuard('basic') {
  constructor(
    private readonly reflector: Reflector,
    private readonly limiter: FailureLimiter,
    private readonly authMetrics: AuthMetrics,
    private readonly verifier: CredentialsVerifier,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    if (isPublic) return true;

    const request = context.switchToHttp().getRequest<Request>();
    const address = request.ip ?? request.socket.remoteAddress ?? 'unknown';
    const retryAfter = this.limiter.retryAfterSeconds(address);
    if (retryAfter > 0) {
      throw new ProblemException(429, 'Too many failed authentication attempts from this address; try again later.', {
        headers: { 'Retry-After': String(retryAfter) },
      });
    }
    try {
      // Known credentials (nearly every request) are answered from the credential cache, without
      // passport's per-request machinery; the rest go through the passport strategy.
      const header = request.headers.authorization;
      const cached = header === undefined ? undefined : this.verifier.cached(header);
      if (cached === null) throw unauthorized();
      if (cached !== undefined) {
        request.user = cached;
        return true;
      }
      return (await super.canActivate(context)) as boolean;
    } catch (error) {
      if (error instanceof ProblemException && error.getStatus() === 401) {
        this.limiter.recordFailure(address);
        this.authMetrics.recordFailure();
      }
      throw error;
    }
  }

  override handleRequest<TUser = AuthenticatedUser>(error: unknown, user: TUser | false): TUser {
    if (error) throw error;
    if (!user) throw unauthorized();
    return user;
  }
}
