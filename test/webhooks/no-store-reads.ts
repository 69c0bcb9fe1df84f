import type { NoStoreReads } from '../helpers/no-store-read-rows.js';

/** The list of subscriptions says no-store (test/helpers/no-store-read-rows.ts). */
export default (() => Promise.resolve(['/webhooks'])) satisfies NoStoreReads;
