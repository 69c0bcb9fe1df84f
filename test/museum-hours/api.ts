import request from 'supertest';
import { AUTH } from '../helpers/test-app.js';

/**
 * The museum hours API as other features' tests call it (tickets sold against a day's hours): each
 * write with the admin's credentials unless told, answered as supertest answers.
 */

/** PUT the regular week. */
export const setWeeklyHours = (baseUrl: string, week: object, auth = AUTH) =>
  request(baseUrl).put('/museum-hours/weekly').set('Authorization', auth).send(week);

/** PUT one date's exception: its hours (and capacity), or `{ closed: true }`. */
export const setHoursOn = (baseUrl: string, date: string, hours: object, auth = AUTH) =>
  request(baseUrl).put(`/museum-hours/${date}`).set('Authorization', auth).send(hours);

/** A week open every day, 09:00 to 18:00, with no capacity. */
export const OPEN_EVERY_DAY = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => [
    day,
    { timeOpen: '09:00', timeClose: '18:00' },
  ]),
);
