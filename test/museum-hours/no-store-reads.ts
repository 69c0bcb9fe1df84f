import type { NoStoreReads } from '../helpers/no-store-read-rows.js';

/** The week and the hours behind credentials say no-store (test/helpers/no-store-read-rows.ts). */
export default (() => Promise.resolve(['/museum-hours/weekly', '/museum-hours'])) satisfies NoStoreReads;
