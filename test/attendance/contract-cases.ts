import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import {
  type Case,
  type ContractCases,
  created,
  type Exchange,
  exhaustFailures,
  HUGE_HEADER,
  send,
  viewer,
} from '../helpers/contract.js';
import { AUTH, type TestApp } from '../helpers/test-app.js';
import { dayAttendancePath, eventAttendancePath } from './api.js';

/** The attendance operations in the contract table (test/openapi-contract.e2e-spec.ts). */

const EVENT = '/special-events/{eventId}/attendance';
const DAY = '/museum-hours/{date}/attendance';

const get = (t: TestApp, path: string, headers: Record<string, string> = {}): Promise<Exchange> =>
  send(t, 'get', path, { headers: { Authorization: AUTH, ...headers } });

/** 401, 429, 431 and 503 of a read at `path`. */
function commonCases(documented: string, path: (t: TestApp) => Promise<string> | string): Case[] {
  return [
    {
      app: 'main',
      method: 'get',
      path: documented,
      status: 401,
      what: 'no credentials',
      send: async (t) => send(t, 'get', await path(t)),
    },
    {
      app: 'main',
      method: 'get',
      path: documented,
      status: 431,
      what: 'headers over 16 KiB',
      send: async (t) => get(t, await path(t), HUGE_HEADER),
    },
    {
      app: 'failure-limit-2',
      method: 'get',
      path: documented,
      status: 429,
      what: 'valid credentials after too many failures',
      send: async (t) => {
        await exhaustFailures(t);
        return get(t, await path(t));
      },
    },
    {
      app: 'database-destroyed',
      method: 'get',
      path: documented,
      status: 503,
      what: 'the database gone',
      send: async (t) => get(t, await path(t)),
    },
  ];
}

let days = 0;
/** A date of its own for each case that sets hours. */
function caseDate(): string {
  days++;
  return new Date(Date.UTC(2091, 0, days)).toISOString().slice(0, 10);
}

const contract: ContractCases = {
  cases: [
    // GET /special-events/{eventId}/attendance (getSpecialEventAttendance)
    {
      app: 'main',
      method: 'get',
      path: EVENT,
      status: 200,
      what: "an event's dates, as a viewer",
      send: async (t) => get(t, eventAttendancePath(await created(t)), { Authorization: await viewer(t) }),
    },
    {
      app: 'main',
      method: 'get',
      path: EVENT,
      status: 400,
      what: 'not a UUID',
      send: (t) => get(t, eventAttendancePath('not-a-uuid')),
    },
    {
      app: 'main',
      method: 'get',
      path: EVENT,
      status: 404,
      what: 'no such event',
      send: (t) => get(t, eventAttendancePath(randomUUID())),
    },
    ...commonCases(EVENT, () => eventAttendancePath(randomUUID())),

    // GET /museum-hours/{date}/attendance (getMuseumAttendance)
    {
      app: 'main',
      method: 'get',
      path: DAY,
      status: 200,
      what: 'a day with slots',
      send: async (t) => {
        const date = caseDate();
        const hours = { timeOpen: '10:00', timeClose: '12:00', slotMinutes: 30, slotCapacity: 20 };
        const put = await send(t, 'put', `/museum-hours/${date}`, {
          headers: { Authorization: AUTH, 'Content-Type': 'application/json' },
          body: JSON.stringify(hours),
        });
        expect(put.status).toBe(200);
        return get(t, dayAttendancePath(date));
      },
    },
    {
      app: 'main',
      method: 'get',
      path: DAY,
      status: 200,
      what: 'a day without hours or tickets, as a viewer',
      send: async (t) => get(t, dayAttendancePath(caseDate()), { Authorization: await viewer(t) }),
    },
    {
      app: 'main',
      method: 'get',
      path: DAY,
      status: 400,
      what: 'not a date',
      send: (t) => get(t, dayAttendancePath('2091-02-30')),
    },
    ...commonCases(DAY, () => dayAttendancePath('2091-01-01')),
  ],
  complete: [
    [EVENT, 'get'],
    [DAY, 'get'],
  ],
  documentChecks: {
    'the attendance operations have ids of their own and answer lists': ({ doc }) => {
      expect(doc.paths[EVENT].get.operationId).toBe('getSpecialEventAttendance');
      expect(doc.paths[DAY].get.operationId).toBe('getMuseumAttendance');
      for (const path of [EVENT, DAY]) {
        expect(doc.paths[path].get.responses['200'].content?.['application/json'].schema).toMatchObject({
          type: 'array',
        });
      }
    },
  },
};

export default contract;
