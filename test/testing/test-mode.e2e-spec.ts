import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { viewer } from '../helpers/contract.js';
import { useTestApp } from '../helpers/test-app.js';
import { call, OPEN_EVERY_DAY } from './api.js';

/**
 * Test mode (TEST_MODE): off, no /testing/ route exists or is documented; on, the service says so
 * on every answer, at start and in readiness, and its museum clock is what every "today" follows.
 */

const TESTING_PATHS: readonly [string, string][] = [
  ['GET', '/testing/clock'],
  ['PUT', '/testing/clock'],
  ['DELETE', '/testing/clock'],
  ['POST', '/testing/clock/advance'],
  ['POST', '/testing/reset'],
];

describe('TEST_MODE off (the default)', () => {
  const t = useTestApp();

  it('every /testing/ path is a 404 like any unknown route, without the test-mode header', async () => {
    const unknown = await call(t, 'GET', '/no-such-route');
    expect(unknown.status).toBe(404);
    for (const [method, path] of TESTING_PATHS) {
      const answer = await call(t, method, path, method === 'GET' || method === 'DELETE' ? undefined : {});
      expect({ method, path, status: answer.status, type: answer.body.type }).toEqual({
        method,
        path,
        status: 404,
        type: unknown.body.type,
      });
      expect(answer.headers.get('museum-test-mode')).toBeNull();
    }
  });

  it('documents no /testing/ path, and readiness says nothing of test mode', async () => {
    const doc = await call(t, 'GET', '/openapi.json', undefined, null);
    expect(doc.status).toBe(200);
    expect(Object.keys(doc.body.paths as object).filter((path) => path.startsWith('/testing'))).toEqual([]);
    expect((await call(t, 'GET', '/health/ready', undefined, null)).body).toEqual({ status: 'ok' });
  });
});

