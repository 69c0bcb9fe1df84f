import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { runInRequestContext } from '../logging/request-context.js';
import { assignRequestId, logRequestLine } from '../logging/request-logging.js';
import { routePattern } from '../logging/route-pattern.js';
import type { HttpMetrics } from './http.metrics.js';
import { applySecurityHeaders } from './security-headers.js';

export interface RequestObserverOptions {
  /** Where requests are counted; absent when metrics are disabled. */
  readonly metrics?: HttpMetrics;
  /** Whether the rest of the request runs with its id as AsyncLocalStorage context. */
  readonly requestContext: boolean;
  /**
   * The first check of every request, once it is observed (request-framing.ts): true when it
   * answered the request itself, and nothing else runs.
   */
  readonly refuses?: (request: IncomingMessage, response: ServerResponse) => boolean;
}

type Middleware = (request: IncomingMessage, response: ServerResponse, next: () => void) => void;

const never = (): boolean => false;

/**
 * What every request gets, whoever answers it, as one middleware mounted before anything else:
 * an id (X-Request-Id), the security headers, and once it is over, its log line and its metrics;
 * then `refuses`, the check that may answer it before anything else runs.
 * One Express layer and one pair of listeners per request instead of a layer each (pino-http,
 * prom-client's timer, helmet): each layer and each listener is work on every request.
 */
export function requestObserver({ metrics, requestContext, refuses = never }: RequestObserverOptions): Middleware {
  return (request, response, next) => {
    const started = performance.now();
    const requestId = assignRequestId(request, response);
    applySecurityHeaders(request, response);
    let over = false;
    // 'finish' when the response was sent; 'close' alone when the client went away first.
    const end = (finished: boolean): void => {
      if (over) return;
      over = true;
      const latencyMs = performance.now() - started;
      const route = routePattern(request);
      logRequestLine(request, response, { requestId, route, latencyMs, finished });
      if (finished) metrics?.record(request.method ?? '', route, response.statusCode, latencyMs / 1000);
    };
    response.on('finish', () => end(true));
    response.on('close', () => end(false));
    if (requestContext) {
      runInRequestContext(requestId, () => {
        if (!refuses(request, response)) next();
      });
    } else if (!refuses(request, response)) next();
  };
}
