import type { PublicReadRows } from '../helpers/public-read-rows.js';
import { hoursPath } from './api.js';

/**
 * The open days and a day's time slots are public reads (a day's slots need an open day: the
 * anonymous answer is shown in test/museum-hours/time-slots.e2e-spec.ts); the path's other methods are not (test/helpers/public-read-rows.ts). */
export default {
  paths: [hoursPath()],
  operationIds: ['getMuseumHours', 'getMuseumSlots'],
  closed: [
    ['put', hoursPath()],
    ['put', '/museum-hours/2090-01-01/slots'],
  ],
} satisfies PublicReadRows;
