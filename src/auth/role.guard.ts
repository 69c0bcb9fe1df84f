import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { ProblemException } from '../common/problem/problem.js';
import type { AuthenticatedUser } from './basic.strategy.js';
import { IS_PUBLIC } from '../common/http/public.decorator.js';
import { isAnonymousRead } from '../common/http/public-read.js';
import { isGeneratedRoute } from '../common/http/routes.js';
import { REQUIRED_ROLE, type Role, roleAllows } from './roles.js';

/** What an authenticated route needs when it declares nothing: closed to viewers by default. */
const DEFAULT_ROLE: Role = 'editor';

/**
 * The second global guard (APP_GUARD, registered after BasicAuthGuard, so it runs after it): the
 * caller is authenticated by now, and a role below the operation's @RequiresRole() is a 403.
 * Anonymous callers never get here; they get the Basic guard's 401 and learn nothing. The one
 * exception is an anonymous public read (the Basic guard let it in on a @PublicRead() route),
 * which needs no role.
 */
@Injectable()
export class RoleGuard implements CanActivate {
  /** The role each handler needs, or null when it needs none (public, generated): read once. */
  private readonly needs = new WeakMap<object, Role | null>();

  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const needed = this.roleNeeded(context);
    if (needed === null) return true;
    // By index, as the Basic guard does: switchToHttp() builds three closures on every call.
    const request = context.getArgByIndex<Request & { user?: AuthenticatedUser }>(0);
    const { user } = request;
    if (user && roleAllows(user.role, needed)) return true;
    if (user === undefined && isAnonymousRead(request)) return true;
    throw new ProblemException(403, `This operation needs the ${needed} role; your role is ${user?.role ?? 'none'}.`);
  }

  private roleNeeded(context: ExecutionContext): Role | null {
    const handler = context.getHandler();
    let needed = this.needs.get(handler);
    if (needed === undefined) {
      const targets = [handler, context.getClass()];
      // Public routes need no role; another method or a deeper path gets the same 405/404 for
      // every role, since no role could do more.
      needed =
        this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets) || isGeneratedRoute(handler)
          ? null
          : (this.reflector.getAllAndOverride<Role | undefined>(REQUIRED_ROLE, targets) ?? DEFAULT_ROLE);
      this.needs.set(handler, needed);
    }
    return needed;
  }
}
