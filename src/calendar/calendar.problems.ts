import { ProblemCatalog } from '../common/problem/problem-catalog.js';
import { CalendarRefusal, type CalendarReasons } from './calendar.refusals.js';

/** Each refusal of the calendar module as an HTTP problem, and as the API description words it. */
export const CALENDAR_PROBLEMS = new ProblemCatalog<CalendarReasons>('calendar', CalendarRefusal, {
  'no-token': {
    status: 404,
    detail: ({ tokenId }) => `No calendar token with tokenId ${tokenId}.`,
    when: 'No calendar token has this tokenId.',
    example: { tokenId: '3f2a9c4e-1b7d-4e8a-9c0f-5d6e7f8a9b0c' },
  },
  'unknown-feed-token': {
    status: 404,
    detail: () => 'No calendar feed exists at this address: its token is unknown or was revoked.',
    when: 'No feed at this address: the token is malformed, unknown or revoked.',
    example: {},
  },
});