describe('TEST_MODE on', () => {
  const t = useTestApp({ TEST_MODE: 'true', MUSEUM_TIME_ZONE: 'Europe/Paris' });

  it('says so at start, on every answer (errors and unknown routes too) and in readiness', async () => {
    expect(t.logs.some((line) => line.level === 40 && String(line.msg).includes('TEST_MODE is on'))).toBe(true);
    for (const [path, status] of [
      ['/health/live', 200],
      ['/no-such-route', 404],
      ['/special-events', 401],
    ] as const) {
      const answer = await call(t, 'GET', path, undefined, null);
      expect({ path, status: answer.status, header: answer.headers.get('museum-test-mode') }).toEqual({
        path,
        status,
        header: 'on',
      });
    }
    expect((await call(t, 'GET', '/health/ready', undefined, null)).body).toEqual({ status: 'ok', testMode: true });
    // Refused before any route: an Expect the service cannot meet is a 417.
    const refused = await new Promise<{ status?: number; header: unknown }>((resolve, reject) => {
      const req = request(`${t.baseUrl}/health/live`, { headers: { Expect: 'x-unmet' } }, (res) => {
        res.resume();
        resolve({ status: res.statusCode, header: res.headers['museum-test-mode'] });
      });
      req.once('error', reject);
      req.end();
    });
    expect(refused).toEqual({ status: 417, header: 'on' });
  });

  it('documents the /testing/ routes, and lets only admins use them (401 anonymous, 403 a viewer)', async () => {
    const doc = await call(t, 'GET', '/openapi.json', undefined, null);
    expect(Object.keys(doc.body.paths as object).filter((path) => path.startsWith('/testing'))).toEqual([
      '/testing/clock',
      '/testing/clock/advance',
      '/testing/reset',
    ]);
    const viewerAuth = await viewer(t);
    for (const [method, path] of TESTING_PATHS) {
      const body = method === 'GET' || method === 'DELETE' ? undefined : {};
      expect((await call(t, method, path, body, null)).status).toBe(401);
      expect((await call(t, method, path, body, viewerAuth)).status).toBe(403);
    }
  });

  it('follows the real clock until set', async () => {
    await call(t, 'DELETE', '/testing/clock');
    const before = Date.now();
    const clock = await call(t, 'GET', '/testing/clock');
    expect(clock.status).toBe(200);
    expect(clock.body.frozen).toBe(false);
    expect(clock.body.timeZone).toBe('Europe/Paris');
    const now = Date.parse(String(clock.body.now));
    expect(now).toBeGreaterThanOrEqual(before - 1000);
    expect(now).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it("frozen: stands still at the instant, whose museum date is the museum zone's", async () => {
    // 23:30 in Paris on Saturday 13 March is 22:30 UTC: still the 13th at the museum.
    const set = await call(t, 'PUT', '/testing/clock', { now: '2027-03-13T23:30:00+01:00', frozen: true });
    expect(set).toMatchObject({
      status: 200,
      body: { now: '2027-03-13T22:30:00.000Z', frozen: true, museumDate: '2027-03-13', timeZone: 'Europe/Paris' },
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await call(t, 'GET', '/testing/clock')).body.now).toBe('2027-03-13T22:30:00.000Z');
    const advanced = await call(t, 'POST', '/testing/clock/advance', { seconds: 1800 });
    expect(advanced).toMatchObject({
      status: 200,
      body: { now: '2027-03-13T23:00:00.000Z', frozen: true, museumDate: '2027-03-14' },
    });
  });

  it('running: moves on from the instant at the real pace', async () => {
    await call(t, 'PUT', '/testing/clock', { now: '2030-06-01T08:00:00Z', frozen: false });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = Date.parse(String((await call(t, 'GET', '/testing/clock')).body.now));
    expect(now).toBeGreaterThanOrEqual(Date.parse('2030-06-01T08:00:00.100Z'));
    expect(now).toBeLessThan(Date.parse('2030-06-01T08:00:30Z'));
    expect((await call(t, 'GET', '/testing/clock')).body.frozen).toBe(false);
  });

  it('DELETE puts real time back: 204', async () => {
    await call(t, 'PUT', '/testing/clock', { now: '2030-06-01T08:00:00Z', frozen: true });
    expect((await call(t, 'DELETE', '/testing/clock')).status).toBe(204);
    const clock = await call(t, 'GET', '/testing/clock');
    expect(clock.body.frozen).toBe(false);
    expect(Math.abs(Date.parse(String(clock.body.now)) - Date.now())).toBeLessThan(2000);
  });

  it.each([
    ['PUT', '/testing/clock', { now: 'next tuesday', frozen: true }, 'now'],
    ['PUT', '/testing/clock', { now: '2027-03-13T10:00:00', frozen: true }, 'now'],
    ['PUT', '/testing/clock', { now: '2027-03-13', frozen: true }, 'now'],
    ['PUT', '/testing/clock', { now: '2027-02-30T10:00:00Z', frozen: true }, 'now'],
    ['PUT', '/testing/clock', { now: '1999-12-31T23:59:59Z', frozen: true }, 'now'],
    ['PUT', '/testing/clock', { now: '9000-01-01T00:00:00Z', frozen: true }, 'now'],
    ['PUT', '/testing/clock', { now: 1_800_000_000_000, frozen: true }, 'now'],
    ['PUT', '/testing/clock', { now: '2027-03-13T10:00:00Z' }, 'frozen'],
    ['PUT', '/testing/clock', { now: '2027-03-13T10:00:00Z', frozen: 'yes' }, 'frozen'],
    ['POST', '/testing/clock/advance', { seconds: -1 }, 'seconds'],
    ['POST', '/testing/clock/advance', { seconds: 1.5 }, 'seconds'],
    ['POST', '/testing/clock/advance', { seconds: '60' }, 'seconds'],
    ['POST', '/testing/clock/advance', {}, 'seconds'],
  ])('%s %s %j: 400 naming %s', async (method, path, body, field) => {
    const answer = await call(t, method, path, body);
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.map((error) => error.field)).toEqual([field]);
  });

  it('an advance past the last instant is a 400 naming seconds, and leaves the clock', async () => {
    await call(t, 'PUT', '/testing/clock', { now: '8999-12-31T00:00:00Z', frozen: true });
    const answer = await call(t, 'POST', '/testing/clock/advance', { seconds: 2 * 86_400 });
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.map((error) => error.field)).toEqual(['seconds']);
    expect((await call(t, 'GET', '/testing/clock')).body.now).toBe('8999-12-31T00:00:00.000Z');
  });

  it("hours, 'not in the past', the sales horizon and check-in's today all follow the clock", async () => {
    expect((await call(t, 'PUT', '/museum-hours/weekly', OPEN_EVERY_DAY)).status).toBe(200);
    // Saturday 13 March 2027, 10:00 in Paris.
    await call(t, 'PUT', '/testing/clock', { now: '2027-03-13T10:00:00+01:00', frozen: true });
    const hours = await call(t, 'GET', '/museum-hours?limit=1');
    expect((hours.body as unknown as { date: string }[])[0].date).toBe('2027-03-13');
    const past = await call(t, 'POST', '/tickets', { ticketType: 'general', ticketDate: '2027-03-12' });
    expect(past.status).toBe(400);
    expect(past.body.errors?.[0].message).toContain('today is 2027-03-13');
    const beyond = await call(t, 'POST', '/tickets', { ticketType: 'general', ticketDate: '2028-03-13' });
    expect(beyond.status).toBe(400);
    expect(beyond.body.errors?.[0].message).toContain('at most 2028-03-12');
    const bought = await call(t, 'POST', '/tickets', { ticketType: 'general', ticketDate: '2027-03-13' });
    expect(bought.status).toBe(201);
    const ticketId = String(bought.body.ticketId);
    expect((await call(t, 'GET', `/tickets/${ticketId}`)).body.createdAt).toBe('2027-03-13T09:00:00.000Z');
    // Sunday: the ticket's day is over.
    await call(t, 'POST', '/testing/clock/advance', { seconds: 86_400 });
    const late = await call(t, 'POST', `/tickets/${ticketId}/check-in`);
    expect(late.status).toBe(409);
    expect(String(late.body.type)).toContain('not-for-today');
    // Back to Saturday: in.
    await call(t, 'PUT', '/testing/clock', { now: '2027-03-13T17:59:00+01:00', frozen: true });
    const checkedIn = await call(t, 'POST', `/tickets/${ticketId}/check-in`);
    expect(checkedIn.status).toBe(200);
    expect(checkedIn.body.checkedInAt).toBe('2027-03-13T16:59:00.000Z');
  });
});
