import { expect } from 'vitest';
import { MuseumHoursService } from '../../src/museum-hours/museum-hours.service.js';
import { AUTH, type TestApp } from '../helpers/test-app.js';
import {
  type Case,
  type ContractCases,
  type Exchange,
  exhaustFailures,
  HUGE_HEADER,
  type Json,
  JSON_TYPE,
  type Method,
  send,
  viewer,
} from '../helpers/contract.js';

/** The museum hours' operations in the contract table (test/openapi-contract.e2e-spec.ts). */

const HOURS = '/museum-hours';
const WEEKLY = '/museum-hours/weekly';
const HOURS_DATE = '/museum-hours/{date}';
const SLOTS = '/museum-hours/{date}/slots';
const WEEK = {
  monday: { timeOpen: '09:00', timeClose: '18:00', capacity: 100 },
  tuesday: { timeOpen: '09:00', timeClose: '18:00' },
  wednesday: null,
  thursday: null,
  friday: null,
  saturday: null,
  sunday: null,
};

let hoursDays = 0;
/** A date of its own for each museum-hours case that writes one. */
function hoursDate(): string {
  hoursDays++;
  return new Date(Date.UTC(2090, 0, hoursDays)).toISOString().slice(0, 10);
}

const putHours = (t: TestApp, path: string, body: string, headers: Record<string, string> = {}): Promise<Exchange> =>
  send(t, 'put', path, { headers: { Authorization: AUTH, 'Content-Type': JSON_TYPE, ...headers }, body });

/** The statuses every museum-hours operation shares: 401, 429, 431, 503 (and 403 for the writes). */
function museumHoursCommonCases(
  method: Method,
  path: string,
  request: (t: TestApp, headers?: Record<string, string>) => Promise<Exchange>,
  writes: boolean,
): Case[] {
  const cases: Case[] = [
    {
      app: 'main',
      method,
      path,
      status: 401,
      what: 'no credentials',
      send: (t) => request(t, { Authorization: '' }),
    },
    {
      app: 'main',
      method,
      path,
      status: 431,
      what: 'headers over 16 KiB',
      send: (t) => request(t, HUGE_HEADER),
    },
    {
      app: 'failure-limit-2',
      method,
      path,
      status: 429,
      what: 'valid credentials after too many failures',
      send: async (t) => {
        await exhaustFailures(t);
        return request(t);
      },
    },
    { app: 'database-destroyed', method, path, status: 503, what: 'the database gone', send: (t) => request(t) },
  ];
  if (writes) {
    cases.push({
      app: 'main',
      method,
      path,
      status: 403,
      what: 'a viewer',
      send: async (t) => request(t, { Authorization: await viewer(t) }),
    });
  }
  return cases;
}

