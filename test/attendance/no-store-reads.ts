import type { NoStoreReads } from '../helpers/no-store-read-rows.js';
import { created } from '../helpers/contract.js';
import { dayAttendancePath, eventAttendancePath } from './api.js';

/** Attendance says no-store: every sale, check-in and cancel changes it (test/helpers/no-store-read-rows.ts). */
export default (async (t) => [
  eventAttendancePath(await created(t)),
  dayAttendancePath('2090-01-01'),
]) satisfies NoStoreReads;
