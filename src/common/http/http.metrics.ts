import { Injectable } from '@nestjs/common';
import { Counter, Histogram, Registry } from 'prom-client';

type Labels = 'method' | 'route' | 'status';
const LABELS: Labels[] = ['method', 'route', 'status'];

/** A label set's series, looked up once: prom-client hashes the label object on every call. */
interface Series {
  readonly requests: { inc(): void };
  readonly duration: { observe(seconds: number): void };
}

/**
 * Counts every answered request and its latency by method, route pattern (never the raw path:
 * ids would make a series per event) and status. Recorded by the request observer that
 * configureApp mounts before anything else, so that requests answered outside Nest's routing
 * (CORS preflights, the OpenAPI document) count too, when the response is finished; a request
 * whose client went away first is not counted.
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

  /** Label sets are few: known methods × route patterns × statuses. */
  private readonly series = new Map<string, Series>();

  record(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let series = this.series.get(key);
    if (series === undefined) {
      const labels = { method, route, status };
      series = { requests: this.requests.labels(labels), duration: this.duration.labels(labels) };
      this.series.set(key, series);
    }
    series.requests.inc();
    series.duration.observe(seconds);
  }
}
