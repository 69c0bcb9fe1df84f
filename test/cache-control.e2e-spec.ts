import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { UsersService } from '../src/auth/users.service.js';
import { featureRows } from './helpers/feature-rows.js';
import type { NoStoreReads } from './helpers/no-store-read-rows.js';
import { expectStatus, validEvent } from './helpers/problem-assertions.js';
import { AUTH, basicHeader, useTestApp } from './helpers/test-app.js';

/**
 * Cache-Control on every answer behind credentials, on every database: `no-store`, errors
 * included (each feature's reads from its `no-store-reads.ts`); `private, no-cache` where an ETag
 * serves revalidation (the event's get); a handler's own choice (the calendar feed's, in
 * test/calendar/cache-control.e2e-spec.ts) wins.
 */

const t = useTestApp();
const VIEWER_AUTH = basicHeader('cache-viewer', 'cache-viewer-password-1');

const get = (path: string, auth = AUTH) => request(t.baseUrl).get(path).set('Authorization', auth);

beforeAll(async () => {
  await t.app.get(UsersService).add('cache-viewer', 'cache-viewer-password-1', 'viewer');
}, 60_000);

describe('Cache-Control behind credentials', () => {
  it('no-store on lists, tickets, hours and the answers of writes', async () => {
    const event = validEvent();
    const created = await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(event);
    expectStatus(created, 201);
    expect(created.headers['cache-control']).toBe('no-store');
    const paths = ['/special-events'];
    for (const { rows } of await featureRows<NoStoreReads>('no-store-reads')) paths.push(...(await rows(t)));
    expect(paths.length).toBeGreaterThan(1);
    for (const path of paths) {
      const res = await get(path);
      expectStatus(res, 200);
      expect({ path, cacheControl: res.headers['cache-control'] }).toEqual({ path, cacheControl: 'no-store' });
    }
  });

  it("an event's get says private, no-cache (200 and 304); its errors say no-store", async () => {
    const event = validEvent();
    await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(event).expect(201);
    const read = await get(`/special-events/${event.eventId as string}`);
    expectStatus(read, 200);
    expect(read.headers['cache-control']).toBe('private, no-cache');
    const notModified = await get(`/special-events/${event.eventId as string}`).set(
      'If-None-Match',
      read.headers.etag as string,
    );
    expect(notModified.status).toBe(304);
    expect(notModified.headers['cache-control']).toBe('private, no-cache');
    const missing = await get(`/special-events/${randomUUID()}`);
    expectStatus(missing, 404);
    expect(missing.headers['cache-control']).toBe('no-store');
  });

  it('401, 403 and 400 behind credentials say no-store', async () => {
    const anonymous = await request(t.baseUrl).get('/special-events');
    expectStatus(anonymous, 401);
    expect(anonymous.headers['cache-control']).toBe('no-store');
    const forbidden = await request(t.baseUrl)
      .post('/special-events')
      .set('Authorization', VIEWER_AUTH)
      .send(validEvent());
    expectStatus(forbidden, 403);
    expect(forbidden.headers['cache-control']).toBe('no-store');
    const invalid = await get('/special-events/not-a-uuid');
    expectStatus(invalid, 400);
    expect(invalid.headers['cache-control']).toBe('no-store');
  });
});
