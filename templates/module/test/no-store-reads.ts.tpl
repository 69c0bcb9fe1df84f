import type { NoStoreReads } from '../helpers/no-store-read-rows.js';
import { store{{Singular}} } from './api.js';

/** {{A}} {{singularWords}}'s read says no-store (test/helpers/no-store-read-rows.ts). */
export default (async (t) => [await store{{Singular}}(t)]) satisfies NoStoreReads;
