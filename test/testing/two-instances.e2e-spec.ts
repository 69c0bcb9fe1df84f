import { describe, expect, it } from 'vitest';
import { type RunningService, useTwoTestModeInstances } from '../helpers/built-service.js';
import { basicHeader } from '../helpers/test-app.js';

const USER = 'suite';
const PASSWORD = 'suite-password-1234';
const AUTH = basicHeader(USER, PASSWORD);

async function clock(service: RunningService, method = 'GET', body?: unknown): Promise<Record<string, unknown>> {
  const init: RequestInit =
    body === undefined
      ? { method, headers: { Authorization: AUTH } }
      : { method, headers: { Authorization: AUTH, 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
  const res = await fetch(`${service.baseUrl}/testing/clock${method === 'POST' ? '/advance' : ''}`, init);
  expect(res.status).toBe(method === 'DELETE' ? 204 : 200);
  return method === 'DELETE' ? {} : ((await res.json()) as Record<string, unknown>);
}

/** Polls `service` until its clock says `now`, or fails after a second: how long it took, in ms. */
async function agreesWithin(service: RunningService, now: string): Promise<number> {
  const start = performance.now();
  while (performance.now() - start < 1000) {
    if ((await clock(service)).now === now) return performance.now() - start;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`the other instance did not show ${now} within 1 s`);
}

/**
 * Two instances of the built service in test mode on one MariaDB database (MySQL only): a change
 * of the museum clock through one is in force on the other within a second.
 */
describe('museum clock: two instances in test mode on one MariaDB database', () => {
  const { services } = useTwoTestModeInstances({ user: USER, password: PASSWORD });

  it('a set, an advance and a return to real time through one instance reach the other within 1 s', async () => {
    const [a, b] = services;
    const set = await clock(a, 'PUT', { now: '2027-03-13T10:00:00+01:00', frozen: true });
    expect(set.now).toBe('2027-03-13T09:00:00.000Z');
    await agreesWithin(b, '2027-03-13T09:00:00.000Z');
    // The advance goes through the other one, from the setting it shares.
    expect((await clock(b, 'POST', { seconds: 86_400 })).now).toBe('2027-03-14T09:00:00.000Z');
    await agreesWithin(a, '2027-03-14T09:00:00.000Z');
    await clock(a, 'DELETE');
    const start = performance.now();
    while ((await clock(b)).frozen !== false) {
      expect(performance.now() - start).toBeLessThan(1000);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(Math.abs(Date.parse(String((await clock(b)).now)) - Date.now())).toBeLessThan(1000);
  });
});
