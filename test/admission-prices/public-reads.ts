import type { PublicReadRows } from '../helpers/public-read-rows.js';
import { ADMISSION_PRICES_PATH } from './api.js';

/** General admission's categories are a public read, as the museum's hours; putting them is not. */
export default {
  paths: [ADMISSION_PRICES_PATH],
  operationIds: ['getAdmissionPrices'],
  closed: [['put', ADMISSION_PRICES_PATH]],
} satisfies PublicReadRows;
