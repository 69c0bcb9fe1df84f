import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { expect } from 'vitest';
import { expectProblem, expectStatus, expectUnauthorized, validEvent } from '../helpers/problem-assertions.js';
import {
  atLeast,
  authenticated,
  createEvent,
  eventExists,
  everyRole,
  forbidden,
  type RoleRows,
  send,
} from '../helpers/roles.js';

/** Who may call the special events' routes (test/roles.e2e-spec.ts). */

const rows: RoleRows = {
  'POST /special-events': {
    async check(t, caller) {
      const event = validEvent();
      const res = await send(t, 'POST', '/special-events', caller).send(event);
      if (caller === 'anonymous') expectUnauthorized(res, '/special-events');
      if (caller === 'viewer' || caller === 'box-office') forbidden(res, '/special-events', 'editor', caller);
      if (atLeast(caller, 'editor')) expectStatus(res, 201);
      expect(await eventExists(t, event.eventId as string)).toBe(atLeast(caller, 'editor'));
    },
  },
  'DELETE /special-events/:eventId': {
    async check(t, caller) {
      const eventId = await createEvent(t);
      const res = await send(t, 'DELETE', `/special-events/${eventId}`, caller);
      if (caller === 'anonymous') expectUnauthorized(res, `/special-events/${eventId}`);
      if (caller === 'viewer' || caller === 'box-office')
        forbidden(res, `/special-events/${eventId}`, 'editor', caller);
      if (atLeast(caller, 'editor')) expectStatus(res, 204);
      expect(await eventExists(t, eventId)).toBe(!atLeast(caller, 'editor'));
    },
  },
  'GET /special-events': authenticated(
    everyRole((res) => expectStatus(res, 200)),
    'GET',
    () => '/special-events?limit=1',
  ),
  'GET /special-events/:eventId': authenticated(
    everyRole((res) => expectStatus(res, 200)),
    'GET',
    (t) => createEvent(t).then((eventId) => `/special-events/${eventId}`),
  ),
  'PATCH /special-events/:eventId': {
    async check(t, caller) {
      const eventId = await createEvent(t);
      const path = `/special-events/${eventId}`;
      const res = await send(t, 'PATCH', path, caller).send({ name: `Patched by ${caller}` });
      if (caller === 'anonymous') expectUnauthorized(res, path);
      if (caller === 'viewer' || caller === 'box-office') forbidden(res, path, 'editor', caller);
      if (atLeast(caller, 'editor')) expectStatus(res, 200);
      const rows = (await t.app
        .get(DataSource)
        .query('SELECT name FROM special_events WHERE event_id = ?', [eventId])) as {
        name: string;
      }[];
      expect(rows[0].name === `Patched by ${caller}`).toBe(atLeast(caller, 'editor'));
    },
  },
  'GET /special-events/:eventId/availability': authenticated(
    everyRole((res) => expectStatus(res, 200)),
    'GET',
    (t) => createEvent(t).then((eventId) => `/special-events/${eventId}/availability`),
  ),
  // Methods the paths do not support: the same 405 for every role (no role could do more).
  'ALL /special-events': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'PUT',
    () => '/special-events',
  ),
  'ALL /special-events/:eventId': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'PUT',
    () => `/special-events/${randomUUID()}`,
  ),
  'ALL /special-events/:eventId/availability': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'PUT',
    () => `/special-events/${randomUUID()}/availability`,
  ),
  'ALL /special-events/*rest': authenticated(
    everyRole((res, path) => expectProblem(res, 404, path)),
    'GET',
    () => `/special-events/${randomUUID()}/more`,
  ),
};

export default rows;
