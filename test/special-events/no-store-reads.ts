import request from 'supertest';
import type { NoStoreReads } from '../helpers/no-store-read-rows.js';
import { validEvent } from '../helpers/problem-assertions.js';
import { AUTH } from '../helpers/test-app.js';

/** An event's seats per date say no-store: every sale changes them (test/helpers/no-store-read-rows.ts). */
export default (async (t) => {
  const event = validEvent();
  await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(event);
  return [`/special-events/${event.eventId as string}/availability`];
}) satisfies NoStoreReads;
