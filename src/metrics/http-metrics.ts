import { Injectable } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Counter, Histogram, Registry } from 'prom-client';
import { routePattern } from '../common/logging/route-pattern.js';

type Labels = 'method' | 'route' | 'status';
const LABELS: Labels[] = ['method', 'route', 'status'];

/**
 * Counts every answered request and its latency by method, route pattern (never the raw path:
 * ids would make a series per event) and status. `middleware` is mounted by configureApp before
 * anything else, so that requests answered outside Nest's routing (CORS preflights, the OpenAPI
 * document) count too. Recorded when the response is finished; a request whose client went away
 * first is not counted.
 */
@Injectable()
export class HttpMetrics {
  private readonly requests: Counter<Labels>;
  private readonly duration: Histogram<Labels>;

  constructor(registry: Registry) {
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status.',
      labelNames: LABELS,
      registers: [registry],
    });
    this.duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from receiving an HTTP request to finishing its response, by method, route pattern and status.',
      labelNames: LABELS,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
  }

  readonly middleware = (request: IncomingMessage, response: ServerResponse, next: () => void): void => {
    const stop = this.duration.startTimer();
    response.once('finish', () => {
      const labels = { method: request.method, route: routePattern(request), status: response.statusCode };
      stop(labels);
      this.requests.inc(labels);
    });
    next();
  };
}
