import request from 'supertest';
import { AUTH } from '../helpers/test-app.js';

/**
 * The tickets API as other features' tests call it (a sale against an event's seats, a check-in
 * during an outage): each call with the admin's credentials unless told, answered as supertest
 * answers.
 */

/** POST a purchase. */
export const buyTicket = (baseUrl: string, body: object, auth = AUTH) =>
  request(baseUrl).post('/tickets').set('Authorization', auth).send(body);

/** GET a ticket. */
export const readTicket = (baseUrl: string, ticketId: string, auth = AUTH) =>
  request(baseUrl).get(`/tickets/${ticketId}`).set('Authorization', auth);

/** Check a ticket in by its id. */
export const checkInTicket = (baseUrl: string, ticketId: string, auth = AUTH) =>
  request(baseUrl).post(`/tickets/${ticketId}/check-in`).set('Authorization', auth);
