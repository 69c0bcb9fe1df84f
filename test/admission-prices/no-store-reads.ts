import type { NoStoreReads } from '../helpers/no-store-read-rows.js';
import { expectStatus } from '../helpers/problem-assertions.js';
import { ADMISSION_PRICES_PATH, FAMILY_PRICES, setAdmissionPrices } from './api.js';

/** The admission prices' read says no-store behind credentials (test/helpers/no-store-read-rows.ts). */
export default (async (t) => {
  expectStatus(await setAdmissionPrices(t.baseUrl, FAMILY_PRICES), 200);
  return [ADMISSION_PRICES_PATH];
}) satisfies NoStoreReads;
