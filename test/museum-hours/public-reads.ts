import type { PublicReadRows } from '../helpers/public-read-rows.js';
import { hoursPath } from './api.js';

/** The open days are a public read; the path's other methods are not (test/helpers/public-read-rows.ts). */
export default {
  paths: [hoursPath()],
  operationIds: ['getMuseumHours'],
  closed: [['put', hoursPath()]],
} satisfies PublicReadRows;
