import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { expectStatus } from '../helpers/problem-assertions.js';
import { AUTH, useTestApp } from '../helpers/test-app.js';

/** The calendar feed's own Cache-Control, behind credentials (test/cache-control.e2e-spec.ts has the rest). */

const t = useTestApp();

const get = (path: string) => request(t.baseUrl).get(path).set('Authorization', AUTH);

describe('Cache-Control behind credentials', () => {
  it("a handler's own Cache-Control wins (the calendar feed's)", async () => {
    const feed = await get('/special-events.ics');
    expectStatus(feed, 200);
    expect(feed.headers['cache-control']).toBe('private, no-cache');
  });
});
