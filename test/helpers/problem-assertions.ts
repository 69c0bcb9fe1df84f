import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Response } from 'supertest';
import { expect } from 'vitest';

/** The Basic challenge every 401 carries (docs/api.md, Authentication). */
export const CHALLENGE = 'Basic realm="museum", charset="UTF-8"';

/** The members of every problem; validation problems add `errors`. */
export const PROBLEM_KEYS = ['detail', 'instance', 'status', 'title', 'type'];

/** What must never reach a client: driver/SQL text, stack frames, internal paths. */
export const LEAK =
  /SQLITE|QueryFailed|ER_[A-Z_]+|constraint|SELECT |INSERT INTO|DELETE FROM|node_modules|\/work\/|\bat .+:\d+:\d+/i;

export type Body = Record<string, unknown>;

/** The status, with the body shown in the failure message when it is not the expected one. */
export function expectStatus(res: Response, status: number): void {
  expect({ status: res.status, body: res.text }).toEqual({ status, body: expect.any(String) as unknown });
}

/**
 * An RFC 9457 problem: `application/problem+json`, exactly the members type, title, status,
 * detail, instance (plus `errors` when `withErrors`), status equal to the HTTP status, title the
 * reason phrase, instance the path without query, and nothing internal in the text.
 */
export function expectProblem(res: Response, status: number, instance: string, withErrors = false): Body {
  expectStatus(res, status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json(;|$)/);
  const body = res.body as Body;
  expect(Object.keys(body).sort()).toEqual(withErrors ? [...PROBLEM_KEYS, 'errors'].sort() : PROBLEM_KEYS);
  expect(body.status).toBe(status);
  expect(body.title).toBe(STATUS_CODES[status]);
  expect(body.type).toEqual(expect.any(String));
  expect((body.type as string).length).toBeGreaterThan(0);
  expect(body.detail).toEqual(expect.any(String));
  expect((body.detail as string).length).toBeGreaterThan(0);
  expect(body.instance).toBe(instance);
  expect(res.text).not.toMatch(LEAK);
  return body;
}

/** The 401 of the service: problem details plus the Basic challenge. */
export function expectUnauthorized(res: Response, instance: string): Body {
  const body = expectProblem(res, 401, instance);
  expect(res.headers['www-authenticate']).toBe(CHALLENGE);
  return body;
}

/** A valid create body with a fresh eventId. */
export function validEvent(overrides: Body = {}): Body {
  return {
    eventId: randomUUID(),
    name: 'Night at the museum',
    location: 'Hall 1 🦕',
    eventDescription: 'Torches and dinosaurs.',
    dates: ['2026-12-01', '2026-12-02'],
    price: 12.5,
    ...overrides,
  };
}
