import { expect } from 'vitest';
import { expectProblem, expectStatus, expectUnauthorized } from '../helpers/problem-assertions.js';
import { atLeast, authenticated, everyRole, forbidden, type RoleRows, send } from '../helpers/roles.js';
import { ADMISSION_PRICES_PATH, readAdmissionPrices } from './api.js';

/** Who may call the admission prices' routes (test/roles.e2e-spec.ts): viewers read, editors and admins write. */
const rows: RoleRows = {
  'GET /admission-prices': authenticated(
    everyRole((res) => expectStatus(res, 200)),
    'GET',
    () => ADMISSION_PRICES_PATH,
  ),
  'PUT /admission-prices': {
    async check(t, caller) {
      const list = [{ category: `by ${caller}`, price: 3 }];
      const res = await send(t, 'PUT', ADMISSION_PRICES_PATH, caller).send(list);
      if (caller === 'anonymous') expectUnauthorized(res, ADMISSION_PRICES_PATH);
      else if (atLeast(caller, 'editor')) expectStatus(res, 200);
      else forbidden(res, ADMISSION_PRICES_PATH, 'editor', caller);
      const stored = (await readAdmissionPrices(t.baseUrl)).body as { category: string }[];
      expect(stored.some((entry) => entry.category === `by ${caller}`)).toBe(atLeast(caller, 'editor'));
    },
  },
  'ALL /admission-prices': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'POST',
    () => ADMISSION_PRICES_PATH,
  ),
  'ALL /admission-prices/*rest': authenticated(
    everyRole((res, path) => expectProblem(res, 404, path)),
    'GET',
    () => `${ADMISSION_PRICES_PATH}/adult`,
  ),
};

export default rows;
