import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { AUTH, type TestApp } from '../helpers/test-app.js';
import {
  type ContractCases,
  created,
  type Exchange,
  exhaustFailures,
  HUGE_HEADER,
  JSON_TYPE,
  send,
  viewer,
} from '../helpers/contract.js';

/** The calendar's operations in the contract table (test/openapi-contract.e2e-spec.ts). */

const CALENDAR = '/special-events.ics';
const TOKEN_FEED = '/calendar/{token}.ics';
const TOKENS = '/calendar-tokens';
const TOKEN_ITEM = '/calendar-tokens/{tokenId}';
/** A well-formed token that was never issued. */
const UNKNOWN_TOKEN_FEED = `/calendar/${'A'.repeat(43)}.ics`;

const postToken = (t: TestApp, body: string, headers: Record<string, string> = {}): Promise<Exchange> =>
  send(t, 'post', TOKENS, { headers: { Authorization: AUTH, 'Content-Type': JSON_TYPE, ...headers }, body });

const deleteToken = (t: TestApp, id: string, headers: Record<string, string> = {}): Promise<Exchange> =>
  send(t, 'delete', `${TOKENS}/${id}`, { headers: { Authorization: AUTH, ...headers } });

/** A new calendar token: its body as created. */
async function newToken(t: TestApp): Promise<{ tokenId: string; feedUrl: string }> {
  const res = await postToken(t, '{}');
  expect(res.status).toBe(201);
  return JSON.parse(res.text) as { tokenId: string; feedUrl: string };
}

const tokenId = async (t: TestApp): Promise<string> => (await newToken(t)).tokenId;
const tokenFeedPath = async (t: TestApp): Promise<string> => (await newToken(t)).feedUrl;

