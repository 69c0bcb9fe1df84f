import request from 'supertest';
import { expectProblem, expectStatus, expectUnauthorized } from '../helpers/problem-assertions.js';
import { atLeast, authenticated, everyRole, forbidden, type RoleRows, send } from '../helpers/roles.js';
import { AUTH } from '../helpers/test-app.js';
import { {{singularCamel}}Path, store{{Singular}} } from './api.js';

/** Who may call the {{plural}}' routes (test/roles.e2e-spec.ts): viewers read, editors and admins write. */
const rows: RoleRows = {
  'GET /{{plural}}/:{{singularCamel}}Id': authenticated(
    everyRole((res) => expectStatus(res, 200)),
    'GET',
    (t) => store{{Singular}}(t),
  ),
  'PUT /{{plural}}/:{{singularCamel}}Id': {
    async check(t, caller) {
      const path = {{singularCamel}}Path();
      const res = await send(t, 'PUT', path, caller).send({ name: 'Patrons' });
      if (caller === 'anonymous') expectUnauthorized(res, path);
      else if (atLeast(caller, 'editor')) expectStatus(res, 200);
      else forbidden(res, path, 'editor', caller);
    },
  },
  'DELETE /{{plural}}/:{{singularCamel}}Id': {
    async check(t, caller) {
      const path = await store{{Singular}}(t);
      const res = await send(t, 'DELETE', path, caller);
      if (caller === 'anonymous') expectUnauthorized(res, path);
      else if (atLeast(caller, 'editor')) expectStatus(res, 204);
      else forbidden(res, path, 'editor', caller);
      const after = await request(t.baseUrl).get(path).set('Authorization', AUTH);
      expectStatus(after, atLeast(caller, 'editor') ? 404 : 200);
    },
  },
  'ALL /{{plural}}/:{{singularCamel}}Id': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'POST',
    () => {{singularCamel}}Path(),
  ),
  'ALL /{{plural}}/*rest': authenticated(
    everyRole((res, path) => expectProblem(res, 404, path)),
    'GET',
    () => `${{{singularCamel}}Path()}/more`,
  ),
};

export default rows;
