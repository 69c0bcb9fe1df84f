import { AsyncLocalStorage } from 'node:async_hooks';
import type { LevelWithSilent as LogLevel } from 'pino';

interface RequestContext {
  readonly requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/**
 * Whether the request id follows everything a request does (its database queries, a module's log
 * lines) through AsyncLocalStorage. On Node 20, a store that has been entered turns on a promise
 * hook for every promise of the process, a measurable cost per request (docs/performance-history.md). So it is
 * on where per-request lines exist to be read, LOG_LEVEL=debug and trace, and off at info and
 * above, where the lines a request can produce (its request line, the error filter's lines) carry
 * the id explicitly.
 */
export function requestContextWanted(level: LogLevel): boolean {
  return level === 'debug' || level === 'trace';
}

/** Runs `next` (the rest of the request's handling) with the request id as its context. */
export function runInRequestContext(requestId: string, next: () => void): void {
  storage.run({ requestId }, next);
}

/** The id of the request being handled, when the request context is on and there is one. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}
