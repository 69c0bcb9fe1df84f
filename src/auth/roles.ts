import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { ApiProblemResponses } from '../common/problem/api-problem-responses.js';

/**
 * What a user may do, each role everything the one before it may: `viewer` reads, `box-office`
 * also sells tickets and checks them in at the door (but changes no event), `editor` changes
 * special events, `admin` also manages what reaches outside the service (webhook subscriptions,
 * calendar feed tokens).
 */
export const ROLES = ['viewer', 'box-office', 'editor', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** True when a user with role `held` may call an operation that needs `needed`. */
export function roleAllows(held: Role, needed: Role): boolean {
  return ROLES.indexOf(held) >= ROLES.indexOf(needed);
}

export const REQUIRED_ROLE = Symbol('REQUIRED_ROLE');

/**
 * The least role an operation (or every operation of a controller) needs; RoleGuard enforces it.
 * An authenticated route without one needs `editor`, so a new route is closed to viewers until
 * someone decides otherwise. The OpenAPI document states the role (`x-required-role` and the
 * description) and, where a viewer is refused, the 403.
 */
export const RequiresRole = (role: Role): ClassDecorator & MethodDecorator =>
  applyDecorators(
    SetMetadata(REQUIRED_ROLE, role),
    ApiExtension('x-required-role', role),
    ...(role === ROLES[0] ? [] : [ApiProblemResponses(403)]),
  );
