import request from 'supertest';
import { expect } from 'vitest';
import { expectProblem, expectStatus, expectUnauthorized } from '../helpers/problem-assertions.js';
import { atLeast, authenticated, everyRole, forbidden, type RoleRows, send } from '../helpers/roles.js';
import { AUTH } from '../helpers/test-app.js';

/** Who may call the museum hours' routes (test/roles.e2e-spec.ts). */

const CLOSED_WEEK = {
  monday: null,
  tuesday: null,
  wednesday: null,
  thursday: null,
  friday: null,
  saturday: null,
  sunday: null,
};

let hoursDays = 0;
/** A date of its own for each museum-hours case, so that no case meets another's exception. */
function hoursDate(): string {
  hoursDays++;
  return new Date(Date.UTC(2090, 0, hoursDays)).toISOString().slice(0, 10);
}

const rows: RoleRows = {
  // Museum hours (docs/api.md, Museum hours): viewers read them; editors and admins set them.
  'GET /museum-hours': authenticated(
    everyRole((res) => expectStatus(res, 200)),
    'GET',
    () => '/museum-hours?startDate=2090-01-01',
  ),
  'GET /museum-hours/weekly': authenticated(
    everyRole((res) => expectStatus(res, 200)),
    'GET',
    () => '/museum-hours/weekly',
  ),
  'GET /museum-hours/:date/slots': {
    async check(t, caller) {
      const date = hoursDate();
      const day = { timeOpen: '10:00', timeClose: '11:00', slotMinutes: 30, slotCapacity: 10 };
      expectStatus(await request(t.baseUrl).put(`/museum-hours/${date}`).set('Authorization', AUTH).send(day), 200);
      const path = `/museum-hours/${date}/slots`;
      const res = await send(t, 'GET', path, caller);
      if (caller === 'anonymous') expectUnauthorized(res, path);
      else expectStatus(res, 200);
    },
  },
  'PUT /museum-hours/weekly': {
    async check(t, caller) {
      const week = { ...CLOSED_WEEK, monday: { timeOpen: '09:00', timeClose: caller === 'admin' ? '17:00' : '18:00' } };
      const res = await send(t, 'PUT', '/museum-hours/weekly', caller).send(week);
      if (caller === 'anonymous') expectUnauthorized(res, '/museum-hours/weekly');
      if (caller === 'viewer' || caller === 'box-office') forbidden(res, '/museum-hours/weekly', 'editor', caller);
      if (atLeast(caller, 'editor')) {
        expectStatus(res, 200);
        expect(res.body).toEqual(week);
      }
    },
  },
  'PUT /museum-hours/:date': {
    async check(t, caller) {
      const path = `/museum-hours/${hoursDate()}`;
      const res = await send(t, 'PUT', path, caller).send({ closed: true });
      if (caller === 'anonymous') expectUnauthorized(res, path);
      if (caller === 'viewer' || caller === 'box-office') forbidden(res, path, 'editor', caller);
      if (atLeast(caller, 'editor')) expectStatus(res, 200);
      const again = await request(t.baseUrl).delete(path).set('Authorization', AUTH);
      expectStatus(again, atLeast(caller, 'editor') ? 204 : 404);
    },
  },
  'DELETE /museum-hours/:date': {
    async check(t, caller) {
      const path = `/museum-hours/${hoursDate()}`;
      expectStatus(await request(t.baseUrl).put(path).set('Authorization', AUTH).send({ closed: true }), 200);
      const res = await send(t, 'DELETE', path, caller);
      if (caller === 'anonymous') expectUnauthorized(res, path);
      if (caller === 'viewer' || caller === 'box-office') forbidden(res, path, 'editor', caller);
      if (atLeast(caller, 'editor')) expectStatus(res, 204);
      const again = await request(t.baseUrl).delete(path).set('Authorization', AUTH);
      expectStatus(again, atLeast(caller, 'editor') ? 404 : 204);
    },
  },
  'ALL /museum-hours': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'POST',
    () => '/museum-hours',
  ),
  'ALL /museum-hours/weekly': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'POST',
    () => '/museum-hours/weekly',
  ),
  'ALL /museum-hours/:date': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'GET',
    () => '/museum-hours/2090-01-01',
  ),
  'ALL /museum-hours/:date/slots': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'PUT',
    () => '/museum-hours/2090-01-01/slots',
  ),
  'ALL /museum-hours/*rest': authenticated(
    everyRole((res, path) => expectProblem(res, 404, path)),
    'GET',
    () => '/museum-hours/2090-01-01/slots/more',
  ),
};

export default rows;
