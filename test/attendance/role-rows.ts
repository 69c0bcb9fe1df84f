import { randomUUID } from 'node:crypto';
import { expectProblem, expectStatus } from '../helpers/problem-assertions.js';
import { authenticated, createEvent, everyRole, type RoleRows } from '../helpers/roles.js';
import { dayAttendancePath, eventAttendancePath } from './api.js';

/**
 * Who may read attendance (test/roles.e2e-spec.ts): every role from viewer up, never an anonymous
 * caller (public read does not open it: test/public-read.e2e-spec.ts tries every route).
 */
const rows: RoleRows = {
  'GET /special-events/:eventId/attendance': authenticated(
    everyRole((res) => expectStatus(res, 200)),
    'GET',
    (t) => createEvent(t).then(eventAttendancePath),
  ),
  'GET /museum-hours/:date/attendance': authenticated(
    everyRole((res) => expectStatus(res, 200)),
    'GET',
    () => dayAttendancePath('2090-01-01'),
  ),
  // Methods the paths do not support: the same 405 for every role.
  'ALL /special-events/:eventId/attendance': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'POST',
    () => eventAttendancePath(randomUUID()),
  ),
  'ALL /museum-hours/:date/attendance': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'PUT',
    () => dayAttendancePath('2090-01-01'),
  ),
};

export default rows;
