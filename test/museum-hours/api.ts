import request from 'supertest';
import { AUTH } from '../helpers/test-app.js';

/**
 * The museum hours API as other features' tests call it (tickets sold against a day's hours): each
 * call with the admin's credentials unless told, answered as supertest answers. Its paths too, for
 * a client of another kind (fetch, an anonymous read, another process).
 */

/** The open days from a date on (`startDate`, `page`, `limit`; none: from today). */
export const hoursPath = (query: Record<string, string | number> = {}): string => {
  const search = new URLSearchParams(
    Object.entries(query).map(([name, value]): [string, string] => [name, String(value)]),
  ).toString();
  return `/museum-hours${search === '' ? '' : `?${search}`}`;
};

/** The regular week. */
export const WEEKLY_HOURS_PATH = '/museum-hours/weekly';

/** One date's exception. */
export const hoursOnPath = (date: string): string => `/museum-hours/${date}`;

/** GET the open days (see hoursPath). */
export const readHours = (baseUrl: string, query: Record<string, string | number> = {}, auth = AUTH) =>
  request(baseUrl).get(hoursPath(query)).set('Authorization', auth);

/** PUT the regular week. */
export const setWeeklyHours = (baseUrl: string, week: object, auth = AUTH) =>
  request(baseUrl).put(WEEKLY_HOURS_PATH).set('Authorization', auth).send(week);

/** PUT one date's exception: its hours (and capacity), or `{ closed: true }`. */
export const setHoursOn = (baseUrl: string, date: string, hours: object, auth = AUTH) =>
  request(baseUrl).put(hoursOnPath(date)).set('Authorization', auth).send(hours);

/** A week open every day, 09:00 to 18:00, with no capacity. */
export const OPEN_EVERY_DAY = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => [
    day,
    { timeOpen: '09:00', timeClose: '18:00' },
  ]),
);
