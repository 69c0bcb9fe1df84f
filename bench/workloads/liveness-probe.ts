/**
 * A liveness probe beside a run: GET /health/live one at a time, every PROBE_INTERVAL_MS, from a
 * worker thread of its own, so that the load generator's event loop (autocannon, in this process)
 * never delays a probe's answer and the time is the service's. What an orchestrator's probe would
 * see while the service is flooded.
 */
import { Worker } from 'node:worker_threads';
import { httpExpect } from '../servers/http.js';
import type { ProbeSummary } from './workload.js';

const PROBE_INTERVAL_MS = 20;

const PROBE_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const times = [];
let failures = 0;
let stopped = false;
parentPort.on('message', () => { stopped = true; });
function probe() {
  if (stopped) {
    agent.destroy();
    parentPort.postMessage({ times, failures });
    return;
  }
  const start = process.hrtime.bigint();
  const request = http.get(workerData.url, { agent, timeout: 5000 }, (response) => {
    response.resume();
    response.on('end', () => {
      if (response.statusCode === 200) times.push(Number(process.hrtime.bigint() - start) / 1e6);
      else failures++;
      setTimeout(probe, workerData.intervalMs);
    });
  });
  request.on('timeout', () => request.destroy(new Error('timeout')));
  request.on('error', () => { failures++; setTimeout(probe, workerData.intervalMs); });
}
probe();
`;

/** Starts probing `baseUrl`; the returned function stops and summarizes. */
export function startLivenessProbe(baseUrl: string): () => Promise<ProbeSummary> {
  const worker = new Worker(PROBE_SOURCE, {
    eval: true,
    workerData: { url: `${baseUrl}/health/live`, intervalMs: PROBE_INTERVAL_MS },
  });
  const done = new Promise<{ times: number[]; failures: number }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return async () => {
    worker.postMessage('stop');
    const { times, failures } = await done;
    await worker.terminate();
    const sorted = [...times].sort((a, b) => a - b);
    const rank = (q: number): number => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] ?? NaN;
    return { name: 'GET /health/live', count: sorted.length, failures, p99Ms: rank(0.99), maxMs: rank(1) };
  };
}

/**
 * The longest the service's event loop was held since the last read, in ms: its own
 * nodejs_eventloop_lag_max_seconds, which prom-client resets on each read. What the service did,
 * apart from what a probe's answer also waited for on the load generator's side.
 */
export async function loopBlockMs(port: number, label: string): Promise<number> {
  const metrics = await httpExpect({ port, method: 'GET', path: '/metrics' }, 200, label);
  const found = /^nodejs_eventloop_lag_max_seconds\s+(\S+)$/m.exec(metrics.body);
  if (!found) throw new Error(`${label}: /metrics has no nodejs_eventloop_lag_max_seconds`);
  return Number(found[1]) * 1000;
}
