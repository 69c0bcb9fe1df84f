import {
  type Case,
  type ContractCases,
  type Exchange,
  exhaustFailures,
  HUGE_HEADER,
  JSON_TYPE,
  type Method,
  send,
  viewer,
} from '../helpers/contract.js';
import { AUTH, type TestApp } from '../helpers/test-app.js';
import { ADMISSION_PRICES_PATH, FAMILY_PRICES } from './api.js';

/** The admission prices' operations in the contract table (test/openapi-contract.e2e-spec.ts). */

const PATH = ADMISSION_PRICES_PATH;

const read = (t: TestApp, headers: Record<string, string> = {}): Promise<Exchange> =>
  send(t, 'get', PATH, { headers: { Authorization: AUTH, ...headers } });
const put = (t: TestApp, body: string, headers: Record<string, string> = {}): Promise<Exchange> =>
  send(t, 'put', PATH, { headers: { Authorization: AUTH, 'Content-Type': JSON_TYPE, ...headers }, body });
const putFamily = (t: TestApp, headers: Record<string, string> = {}): Promise<Exchange> =>
  put(t, JSON.stringify(FAMILY_PRICES), headers);

/** The statuses both operations share: 401, 429, 431, 503 (and 403 for the write). */
function commonCases(
  method: Method,
  request: (t: TestApp, headers?: Record<string, string>) => Promise<Exchange>,
  writes: boolean,
): Case[] {
  const cases: Case[] = [
    {
      app: 'main',
      method,
      path: PATH,
      status: 401,
      what: 'no credentials',
      send: (t) => request(t, { Authorization: '' }),
    },
    { app: 'main', method, path: PATH, status: 431, what: 'headers over 16 KiB', send: (t) => request(t, HUGE_HEADER) },
    {
      app: 'failure-limit-2',
      method,
      path: PATH,
      status: 429,
      what: 'valid credentials after too many failures',
      send: async (t) => {
        await exhaustFailures(t);
        return request(t);
      },
    },
    { app: 'database-destroyed', method, path: PATH, status: 503, what: 'the database gone', send: (t) => request(t) },
  ];
  if (writes) {
    cases.push({
      app: 'main',
      method,
      path: PATH,
      status: 403,
      what: 'a viewer',
      send: async (t) => request(t, { Authorization: await viewer(t) }),
    });
  }
  return cases;
}

const contract: ContractCases = {
  cases: [
    {
      app: 'main',
      method: 'get',
      path: PATH,
      status: 200,
      what: 'two categories',
      send: async (t) => {
        await putFamily(t);
        return read(t);
      },
    },
    ...commonCases('get', read, false),
    { app: 'main', method: 'put', path: PATH, status: 200, what: 'two categories', send: (t) => putFamily(t) },
    {
      app: 'main',
      method: 'put',
      path: PATH,
      status: 400,
      what: 'a category given twice',
      send: (t) => put(t, JSON.stringify([...FAMILY_PRICES, FAMILY_PRICES[0]])),
    },
    {
      app: 'main',
      method: 'put',
      path: PATH,
      status: 413,
      what: 'a body over 256 KiB',
      send: (t) => put(t, JSON.stringify([{ category: 'x'.repeat(300 * 1024), price: 1 }])),
    },
    {
      app: 'main',
      method: 'put',
      path: PATH,
      status: 415,
      what: 'a body that is not JSON',
      send: (t) => put(t, 'adult=15', { 'Content-Type': 'text/plain' }),
    },
    ...commonCases('put', (t, headers = {}) => putFamily(t, headers), true),
  ],
  complete: [
    [PATH, 'get'],
    [PATH, 'put'],
  ],
};

export default contract;
