import { expect } from 'vitest';
import { expectProblem, expectStatus, expectUnauthorized } from '../helpers/problem-assertions.js';
import { atLeast, authenticated, everyRole, forbidden, type RoleRows, send } from '../helpers/roles.js';
import { orderCancelPath, orderDate, orderPath, ORDERS_PATH, placeGeneralOrder } from './api.js';

/**
 * Who may call the orders' routes (test/roles.e2e-spec.ts): every role reads an order (codes and
 * emails for box-office and up), the box office and up place and cancel one.
 */
const rows: RoleRows = {
  'POST /orders': {
    async check(t, caller) {
      const body = {
        email: 'a@example.com',
        lines: [{ ticketType: 'general', ticketDate: orderDate(t), quantity: 1 }],
      };
      await placeGeneralOrder(t);
      const res = await send(t, 'POST', ORDERS_PATH, caller).send(body);
      if (caller === 'anonymous') expectUnauthorized(res, ORDERS_PATH);
      else if (atLeast(caller, 'box-office')) expectStatus(res, 201);
      else forbidden(res, ORDERS_PATH, 'box-office', caller);
    },
  },
  // The codes admit their holders: a viewer reads an order without them, nor the buyer's email.
  'GET /orders/:orderId': {
    async check(t, caller) {
      const path = await placeGeneralOrder(t);
      const res = await send(t, 'GET', path, caller);
      if (caller === 'anonymous') return void expectUnauthorized(res, path);
      expectStatus(res, 200);
      const secrets = atLeast(caller, 'box-office');
      expect('email' in res.body).toBe(secrets);
      for (const ticket of res.body.tickets as Record<string, unknown>[]) {
        expect('confirmationCode' in ticket).toBe(secrets);
        expect('email' in ticket).toBe(secrets);
      }
    },
  },
  'POST /orders/:orderId/cancel': {
    async check(t, caller) {
      const path = `${await placeGeneralOrder(t)}/cancel`;
      const res = await send(t, 'POST', path, caller);
      if (caller === 'anonymous') expectUnauthorized(res, path);
      else if (atLeast(caller, 'box-office')) expectStatus(res, 200);
      else forbidden(res, path, 'box-office', caller);
    },
  },
  'ALL /orders': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'GET',
    () => ORDERS_PATH,
  ),
  'ALL /orders/:orderId': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'DELETE',
    () => orderPath(),
  ),
  'ALL /orders/:orderId/cancel': authenticated(
    everyRole((res, path) => expectProblem(res, 405, path)),
    'GET',
    () => orderCancelPath(),
  ),
  'ALL /orders/*rest': authenticated(
    everyRole((res, path) => expectProblem(res, 404, path)),
    'GET',
    () => `${orderPath()}/more`,
  ),
};

export default rows;
