import { expectProblem } from '../helpers/problem-assertions.js';
import { authenticated, boxOfficeUp, everyRole, expectPage, type RoleRows } from '../helpers/roles.js';

/** Who may open the door scanner's page (test/roles.e2e-spec.ts). */

const rows: RoleRows = {
  // The door scanner page and its files (docs/door.md): box office and above, as check-in.
  'GET /door': authenticated(boxOfficeUp(expectPage('text/html')), 'GET', () => '/door'),
  'GET /door/:file': authenticated(boxOfficeUp(expectPage('text/javascript')), 'GET', () => '/door/door.js'),
  'ALL /door': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'POST',
    () => '/door',
  ),
  'ALL /door/:file': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'PUT',
    () => '/door/door.js',
  ),
  'ALL /door/*rest': authenticated(
    everyRole((res, path) => expectProblem(res, 404, path)),
    'GET',
    () => '/door/page/door.js',
  ),
};

export default rows;
