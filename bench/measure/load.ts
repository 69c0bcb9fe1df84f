/**
 * The workloads, each one autocannon run (programmatic API, in this process) against 127.0.0.1,
 * and what a run measured: mean req/s, latency percentiles, and every response or error that was
 * not the expected status.
 */
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { EVENT_BODY, UPDATE_BODY } from '../servers/bodies.js';

export const WORKLOAD_NAMES = [
  'create',
  'delete',
  'auth-fail',
  'get',
  'list',
  'update',
  'list-deep',
  'buy-ticket',
  'museum-hours',
] as const;
export type WorkloadName = (typeof WORKLOAD_NAMES)[number];

/** The workloads that read or change events seeded before them (interleave.ts, ReadSet). */
export const READ_SET_WORKLOADS: readonly WorkloadName[] = ['get', 'list', 'update', 'list-deep'];
/**
 * list-deep follows `next` links 49 times and then asks for that page over and over: it needs a
 * table with at least 50 pages in the range, which only the large-table runs and their control have.
 */
export const LARGE_TABLE_ONLY: readonly WorkloadName[] = ['list-deep'];
/**
 * Measured on the service alone, in alternation with creates on the same service (service.ts,
 * measureTicketCost): a purchase needs events of its own to buy for, and the references sell nothing.
 */
export const SERVICE_ONLY: readonly WorkloadName[] = ['buy-ticket'];
/** What the large-table runs measure against a service on an empty table. */
export const LARGE_TABLE_WORKLOADS: readonly WorkloadName[] = [
  'create',
  'delete',
  'get',
  'list',
  'update',
  'list-deep',
];

/** Hands each DELETE the next seeded event id; random UUIDs (404 on the service) once they run out. */
export class IdFeed {
  private handedOut = 0;
  private overrun = 0;

  constructor(private readonly ids: readonly string[]) {}

  nextPath(): string {
    const id = this.ids[this.handedOut];
    if (id === undefined) {
      this.overrun++;
      return `/special-events/${randomUUID()}`;
    }
    this.handedOut++;
    return `/special-events/${id}`;
  }

  /** Requests that found no seeded id left. */
  get exhausted(): number {
    return this.overrun;
  }

  /**
   * Ids that may still be stored: never handed out, or handed out to one of the last requests,
   * which the end of the run may have cut off (at most one per connection).
   */
  leftovers(connections: number): string[] {
    return this.ids.slice(Math.max(0, this.handedOut - connections));
  }
}

export interface LoadSpec {
  readonly baseUrl: string;
  readonly workload: WorkloadName;
  readonly connections: number;
  readonly durationSec: number;
  /** The Authorization header (wrong credentials for auth-fail); none for the baseline. */
  readonly authorization?: string;
  readonly expectedStatus: number;
  /** A warm-up may end before the first answer (cold start): that alone is no problem. */
  readonly warmup?: boolean;
  /** delete, get, update: the path of every request. */
  readonly nextPath?: () => string;
  /** list, list-deep, museum-hours: the one path every request asks for. */
  readonly path?: string;
  /** create: every request carries a new Idempotency-Key (what a retrying client sends). */
  readonly idempotencyKeys?: boolean;
  /** buy-ticket: the body of each request (which event it buys for). */
  readonly nextBody?: () => string;
}

interface RequestShape {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly body?: string;
}

const SHAPES: Readonly<Record<WorkloadName, RequestShape>> = {
  create: { method: 'POST', body: EVENT_BODY },
  'auth-fail': { method: 'POST', body: EVENT_BODY },
  delete: { method: 'DELETE' },
  get: { method: 'GET' },
  list: { method: 'GET' },
  'list-deep': { method: 'GET' },
  update: { method: 'PATCH', body: UPDATE_BODY },
  'buy-ticket': { method: 'POST' },
  'museum-hours': { method: 'GET' },
};

export interface RunOutcome {
  /** autocannon's mean of its per-second request counts. */
  readonly reqPerSec: number;
  /** Exact, from every response's time (fractional ms), 401s included on auth-fail. */
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly responses: number;
  readonly statusCounts: Readonly<Record<string, number>>;
  /** Responses with another status than the expected one. */
  readonly unexpected: number;
  readonly errors: number;
  readonly timeouts: number;
  /** Human-readable reasons this run's numbers cannot be trusted; empty when clean. */
  readonly problems: string[];
}

/** One autocannon run of `spec.durationSec` seconds. */
export async function runLoad(spec: LoadSpec): Promise<RunOutcome> {
  const headers: Record<string, string> = spec.authorization ? { authorization: spec.authorization } : {};
  const shape = SHAPES[spec.workload];
  const nextPath = spec.nextPath;
  const nextBody = spec.nextBody;
  if (shape.body !== undefined || nextBody !== undefined) headers['content-type'] = 'application/json';
  const options: autocannon.Options = {
    url: `${spec.baseUrl}${spec.path ?? '/special-events'}`,
    connections: spec.connections,
    duration: spec.durationSec,
    timeout: 10,
    method: shape.method,
    headers,
    ...(shape.body === undefined ? {} : { body: shape.body }),
    ...(spec.idempotencyKeys
      ? {
          requests: [
            {
              setupRequest: (request: autocannon.Request): autocannon.Request => ({
                ...request,
                headers: { ...request.headers, 'idempotency-key': randomUUID() },
              }),
            },
          ],
        }
      : {}),
    ...(nextBody
      ? {
          requests: [
            { setupRequest: (request: autocannon.Request): autocannon.Request => ({ ...request, body: nextBody() }) },
          ],
        }
      : {}),
    ...(nextPath
      ? {
          requests: [
            { setupRequest: (request: autocannon.Request): autocannon.Request => ({ ...request, path: nextPath() }) },
          ],
        }
      : {}),
  };
  // autocannon's own histogram keeps whole milliseconds: every response time is kept here instead.
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(options, (error: unknown, done: autocannon.Result) => {
      if (error) reject(error instanceof Error ? error : new Error('autocannon failed', { cause: error }));
      else resolve(done);
    });
    instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });

  const statusCounts: Record<string, number> = {};
  let responses = 0;
  for (const [status, stats] of Object.entries(result.statusCodeStats ?? {})) {
    const count = stats.count ?? 0;
    statusCounts[status] = count;
    responses += count;
  }
  const unexpected = responses - (statusCounts[String(spec.expectedStatus)] ?? 0);
  const problems: string[] = [];
  if (unexpected > 0) {
    const others = Object.entries(statusCounts)
      .filter(([status]) => status !== String(spec.expectedStatus))
      .map(([status, count]) => `${count}× ${status}`)
      .join(', ');
    problems.push(`${unexpected} responses with an unexpected status (expected ${spec.expectedStatus}): ${others}`);
  }
  if (result.errors > 0 || result.timeouts > 0) {
    problems.push(`${result.errors} connection errors, ${result.timeouts} of them timeouts`);
  }
  if (responses === 0 && !spec.warmup) problems.push('no response at all');
  return {
    reqPerSec: result.requests.mean,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    responses,
    statusCounts,
    unexpected,
    errors: result.errors,
    timeouts: result.timeouts,
    problems,
  };
}

/** Nearest-rank percentile (0 < q ≤ 1) of the values; NaN when there are none. */
export function percentile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}
