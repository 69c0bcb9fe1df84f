import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * The app's own registry (the DI token is prom-client's Registry class): never the global default
 * one, so that several apps in one process (the e2e tests) each count only their own requests.
 * Holds the process metrics prom-client collects by default, prefixed `process_` and `nodejs_`.
 */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}
