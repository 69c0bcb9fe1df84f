import type { TestApp } from './test-app.js';

/**
 * A feature's reads behind credentials that answer 200 with `Cache-Control: no-store`: the default
 * export of `test/<feature>/no-store-reads.ts`, which seeds what the reads need and returns their
 * paths; test/cache-control.e2e-spec.ts collects and checks them.
 */
export type NoStoreReads = (t: TestApp) => Promise<string[]>;
