import request from 'supertest';
import { AUTH } from '../helpers/test-app.js';

/**
 * The admission-prices API as other features' tests call it (a general ticket bought in a
 * category): each call with the admin's credentials unless told, answered as supertest answers.
 */

/** General admission's price categories: read and put as one list. */
export const ADMISSION_PRICES_PATH = '/admission-prices';

/** GET the categories. */
export const readAdmissionPrices = (baseUrl: string, auth = AUTH) =>
  request(baseUrl).get(ADMISSION_PRICES_PATH).set('Authorization', auth);

/** PUT the categories (the list itself is the body). */
export const setAdmissionPrices = (baseUrl: string, prices: unknown, auth = AUTH) =>
  request(baseUrl)
    .put(ADMISSION_PRICES_PATH)
    .set('Authorization', auth)
    .send(prices as object);

/** A list of two categories. */
export const FAMILY_PRICES = [
  { category: 'adult', price: 15 },
  { category: 'child', price: 5.5 },
];
