import { expect } from 'vitest';
import type { ExampleRead, Json } from '../helpers/openapi-examples.js';
import { OPEN_EVERY_DAY, setWeeklyHours } from './api.js';

/** getMuseumHours' examples find the open days there are (test/helpers/openapi-examples.ts). */
export default [
  {
    path: '/museum-hours',
    prepare: async (baseUrl) => {
      expect((await setWeeklyHours(baseUrl, OPEN_EVERY_DAY)).status).toBe(200);
    },
    check: async (answer) => {
      expect(((await answer.json()) as Json[]).length).toBeGreaterThan(0);
    },
  },
] satisfies ExampleRead[];
