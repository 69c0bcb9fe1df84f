import { expect } from 'vitest';
import type { ExampleRead, Json } from '../helpers/openapi-examples.js';
import { OPEN_EVERY_DAY, setWeeklyHours } from './api.js';

async function openEveryDay(baseUrl: string): Promise<void> {
  expect((await setWeeklyHours(baseUrl, OPEN_EVERY_DAY)).status).toBe(200);
}

async function someOpenDays(answer: Response): Promise<void> {
  expect(((await answer.json()) as Json[]).length).toBeGreaterThan(0);
}

/** getMuseumHours' examples find the open days there are (test/helpers/openapi-examples.ts). */
export default [{ path: '/museum-hours', prepare: openEveryDay, check: someOpenDays }] satisfies ExampleRead[];
