import { ProblemCatalog } from '../common/problem/problem-catalog.js';
import { MuseumHoursRefusal, type MuseumHoursReasons } from './museum-hours.refusals.js';

/** Each refusal of the museum-hours module as an HTTP problem, and as the API description words it. */
export const MUSEUM_HOURS_PROBLEMS = new ProblemCatalog<MuseumHoursReasons>('museum-hours', MuseumHoursRefusal, {
  'tickets-sold-on-closing': {
    status: 409,
    detail: ({ date, sold }) =>
      `${sold} general-admission ticket(s) are sold for ${date}: the museum cannot be closed that day.`,
    when: 'General-admission tickets are sold for the date: it cannot be closed.',
    example: { date: '2026-12-24', sold: 3 },
  },
  'tickets-sold-above-capacity': {
    status: 409,
    detail: ({ date, sold }) =>
      `${sold} general-admission ticket(s) are sold for ${date}: its capacity cannot be below that.`,
    when: 'More general-admission tickets are sold for the date than the capacity given.',
    example: { date: '2026-12-24', sold: 3 },
  },
  'no-exception': {
    status: 404,
    detail: ({ date }) => `No museum hours exception for ${date}.`,
    when: 'The date has no exception.',
    example: { date: '2026-12-24' },
  },
  'closed-day': {
    status: 404,
    detail: ({ date }) => `The museum is closed on ${date}: the day has no slots.`,
    when: 'The museum is closed on the date (its exception closes it, or its weekday has no hours).',
    example: { date: '2026-12-25' },
  },
});
