import type { NoStoreReads } from '../helpers/no-store-read-rows.js';

/** The list of feed tokens says no-store (test/helpers/no-store-read-rows.ts). */
export default (() => Promise.resolve(['/calendar-tokens'])) satisfies NoStoreReads;
