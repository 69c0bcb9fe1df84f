/**
 * One run of a workload on a server: autocannon (programmatic API, in this process) against
 * 127.0.0.1, and what the run measured: mean req/s, latency percentiles, and every response or
 * error that was not the expected status.
 */
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { VALID_AUTHORIZATION, WRONG_AUTHORIZATION } from '../servers/databases.js';
import { isReference } from '../servers/start.js';
import type { ProbeSummary, RunSetup, Subject, Workload } from '../workloads/workload.js';
import { RssSampler } from './rss.js';

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

export interface LoadRun {
  readonly durationSec: number;
  readonly connections: number;
  /** A warm-up may end before the first answer (cold start): that alone is no problem. */
  readonly warmup: boolean;
  /** Sample the server's VmRSS during the run (rssMaxMiB). */
  readonly sampleRss?: boolean;
}

/** An autocannon run to its end; `watch` sees the instance before it starts. */
export function runAutocannon(
  options: autocannon.Options,
  watch?: (instance: autocannon.Instance) => void,
): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { setupClient: forgetOnReconnect, ...options },
      (error: unknown, done: autocannon.Result) => {
        if (error) reject(error instanceof Error ? error : new Error('autocannon failed', { cause: error }));
        else resolve(done);
      },
    );
    watch?.(instance);
  });
}

/**
 * autocannon connects again when the server closes a connection (the service does after a 401
 * sent before the body was read: it never reads an unauthenticated body) but keeps the closed
 * connection's unanswered request in its queue, so every later response of that client would be
 * timed from that stale request's start (p50s of seconds at thousands of req/s). Emptying the
 * queue whenever the client connects keeps each latency that of its own request.
 */
function forgetOnReconnect(client: unknown): void {
  const internals = client as { _connect?: () => void; pipelinedRequests?: { clear(): void } };
  const connect = internals._connect;
  if (typeof connect !== 'function' || internals.pipelinedRequests === undefined) return;
  internals._connect = function (this: typeof internals): void {
    this.pipelinedRequests?.clear();
    connect.call(this);
  };
}

export function expectedStatus(subject: Subject, workload: Workload): number {
  return isReference(subject.label) ? (workload.referenceStatus ?? workload.status) : workload.status;
}

/**
 * One autocannon run of `workload` on `subject`, set up by `setup` (whose `after` it calls once
 * the run is over): the outcome, the peak RSS when sampled, and every problem, `after`'s included.
 */
export async function runLoad(
  subject: Subject,
  workload: Workload,
  setup: RunSetup,
  run: LoadRun,
): Promise<{
  outcome: RunOutcome;
  rssMaxMiB?: number;
  problems: string[];
  note?: string;
  probe?: ProbeSummary;
  loopHeldMs?: number;
}> {
  const { nextPath, nextBody, idempotencyKeys } = setup;
  const headers: Record<string, string> = {
    ...(workload.anonymous
      ? {}
      : { authorization: workload.wrongCredentials ? WRONG_AUTHORIZATION : VALID_AUTHORIZATION }),
    ...setup.headers,
  };
  if (workload.body !== undefined || nextBody !== undefined) headers['content-type'] = 'application/json';
  const setupRequest = (request: autocannon.Request): autocannon.Request => ({
    ...request,
    ...(nextPath ? { path: nextPath() } : {}),
    ...(nextBody ? { body: nextBody() } : {}),
    ...(idempotencyKeys ? { headers: { ...request.headers, 'idempotency-key': randomUUID() } } : {}),
  });
  const rss = run.sampleRss ? new RssSampler(subject.server.pid) : undefined;
  rss?.start();
  // autocannon's own histogram keeps whole milliseconds: every response time is kept here instead.
  const latencies: number[] = [];
  const result = await runAutocannon(
    {
      url: `${subject.server.baseUrl}${setup.path ?? workload.path ?? '/special-events'}`,
      connections: run.connections,
      duration: run.durationSec,
      timeout: 10,
      method: workload.method,
      headers,
      ...(workload.body === undefined ? {} : { body: workload.body }),
      ...(nextPath || nextBody || idempotencyKeys ? { requests: [{ setupRequest }] } : {}),
    },
    (instance) => instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime)),
  );
  const rssMaxMiB = rss?.stop();

  const expected = String(expectedStatus(subject, workload));
  const statusCounts: Record<string, number> = {};
  let responses = 0;
  for (const [status, stats] of Object.entries(result.statusCodeStats ?? {})) {
    const count = stats.count ?? 0;
    statusCounts[status] = count;
    responses += count;
  }
  const unexpected = responses - (statusCounts[expected] ?? 0);
  const problems: string[] = [];
  if (unexpected > 0) {
    const others = Object.entries(statusCounts)
      .filter(([status]) => status !== expected)
      .map(([status, count]) => `${count}× ${status}`)
      .join(', ');
    problems.push(`${unexpected} responses with an unexpected status (expected ${expected}): ${others}`);
  }
  if (result.errors > 0 || result.timeouts > 0) {
    problems.push(`${result.errors} connection errors, ${result.timeouts} of them timeouts`);
  }
  if (responses === 0 && !run.warmup) problems.push('no response at all');
  const outcome: RunOutcome = {
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
  const after = await setup.after?.();
  return {
    outcome,
    ...(rssMaxMiB === undefined ? {} : { rssMaxMiB }),
    problems: [...problems, ...(after?.problems ?? [])],
    ...(after?.note === undefined ? {} : { note: after.note }),
    ...(after?.probe === undefined ? {} : { probe: after.probe }),
    ...(after?.loopHeldMs === undefined ? {} : { loopHeldMs: after.loopHeldMs }),
  };
}

/** Nearest-rank percentile (0 < q ≤ 1) of the values; NaN when there are none. */
export function percentile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

/** The median, the mean of the middle two of an even count; NaN values left out, NaN when none is left. */
export function median(values: readonly number[]): number {
  const sorted = values.filter((value) => !Number.isNaN(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
