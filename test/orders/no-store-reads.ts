import type { NoStoreReads } from '../helpers/no-store-read-rows.js';
import { placeGeneralOrder } from './api.js';

/** An order's read says no-store (test/helpers/no-store-read-rows.ts): it carries its tickets' codes. */
export default (async (t) => [await placeGeneralOrder(t)]) satisfies NoStoreReads;
