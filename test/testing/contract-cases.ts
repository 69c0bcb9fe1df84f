import { AUTH } from '../helpers/test-app.js';
import { type Case, type ContractCases, JSON_TYPE, type Method, send, viewer } from '../helpers/contract.js';

/**
 * Test mode's operations in the contract table (test/openapi-contract.e2e-spec.ts): they exist,
 * and are documented, only in the app the table starts with TEST_MODE=true ('test-mode').
 */

const CLOCK = '/testing/clock';
const ADVANCE = '/testing/clock/advance';
const RESET = '/testing/reset';

const json = (body: unknown): { headers: Record<string, string>; body: string } => ({
  headers: { Authorization: AUTH, 'Content-Type': JSON_TYPE },
  body: JSON.stringify(body),
});

/** 401 without credentials and 403 for a viewer: the routes are the admins'. */
function refusals(method: Method, path: string, body?: unknown): Case[] {
  const bodyless = body === undefined;
  return [
    {
      app: 'test-mode',
      method,
      path,
      status: 401,
      what: 'no credentials',
      send: (t) =>
        send(t, method, path, bodyless ? {} : { headers: { 'Content-Type': JSON_TYPE }, body: JSON.stringify(body) }),
    },
    {
      app: 'test-mode',
      method,
      path,
      status: 403,
      what: 'a viewer',
      send: async (t) => {
        const authorization = await viewer(t);
        return send(
          t,
          method,
          path,
          bodyless
            ? { headers: { Authorization: authorization } }
            : { headers: { Authorization: authorization, 'Content-Type': JSON_TYPE }, body: JSON.stringify(body) },
        );
      },
    },
  ];
}

const contract: ContractCases = {
  cases: [
    {
      app: 'test-mode',
      method: 'get',
      path: CLOCK,
      status: 200,
      what: 'the clock',
      send: (t) => send(t, 'get', CLOCK, { headers: { Authorization: AUTH } }),
    },
    ...refusals('get', CLOCK),
    {
      app: 'test-mode',
      method: 'put',
      path: CLOCK,
      status: 200,
      what: 'a Saturday, frozen',
      send: (t) => send(t, 'put', CLOCK, json({ now: '2027-03-13T10:00:00+01:00', frozen: true })),
    },
    {
      app: 'test-mode',
      method: 'put',
      path: CLOCK,
      status: 400,
      what: 'an instant without its offset',
      send: (t) => send(t, 'put', CLOCK, json({ now: '2027-03-13T10:00:00', frozen: true })),
    },
    {
      app: 'test-mode',
      method: 'put',
      path: CLOCK,
      status: 413,
      what: 'a body over 256 KiB',
      send: (t) =>
        send(t, 'put', CLOCK, json({ now: '2027-03-13T10:00:00Z', frozen: true, pad: 'x'.repeat(300 * 1024) })),
    },
    {
      app: 'test-mode',
      method: 'put',
      path: CLOCK,
      status: 415,
      what: 'text/plain',
      send: (t) => send(t, 'put', CLOCK, { headers: { Authorization: AUTH, 'Content-Type': 'text/plain' }, body: 'x' }),
    },
    ...refusals('put', CLOCK, { now: '2027-03-13T10:00:00Z', frozen: true }),
    {
      app: 'test-mode',
      method: 'post',
      path: ADVANCE,
      status: 200,
      what: 'a day forward',
      send: (t) => send(t, 'post', ADVANCE, json({ seconds: 86_400 })),
    },
    {
      app: 'test-mode',
      method: 'post',
      path: ADVANCE,
      status: 400,
      what: 'negative seconds',
      send: (t) => send(t, 'post', ADVANCE, json({ seconds: -1 })),
    },
    ...refusals('post', ADVANCE, { seconds: 1 }),
    {
      app: 'test-mode',
      method: 'delete',
      path: CLOCK,
      status: 204,
      what: 'real time again',
      send: (t) => send(t, 'delete', CLOCK, { headers: { Authorization: AUTH } }),
    },
    ...refusals('delete', CLOCK),
    {
      app: 'test-mode',
      method: 'post',
      path: RESET,
      status: 204,
      what: 'everything emptied',
      send: (t) => send(t, 'post', RESET, { headers: { Authorization: AUTH } }),
    },
    ...refusals('post', RESET),
  ],
};

export default contract;