const contract: ContractCases = {
  cases: [
    // GET /museum-hours (getMuseumHours)
    {
      app: 'main',
      method: 'get',
      path: HOURS,
      status: 200,
      what: 'open days, one with ticketsAvailable',
      send: async (t) => {
        await putHours(t, WEEKLY, JSON.stringify(WEEK));
        return send(t, 'get', `${HOURS}?startDate=2090-01-01&limit=30`, { headers: { Authorization: AUTH } });
      },
    },
    {
      app: 'main',
      method: 'get',
      path: HOURS,
      status: 400,
      what: 'a limit over 30',
      send: (t) => send(t, 'get', `${HOURS}?limit=31`, { headers: { Authorization: AUTH } }),
    },
    ...museumHoursCommonCases(
      'get',
      HOURS,
      (t, headers = {}) => send(t, 'get', HOURS, { headers: { Authorization: AUTH, ...headers } }),
      false,
    ),
    // GET /museum-hours/{date}/slots (getMuseumSlots)
    {
      app: 'main',
      method: 'get',
      path: SLOTS,
      status: 200,
      what: "a day's time slots",
      send: async (t) => {
        const date = hoursDate();
        const day = { timeOpen: '10:00', timeClose: '12:00', slotMinutes: 30, slotCapacity: 20 };
        await putHours(t, `/museum-hours/${date}`, JSON.stringify(day));
        return send(t, 'get', `/museum-hours/${date}/slots`, { headers: { Authorization: AUTH } });
      },
    },
    {
      app: 'main',
      method: 'get',
      path: SLOTS,
      status: 400,
      what: 'not a date',
      send: (t) => send(t, 'get', '/museum-hours/2090-02-30/slots', { headers: { Authorization: AUTH } }),
    },
    {
      app: 'main',
      method: 'get',
      path: SLOTS,
      status: 404,
      what: 'a closed day',
      send: async (t) => {
        const date = hoursDate();
        await putHours(t, `/museum-hours/${date}`, JSON.stringify({ closed: true }));
        return send(t, 'get', `/museum-hours/${date}/slots`, { headers: { Authorization: AUTH } });
      },
    },
    ...museumHoursCommonCases(
      'get',
      SLOTS,
      (t, headers = {}) =>
        send(t, 'get', '/museum-hours/2090-01-01/slots', { headers: { Authorization: AUTH, ...headers } }),
      false,
    ),
    // GET /museum-hours/weekly
    {
      app: 'main',
      method: 'get',
      path: WEEKLY,
      status: 200,
      what: 'the week',
      send: (t) => send(t, 'get', WEEKLY, { headers: { Authorization: AUTH } }),
    },
    ...museumHoursCommonCases(
      'get',
      WEEKLY,
      (t, headers = {}) => send(t, 'get', WEEKLY, { headers: { Authorization: AUTH, ...headers } }),
      false,
    ),
    // PUT /museum-hours/weekly
    {
      app: 'main',
      method: 'put',
      path: WEEKLY,
      status: 200,
      what: 'a week',
      send: (t) => putHours(t, WEEKLY, JSON.stringify(WEEK)),
    },
    {
      app: 'main',
      method: 'put',
      path: WEEKLY,
      status: 400,
      what: 'a day closing before it opens',
      send: (t) => putHours(t, WEEKLY, JSON.stringify({ ...WEEK, monday: { timeOpen: '18:00', timeClose: '09:00' } })),
    },
    {
      app: 'main',
      method: 'put',
      path: WEEKLY,
      status: 413,
      what: 'a body over 256 KiB',
      send: (t) => putHours(t, WEEKLY, JSON.stringify({ ...WEEK, padding: 'x'.repeat(300 * 1024) })),
    },
    {
      app: 'main',
      method: 'put',
      path: WEEKLY,
      status: 415,
      what: 'text/plain',
      send: (t) => putHours(t, WEEKLY, JSON.stringify(WEEK), { 'Content-Type': 'text/plain' }),
    },
    ...museumHoursCommonCases('put', WEEKLY, (t, headers) => putHours(t, WEEKLY, JSON.stringify(WEEK), headers), true),
    // PUT /museum-hours/{date}
    {
      app: 'main',
      method: 'put',
      path: HOURS_DATE,
      status: 200,
      what: 'hours of its own',
      send: (t) => putHours(t, `${HOURS}/${hoursDate()}`, '{"timeOpen":"10:00","timeClose":"14:00","capacity":20}'),
    },
    {
      app: 'main',
      method: 'put',
      path: HOURS_DATE,
      status: 200,
      what: 'closed',
      send: (t) => putHours(t, `${HOURS}/${hoursDate()}`, '{"closed":true}'),
    },
    {
      app: 'main',
      method: 'put',
      path: HOURS_DATE,
      status: 400,
      what: 'closed with hours',
      send: (t) => putHours(t, `${HOURS}/${hoursDate()}`, '{"closed":true,"timeOpen":"10:00"}'),
    },
    {
      app: 'main',
      method: 'put',
      path: HOURS_DATE,
      status: 409,
      what: 'closing a date with a ticket sold',
      send: async (t) => {
        const date = hoursDate();
        await putHours(t, `${HOURS}/${date}`, '{"timeOpen":"10:00","timeClose":"14:00"}');
        expect(await t.app.get(MuseumHoursService).admitGeneral(date, [])).toEqual({ outcome: 'admitted' });
        return putHours(t, `${HOURS}/${date}`, '{"closed":true}');
      },
    },
    {
      app: 'main',
      method: 'put',
      path: HOURS_DATE,
      status: 413,
      what: 'a body over 256 KiB',
      send: (t) =>
        putHours(t, `${HOURS}/${hoursDate()}`, JSON.stringify({ closed: true, note: 'x'.repeat(300 * 1024) })),
    },
    {
      app: 'main',
      method: 'put',
      path: HOURS_DATE,
      status: 415,
      what: 'text/plain',
      send: (t) => putHours(t, `${HOURS}/${hoursDate()}`, '{"closed":true}', { 'Content-Type': 'text/plain' }),
    },
    ...museumHoursCommonCases(
      'put',
      HOURS_DATE,
      (t, headers) => putHours(t, `${HOURS}/${hoursDate()}`, '{"closed":true}', headers),
      true,
    ),
    // DELETE /museum-hours/{date}
    {
      app: 'main',
      method: 'delete',
      path: HOURS_DATE,
      status: 204,
      what: 'an exception',
      send: async (t) => {
        const date = hoursDate();
        await putHours(t, `${HOURS}/${date}`, '{"closed":true}');
        return send(t, 'delete', `${HOURS}/${date}`, { headers: { Authorization: AUTH } });
      },
    },
    {
      app: 'main',
      method: 'delete',
      path: HOURS_DATE,
      status: 400,
      what: 'not a date',
      send: (t) => send(t, 'delete', `${HOURS}/2090-02-30`, { headers: { Authorization: AUTH } }),
    },
    {
      app: 'main',
      method: 'delete',
      path: HOURS_DATE,
      status: 404,
      what: 'no exception that date',
      send: (t) => send(t, 'delete', `${HOURS}/${hoursDate()}`, { headers: { Authorization: AUTH } }),
    },
    ...museumHoursCommonCases(
      'delete',
      HOURS_DATE,
      (t, headers = {}) =>
        send(t, 'delete', `${HOURS}/${hoursDate()}`, { headers: { Authorization: AUTH, ...headers } }),
      true,
    ),
  ],
  complete: [
    [HOURS, 'get'],
    [WEEKLY, 'get'],
    [WEEKLY, 'put'],
    [HOURS_DATE, 'put'],
    [HOURS_DATE, 'delete'],
  ],
  documentChecks: {
    "getMuseumHours keeps the Museum API's operation id, parameters and item shape; the writes have ids of their own":
      ({ doc, validate }) => {
        expect({
          list: doc.paths[HOURS].get.operationId,
          week: doc.paths[WEEKLY].get.operationId,
          setWeek: doc.paths[WEEKLY].put.operationId,
          setDate: doc.paths[HOURS_DATE].put.operationId,
          deleteDate: doc.paths[HOURS_DATE].delete.operationId,
        }).toEqual({
          list: 'getMuseumHours',
          week: 'getWeeklyMuseumHours',
          setWeek: 'setWeeklyMuseumHours',
          setDate: 'setMuseumHoursException',
          deleteDate: 'deleteMuseumHoursException',
        });
        const parameters = Object.fromEntries(
          (doc.paths[HOURS].get.parameters ?? []).map((p) => [`${p.in as string} ${p.name as string}`, p]),
        );
        expect(Object.keys(parameters).sort()).toEqual(['query limit', 'query page', 'query startDate']);
        expect(parameters['query startDate']).toMatchObject({
          required: false,
          schema: { type: 'string', format: 'date' },
        });
        expect(parameters['query page']).toMatchObject({ required: false, schema: { type: 'integer', default: 1 } });
        expect(parameters['query limit']).toMatchObject({
          required: false,
          schema: { type: 'integer', minimum: 1, maximum: 30, default: 10 },
        });
        const schema = doc.paths[HOURS].get.responses['200'].content?.[JSON_TYPE].schema as Json;
        // The Museum API's own example answer validates; so does an item with ticketsAvailable.
        expect(validate(schema, [{ date: '2023-09-11', timeOpen: '09:00', timeClose: '18:00' }])).toEqual([]);
        expect(
          validate(schema, [{ date: '2023-09-11', timeOpen: '09:00', timeClose: '18:00', ticketsAvailable: 3 }]),
        ).toEqual([]);
        expect(validate(schema, [{ date: '2023-09-11', timeOpen: '9 am', timeClose: '18:00' }])).not.toEqual([]);
      },
  },
};

export default contract;
