import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { expectStatus } from '../helpers/problem-assertions.js';
import { AUTH, type TestApp } from '../helpers/test-app.js';
import { setHoursOn } from '../museum-hours/api.js';
import { MuseumClock } from '../../src/domain/museum-clock.js';

/**
 * The orders API as tests call it: each call with the admin's credentials unless told, answered as
 * supertest answers. Its paths too, for a client of another kind.
 */

/** Where an order is POSTed. */
export const ORDERS_PATH = '/orders';

/** The path of one order. */
export const orderPath = (orderId: string = randomUUID()): string => `${ORDERS_PATH}/${orderId}`;

/** An order's cancellation. */
export const orderCancelPath = (orderId: string = randomUUID()): string => `${orderPath(orderId)}/cancel`;

/** POST an order. */
export const placeOrder = (baseUrl: string, body: object, auth = AUTH) =>
  request(baseUrl).post(ORDERS_PATH).set('Authorization', auth).send(body);

/** GET an order. */
export const readOrder = (baseUrl: string, orderId: string, auth = AUTH) =>
  request(baseUrl).get(orderPath(orderId)).set('Authorization', auth);

/** Cancel an order. */
export const cancelOrder = (baseUrl: string, orderId: string, auth = AUTH) =>
  request(baseUrl).post(orderCancelPath(orderId)).set('Authorization', auth);

/**
 * The date 40 days (and `later` more) after the app's museum day: within the days tickets are sold
 * for, whatever its clock.
 */
export function orderDate(t: TestApp, later = 0): string {
  const today = t.app.get(MuseumClock).today();
  return new Date(Date.parse(`${today}T00:00:00Z`) + (40 + later) * 86_400_000).toISOString().slice(0, 10);
}

/** Opens orderDate(t) and places an order of two general tickets for it as the admin: its path. */
export async function placeGeneralOrder(t: TestApp): Promise<string> {
  const date = orderDate(t);
  expectStatus(await setHoursOn(t.baseUrl, date, { timeOpen: '09:00', timeClose: '18:00' }), 200);
  const res = await placeOrder(t.baseUrl, {
    email: 'family@example.com',
    lines: [{ ticketType: 'general', ticketDate: date, quantity: 2 }],
  });
  expectStatus(res, 201);
  return orderPath(res.body.orderId as string);
}
