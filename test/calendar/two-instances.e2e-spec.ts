import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { useTwoInstances } from '../helpers/built-service.js';
import { basicHeader } from '../helpers/test-app.js';

const USER = 'outbox';
const PASSWORD = 'outbox-password-1234';
const AUTH = basicHeader(USER, PASSWORD);

/**
 * Two instances of the built service on one MariaDB database (MySQL only): feed tokens are read
 * from the database on every request, so a revocation is in force everywhere at once.
 */
describe('feed tokens: two instances on one MariaDB database', () => {
  const { services } = useTwoInstances({ user: USER, password: PASSWORD });

  it('a feed token revoked through one instance is a 404 on the other from the next request on', async () => {
    const [a, b] = services;
    const made = await request(a.baseUrl).post('/calendar-tokens').set('Authorization', AUTH).send({});
    expect(made.status).toBe(201);
    const { tokenId, feedUrl } = made.body as { tokenId: string; feedUrl: string };
    expect((await request(b.baseUrl).get(feedUrl)).status).toBe(200);
    expect((await request(a.baseUrl).delete(`/calendar-tokens/${tokenId}`).set('Authorization', AUTH)).status).toBe(
      204,
    );
    const after = await request(b.baseUrl).get(feedUrl);
    expect(after.status).toBe(404);
    expect(after.text).not.toContain(feedUrl.slice('/calendar/'.length, -'.ics'.length));
  });
});