const contract: ContractCases = {
  cases: [
    {
      app: 'main',
      method: 'get',
      path: CALENDAR,
      status: 200,
      what: 'the feed',
      send: async (t) => {
        await created(t);
        return send(t, 'get', `${CALENDAR}?startDate=2023-09-01`, { headers: { Authorization: AUTH } });
      },
    },
    {
      app: 'main',
      method: 'get',
      path: CALENDAR,
      status: 304,
      what: 'If-None-Match with the current ETag',
      send: async (t) => {
        const first = await send(t, 'get', CALENDAR, { headers: { Authorization: AUTH } });
        return send(t, 'get', CALENDAR, {
          headers: { Authorization: AUTH, 'If-None-Match': first.headers.get('etag') ?? '' },
        });
      },
    },
    {
      app: 'main',
      method: 'get',
      path: CALENDAR,
      status: 400,
      what: 'endDate before startDate',
      send: (t) =>
        send(t, 'get', `${CALENDAR}?startDate=2023-09-02&endDate=2023-09-01`, { headers: { Authorization: AUTH } }),
    },
    {
      app: 'main',
      method: 'get',
      path: CALENDAR,
      status: 401,
      what: 'no credentials',
      send: (t) => send(t, 'get', CALENDAR),
    },
    {
      app: 'main',
      method: 'get',
      path: CALENDAR,
      status: 431,
      what: 'headers over 16 KiB',
      send: (t) => send(t, 'get', CALENDAR, { headers: { Authorization: AUTH, ...HUGE_HEADER } }),
    },
    {
      app: 'failure-limit-2',
      method: 'get',
      path: CALENDAR,
      status: 429,
      what: 'valid credentials after too many failures',
      send: async (t) => {
        await exhaustFailures(t);
        return send(t, 'get', CALENDAR, { headers: { Authorization: AUTH } });
      },
    },
    {
      app: 'database-destroyed',
      method: 'get',
      path: CALENDAR,
      status: 503,
      what: 'the database gone',
      send: (t) => send(t, 'get', CALENDAR, { headers: { Authorization: AUTH } }),
    },

    // GET /calendar/{token}.ics
    {
      app: 'main',
      method: 'get',
      path: TOKEN_FEED,
      status: 200,
      what: 'a valid token',
      send: async (t) => send(t, 'get', await tokenFeedPath(t)),
    },
    {
      app: 'main',
      method: 'get',
      path: TOKEN_FEED,
      status: 304,
      what: 'If-None-Match with the current ETag',
      send: async (t) => {
        const path = await tokenFeedPath(t);
        const first = await send(t, 'get', path);
        return send(t, 'get', path, { headers: { 'If-None-Match': first.headers.get('etag') ?? '' } });
      },
    },
    {
      app: 'main',
      method: 'get',
      path: TOKEN_FEED,
      status: 400,
      what: 'a valid token, an invalid startDate',
      send: async (t) => send(t, 'get', `${await tokenFeedPath(t)}?startDate=2023-02-30`),
    },
    {
      app: 'main',
      method: 'get',
      path: TOKEN_FEED,
      status: 404,
      what: 'an unknown token',
      send: (t) => send(t, 'get', UNKNOWN_TOKEN_FEED),
    },
    {
      app: 'main',
      method: 'get',
      path: TOKEN_FEED,
      status: 431,
      what: 'headers over 16 KiB',
      send: (t) => send(t, 'get', UNKNOWN_TOKEN_FEED, { headers: HUGE_HEADER }),
    },
    {
      app: 'database-destroyed',
      method: 'get',
      path: TOKEN_FEED,
      status: 503,
      what: 'the database gone',
      send: (t) => send(t, 'get', UNKNOWN_TOKEN_FEED),
    },

    // POST /calendar-tokens
    {
      app: 'main',
      method: 'post',
      path: TOKENS,
      status: 201,
      what: 'a description',
      send: (t) => postToken(t, '{"description":"Front desk"}'),
    },
    {
      app: 'main',
      method: 'post',
      path: TOKENS,
      status: 201,
      what: 'no description',
      send: (t) => postToken(t, '{}'),
    },
    {
      app: 'main',
      method: 'post',
      path: TOKENS,
      status: 400,
      what: 'a description over 200 characters and an unknown property',
      send: (t) => postToken(t, JSON.stringify({ description: 'x'.repeat(201), token: 'mine' })),
    },
    {
      app: 'main',
      method: 'post',
      path: TOKENS,
      status: 401,
      what: 'no credentials',
      send: (t) => send(t, 'post', TOKENS, { headers: { 'Content-Type': JSON_TYPE }, body: '{}' }),
    },
    {
      app: 'main',
      method: 'post',
      path: TOKENS,
      status: 403,
      what: 'a viewer',
      send: async (t) => postToken(t, '{}', { Authorization: await viewer(t) }),
    },
    {
      app: 'main',
      method: 'post',
      path: TOKENS,
      status: 413,
      what: 'a body over 256 KiB',
      send: (t) => postToken(t, JSON.stringify({ description: 'x'.repeat(300 * 1024) })),
    },
    {
      app: 'main',
      method: 'post',
      path: TOKENS,
      status: 415,
      what: 'text/plain',
      send: (t) => postToken(t, '{}', { 'Content-Type': 'text/plain' }),
    },
    {
      app: 'main',
      method: 'post',
      path: TOKENS,
      status: 431,
      what: 'headers over 16 KiB',
      send: (t) => postToken(t, '{}', HUGE_HEADER),
    },
    {
      app: 'failure-limit-2',
      method: 'post',
      path: TOKENS,
      status: 429,
      what: 'valid credentials after too many failures',
      send: async (t) => {
        await exhaustFailures(t);
        return postToken(t, '{}');
      },
    },
    {
      app: 'database-destroyed',
      method: 'post',
      path: TOKENS,
      status: 503,
      what: 'the database gone',
      send: (t) => postToken(t, '{}'),
    },

    // GET /calendar-tokens
    {
      app: 'main',
      method: 'get',
      path: TOKENS,
      status: 200,
      what: 'the tokens',
      send: async (t) => {
        await postToken(t, '{}');
        return send(t, 'get', TOKENS, { headers: { Authorization: AUTH } });
      },
    },
    {
      app: 'main',
      method: 'get',
      path: TOKENS,
      status: 401,
      what: 'no credentials',
      send: (t) => send(t, 'get', TOKENS),
    },
    {
      app: 'main',
      method: 'get',
      path: TOKENS,
      status: 403,
      what: 'a viewer',
      send: async (t) => send(t, 'get', TOKENS, { headers: { Authorization: await viewer(t) } }),
    },
    {
      app: 'main',
      method: 'get',
      path: TOKENS,
      status: 431,
      what: 'headers over 16 KiB',
      send: (t) => send(t, 'get', TOKENS, { headers: { Authorization: AUTH, ...HUGE_HEADER } }),
    },
    {
      app: 'failure-limit-2',
      method: 'get',
      path: TOKENS,
      status: 429,
      what: 'valid credentials after too many failures',
      send: async (t) => {
        await exhaustFailures(t);
        return send(t, 'get', TOKENS, { headers: { Authorization: AUTH } });
      },
    },
    {
      app: 'database-destroyed',
      method: 'get',
      path: TOKENS,
      status: 503,
      what: 'the database gone',
      send: (t) => send(t, 'get', TOKENS, { headers: { Authorization: AUTH } }),
    },

    // DELETE /calendar-tokens/{tokenId}
    {
      app: 'main',
      method: 'delete',
      path: TOKEN_ITEM,
      status: 204,
      what: 'a token',
      send: async (t) => deleteToken(t, await tokenId(t)),
    },
    {
      app: 'main',
      method: 'delete',
      path: TOKEN_ITEM,
      status: 400,
      what: 'not a UUID',
      send: (t) => deleteToken(t, 'not-a-uuid'),
    },
    {
      app: 'main',
      method: 'delete',
      path: TOKEN_ITEM,
      status: 401,
      what: 'no credentials',
      send: (t) => send(t, 'delete', `${TOKENS}/${randomUUID()}`),
    },
    {
      app: 'main',
      method: 'delete',
      path: TOKEN_ITEM,
      status: 403,
      what: 'a viewer',
      send: async (t) => deleteToken(t, await tokenId(t), { Authorization: await viewer(t) }),
    },
    {
      app: 'main',
      method: 'delete',
      path: TOKEN_ITEM,
      status: 404,
      what: 'an unknown token',
      send: (t) => deleteToken(t, randomUUID()),
    },
    {
      app: 'main',
      method: 'delete',
      path: TOKEN_ITEM,
      status: 431,
      what: 'headers over 16 KiB',
      send: (t) => deleteToken(t, randomUUID(), HUGE_HEADER),
    },
    {
      app: 'failure-limit-2',
      method: 'delete',
      path: TOKEN_ITEM,
      status: 429,
      what: 'valid credentials after too many failures',
      send: async (t) => {
        await exhaustFailures(t);
        return deleteToken(t, randomUUID());
      },
    },
    {
      app: 'database-destroyed',
      method: 'delete',
      path: TOKEN_ITEM,
      status: 503,
      what: 'the database gone',
      send: (t) => deleteToken(t, randomUUID()),
    },
  ],
  complete: [
    [CALENDAR, 'get'],
    [TOKEN_FEED, 'get'],
    [TOKENS, 'post'],
    [TOKENS, 'get'],
    [TOKEN_ITEM, 'delete'],
  ],
  documentChecks: {
    'the calendar operations carry their operation ids, and the feeds answer text/calendar': ({ doc }) => {
      expect({
        calendar: doc.paths[CALENDAR].get.operationId,
        feed: doc.paths[TOKEN_FEED].get.operationId,
        create: doc.paths[TOKENS].post.operationId,
        list: doc.paths[TOKENS].get.operationId,
        delete: doc.paths[TOKEN_ITEM].delete.operationId,
      }).toEqual({
        calendar: 'getSpecialEventsCalendar',
        feed: 'getCalendarFeed',
        create: 'createCalendarToken',
        list: 'listCalendarTokens',
        delete: 'deleteCalendarToken',
      });
      for (const path of [CALENDAR, TOKEN_FEED]) {
        expect(Object.keys(doc.paths[path].get.responses['200'].content ?? {})).toEqual(['text/calendar']);
        expect(doc.paths[path].get.responses['304'].headers?.ETag).toMatchObject({ required: true });
      }
      expect(doc.paths[TOKEN_FEED].get.parameters?.find((p) => p.in === 'path')).toMatchObject({
        name: 'token',
        required: true,
      });
    },
    'the token feed is public (security: []); the calendar and the tokens need credentials': ({ doc }) => {
      expect(doc.paths[TOKEN_FEED].get.security).toEqual([]);
      for (const operation of [doc.paths[CALENDAR].get, doc.paths[TOKENS].post, doc.paths[TOKENS].get])
        expect(operation.security).toBeUndefined();
    },
  },
};

export default contract;
