import request, { type Response } from 'supertest';
import { DataSource } from 'typeorm';
import { expect } from 'vitest';
import { expectStatus, expectUnauthorized, expectProblem, validEvent } from './problem-assertions.js';
import { AUTH, basicHeader, type TestApp } from './test-app.js';

/**
 * The kit of the roles table (test/roles.e2e-spec.ts): the callers, how a route's row checks
 * what each gets, and the answers rows share. Each feature's rows sit in its own test folder, in
 * `role-rows.ts`, whose default export is a RoleRows; the table collects them all.
 */

export const VIEWER = { user: 'kiosk', password: 'kiosk-password-1234' };
const VIEWER_AUTH = basicHeader(VIEWER.user, VIEWER.password);
export const BOX_OFFICE = { user: 'door', password: 'door-password-12345' };
export const EDITOR = { user: 'curator', password: 'curator-password-1234' };

/** The bootstrap user (TEST_USER, from ADMIN_USERNAME) is the admin. */
export type Caller = 'anonymous' | 'viewer' | 'box-office' | 'editor' | 'admin';
export const CALLERS = ['anonymous', 'viewer', 'box-office', 'editor', 'admin'] as const;
export const AUTHORIZATION: Record<Caller, string | undefined> = {
  anonymous: undefined,
  viewer: VIEWER_AUTH,
  'box-office': basicHeader(BOX_OFFICE.user, BOX_OFFICE.password),
  editor: basicHeader(EDITOR.user, EDITOR.password),
  admin: AUTH,
};

/** True when `caller` holds at least `role`. */
export const atLeast = (caller: Caller, role: Exclude<Caller, 'anonymous'>): boolean =>
  CALLERS.indexOf(caller) >= CALLERS.indexOf(role);

export interface RouteCase {
  /** Sends the route's request as `caller` (setting up what it needs first) and checks the answer. */
  readonly check: (t: TestApp, caller: Caller) => Promise<void>;
}

/** Each registered route (`METHOD path` as Express holds it) and what each caller gets there. */
export type RoleRows = Readonly<Record<string, RouteCase>>;

export function send(t: TestApp, method: string, path: string, caller: Caller): request.Test {
  const req = request(t.baseUrl)[method.toLowerCase() as 'get'](path);
  const authorization = AUTHORIZATION[caller];
  return authorization === undefined ? req : req.set('Authorization', authorization);
}

export async function createEvent(t: TestApp): Promise<string> {
  const event = validEvent();
  expectStatus(await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(event), 201);
  return event.eventId as string;
}

export async function eventExists(t: TestApp, eventId: string): Promise<boolean> {
  const rows = (await t.app
    .get(DataSource)
    .query('SELECT event_id FROM special_events WHERE event_id = ?', [eventId])) as unknown[];
  return rows.length === 1;
}

/** 401 for anyone without credentials; then each role as given. */
export function authenticated(
  answers: Record<Exclude<Caller, 'anonymous'>, (res: Response, path: string) => void>,
  method: string,
  makePath: (t: TestApp) => Promise<string> | string,
): RouteCase {
  return {
    async check(t, caller) {
      const path = await makePath(t);
      const res = await send(t, method, path, caller);
      if (caller === 'anonymous') expectUnauthorized(res, path.split('?')[0]);
      else answers[caller](res, path);
    },
  };
}

export const forbidden = (res: Response, path: string, needed = 'editor', held: string = 'viewer'): void => {
  const problem = expectProblem(res, 403, path);
  expect(problem.detail).toBe(`This operation needs the ${needed} role; your role is ${held}.`);
};

/** The same answer for every authenticated caller. */
export const everyRole = (answer: (res: Response, path: string) => void) => ({
  viewer: answer,
  'box-office': answer,
  editor: answer,
  admin: answer,
});

/** Only an admin gets `success`; a viewer and an editor are told the admin role is needed. */
export const adminOnly = (success: (res: Response, path: string) => void) => ({
  viewer: (res: Response, path: string) => forbidden(res, path, 'admin', 'viewer'),
  'box-office': (res: Response, path: string) => forbidden(res, path, 'admin', 'box-office'),
  editor: (res: Response, path: string) => forbidden(res, path, 'admin', 'editor'),
  admin: success,
});

/** A viewer is told box office is needed; box office and above get `success`. */
export const boxOfficeUp = (success: (res: Response, path: string) => void) => ({
  viewer: (res: Response, path: string) => forbidden(res, path, 'box-office', 'viewer'),
  'box-office': success,
  editor: success,
  admin: success,
});

/** A 200 with a file of the door page, of the given media type. */
export const expectPage =
  (type: string) =>
  (res: Response): void => {
    expect({ status: res.status, type: res.headers['content-type'] }).toEqual({
      status: 200,
      type: `${type}; charset=utf-8`,
    });
  };

/** Anyone, with or without credentials, gets `status`. */
export function open(method: string, path: string, status: number): RouteCase {
  return {
    async check(t, caller) {
      expectStatus(await send(t, method, path, caller), status);
    },
  };
}
