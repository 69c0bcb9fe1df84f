import { SetMetadata } from '@nestjs/common';
import type { ServerResponse } from 'node:http';

export const CACHE_POLICY = Symbol('CACHE_POLICY');

/**
 * What every answer behind credentials says to caches unless its route says otherwise: it is the
 * caller's, so no cache (a browser's, a proxy's) may keep it.
 */
export const DEFAULT_PRIVATE_CACHE_CONTROL = 'no-store';

/** For answers with an ETag: the caller's device may keep them, and revalidates before each use. */
export const REVALIDATED_CACHE_CONTROL = 'private, no-cache';

/**
 * The `Cache-Control` of a route's answers behind credentials, in place of
 * DEFAULT_PRIVATE_CACHE_CONTROL. A handler that sets the header itself still wins: the policy is
 * set before the handler runs, and only when no one set one before.
 */
export const CachePolicy = (cacheControl: string): ClassDecorator & MethodDecorator =>
  SetMetadata(CACHE_POLICY, cacheControl);

/** Sets `cacheControl` unless the response already has a Cache-Control. */
export function applyCachePolicy(response: ServerResponse, cacheControl: string): void {
  if (!response.hasHeader('Cache-Control')) response.setHeader('Cache-Control', cacheControl);
}

/**
 * An error answer is never kept: a response that carries a cache policy (it is behind
 * credentials, or its handler chose one) gets `no-store` instead when it turns into an error.
 */
export function forbidCachingOfError(response: ServerResponse): void {
  if (response.hasHeader('Cache-Control')) response.setHeader('Cache-Control', DEFAULT_PRIVATE_CACHE_CONTROL);
}
