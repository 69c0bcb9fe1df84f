import { expect } from 'vitest';
import type { ExampleRead } from '../helpers/openapi-examples.js';

async function theEventIsInTheFeed(answer: Response, eventName: string): Promise<void> {
  expect(await answer.text()).toContain(`SUMMARY:${eventName}`);
}

/** The calendar feed's examples find the events there are (test/helpers/openapi-examples.ts). */
export default [{ path: '/special-events.ics', check: theEventIsInTheFeed }] satisfies ExampleRead[];
