import request from 'supertest';
import { AUTH } from '../helpers/test-app.js';

/**
 * The tickets API as other features' tests call it (a sale against an event's seats, a check-in
 * during an outage): each call with the admin's credentials unless told, answered as supertest
 * answers. Its paths too, for a client of another kind (fetch, a browser, another process).
 */

/** Where a purchase is POSTed. */
export const TICKETS_PATH = '/tickets';

/** A ticket. */
export const ticketPath = (ticketId: string): string => `${TICKETS_PATH}/${ticketId}`;

/** A ticket's QR code (a PNG of its confirmation code). */
export const ticketCodePath = (ticketId: string): string => `${ticketPath(ticketId)}/qr`;

/** A ticket's check-in by its id. */
export const checkInPath = (ticketId: string): string => `${ticketPath(ticketId)}/check-in`;

/** The check-in by id as the request log names its route. */
export const CHECK_IN_ROUTE = checkInPath(':ticketId');

/** POST a purchase. */
export const buyTicket = (baseUrl: string, body: object, auth = AUTH) =>
  request(baseUrl).post(TICKETS_PATH).set('Authorization', auth).send(body);

/** GET a ticket. */
export const readTicket = (baseUrl: string, ticketId: string, auth = AUTH) =>
  request(baseUrl).get(ticketPath(ticketId)).set('Authorization', auth);

/** GET a ticket's QR code (supertest does not buffer a PNG: the caller chooses how to read it). */
export const readTicketCode = (baseUrl: string, ticketId: string, auth = AUTH) =>
  request(baseUrl).get(ticketCodePath(ticketId)).set('Authorization', auth);

/** Check a ticket in by its id. */
export const checkInTicket = (baseUrl: string, ticketId: string, auth = AUTH) =>
  request(baseUrl).post(checkInPath(ticketId)).set('Authorization', auth);

/** A ticket's cancellation. */
export const cancelPath = (ticketId: string): string => `${ticketPath(ticketId)}/cancel`;

/** Cancel a ticket (its seat or admission given back). */
export const cancelTicket = (baseUrl: string, ticketId: string, auth = AUTH) =>
  request(baseUrl).post(cancelPath(ticketId)).set('Authorization', auth);
