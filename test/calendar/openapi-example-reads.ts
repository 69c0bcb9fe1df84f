import { expect } from 'vitest';
import type { ExampleRead } from '../helpers/openapi-examples.js';

/** The calendar feed's examples find the events there are (test/helpers/openapi-examples.ts). */
export default [
  {
    path: '/special-events.ics',
    check: async (answer, eventName) => {
      expect(await answer.text()).toContain(`SUMMARY:${eventName}`);
    },
  },
] satisfies ExampleRead[];
