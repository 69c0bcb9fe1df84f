/**
 * A typed client of the Museum Special Events service, for frontend (and backend) teams:
 * openapi-fetch over the types openapi-typescript generates from the service's OpenAPI document
 * (`schema.d.ts`, regenerated with `npm run client:generate`, never edited by hand).
 *
 *   const museum = createMuseumClient('https://events.example.org', { username, password });
 *   const { data, error, response } = await museum.POST('/special-events', { body: event });
 */
import createClient, { type Client } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';

export type { components, operations, paths };
/** The body of POST /special-events. */
export type NewSpecialEvent = components['schemas']['CreateSpecialEventDto'];
/** The body of PATCH /special-events/{eventId}: the fields to change. */
export type SpecialEventPatch = components['schemas']['UpdateSpecialEventDto'];
/** An event as the service stored it. */
export type SpecialEvent = components['schemas']['SpecialEventResponse'];
/** A webhook subscription as listed (never its secret), and as created (with it, once). */
export type WebhookSubscription = components['schemas']['WebhookResponse'];
export type CreatedWebhookSubscription = components['schemas']['CreatedWebhookResponse'];
/** One open day of GET /museum-hours (ticketsAvailable on a day with a capacity). */
export type MuseumDailyHours = components['schemas']['MuseumDailyHoursResponse'];
/** The regular week: the body of PUT /museum-hours/weekly and the answer of both weekly operations. */
export type WeeklyHours = components['schemas']['WeeklyHoursDto'];
/** The body of PUT /museum-hours/{date}, and its answer. */
export type HoursException = components['schemas']['HoursExceptionDto'];
export type StoredHoursException = components['schemas']['HoursExceptionResponse'];
/** The body of POST /tickets (buyMuseumTickets), its confirmation, and a ticket as GET and check-ins return it. */
export type TicketPurchase = components['schemas']['BuyTicketsDto'];
export type TicketConfirmation = components['schemas']['TicketConfirmationResponse'];
export type Ticket = components['schemas']['TicketResponse'];
/** A date item's tickets (GET /special-events/{eventId}/attendance), and a day's (GET /museum-hours/{date}/attendance). */
export type DateAttendance = components['schemas']['DateAttendanceResponse'];
export type DayAttendance = components['schemas']['DayAttendanceResponse'];
/** An RFC 9457 problem, the body of every error response. */
export type Problem = components['schemas']['ProblemDetailsSchema'];
export type MuseumClient = Client<paths>;

export interface Credentials {
  readonly username: string;
  readonly password: string;
}

/** `Basic base64(utf8(username:password))` (RFC 7617 with charset="UTF-8"), in browsers and Node. */
export function basicAuthorization({ username, password }: Credentials): string {
  if (username.includes(':')) throw new TypeError('A Basic user name cannot contain ":" (RFC 7617).');
  let binary = '';
  for (const byte of new TextEncoder().encode(`${username}:${password}`)) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}

/**
 * A client for the service at `baseUrl` (e.g. `https://events.example.org`, no trailing path),
 * sending the Basic credentials with every request. Paths, parameters, bodies and responses
 * (including the problem details of each error status) are typed from the OpenAPI document.
 */
export function createMuseumClient(baseUrl: string, credentials: Credentials): MuseumClient {
  return createClient<paths>({ baseUrl, headers: { Authorization: basicAuthorization(credentials) } });
}
