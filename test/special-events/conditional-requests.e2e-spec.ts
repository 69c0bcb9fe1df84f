import { suiteDate, useMuseumClock } from '../helpers/clock.js';
import request, { type Response } from 'supertest';
import { describe, expect, it } from 'vitest';
import { type Body, expectProblem, expectStatus, validEvent } from '../helpers/problem-assertions.js';
import { AUTH, useTestApp } from '../helpers/test-app.js';
import { buyTicket } from '../tickets/api.js';

/**
 * Preconditions of RFC 9110 on the writes of an event, on every database: If-Match on DELETE (a
 * stale tag deletes nothing, decided by the database) and If-None-Match on PATCH.
 */

const t = useTestApp();
useMuseumClock(t);

/** A date within the ticket sales' horizon: ten days after the museum clock's day. */
const SALE_DATE = suiteDate(10);

async function create(body: Body): Promise<string> {
  const res = await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(body);
  expectStatus(res, 201);
  return res.headers.etag as string;
}

const get = (id: string): Promise<Response> =>
  request(t.baseUrl).get(`/special-events/${id}`).set('Authorization', AUTH);
const remove = (id: string) => request(t.baseUrl).delete(`/special-events/${id}`).set('Authorization', AUTH);
const patch = (id: string, body: Body) =>
  request(t.baseUrl)
    .patch(`/special-events/${id}`)
    .set('Authorization', AUTH)
    .set('Content-Type', 'application/merge-patch+json')
    .send(JSON.stringify(body));

describe('DELETE /special-events/{eventId} with If-Match', () => {
  it('a stale tag is 412 and deletes nothing; the current tag, or *, deletes', async () => {
    const sent = validEvent();
    const id = sent.eventId as string;
    const first = await create(sent);
    expectStatus(await patch(id, { name: 'Renamed' }), 200);
    const current = (await get(id)).headers.etag as string;
    expect(current).not.toBe(first);

    expectProblem(await remove(id).set('If-Match', first), 412, `/special-events/${id}`);
    expectProblem(await remove(id).set('If-Match', `W/${current}`), 412, `/special-events/${id}`);
    expectStatus(await get(id), 200);
    expectStatus(await remove(id).set('If-Match', `"other", ${current}`), 204);
    expectStatus(await get(id), 404);

    const again = validEvent();
    await create(again);
    expectStatus(await remove(again.eventId as string).set('If-Match', '*'), 204);
    expectStatus(await get(again.eventId as string), 404);
  });

  it('a missing event is 404 with any If-Match', async () => {
    const id = validEvent().eventId as string;
    expectProblem(await remove(id).set('If-Match', '*'), 404, `/special-events/${id}`);
    expectProblem(await remove(id).set('If-Match', '"1"'), 404, `/special-events/${id}`);
  });

  it('a ticket sold since the tag was read makes it stale for an event with a capacity', async () => {
    const sent = validEvent({ dates: [SALE_DATE], capacity: 5 });
    const id = sent.eventId as string;
    const tag = await create(sent);
    const sale = await buyTicket(t.baseUrl, { ticketType: 'event', eventId: id, ticketDate: SALE_DATE });
    expectStatus(sale, 201);
    expectProblem(await remove(id).set('If-Match', tag), 412, `/special-events/${id}`);
    expectStatus(await remove(id).set('If-Match', (await get(id)).headers.etag as string), 204);
  });

  it('updates and deletes racing with one tag: exactly one of them succeeds (the database decides)', async () => {
    for (let round = 0; round < 5; round++) {
      const sent = validEvent();
      const id = sent.eventId as string;
      const tag = await create(sent);
      const answers = await Promise.all([
        ...Array.from({ length: 6 }, (_, i) => patch(id, { name: `Racer ${i}` }).set('If-Match', tag)),
        ...Array.from({ length: 6 }, () => remove(id).set('If-Match', tag)),
      ]);
      const won = answers.filter((res) => res.status === 200 || res.status === 204);
      expect(won).toHaveLength(1);
      for (const res of answers) expect([200, 204, 404, 412]).toContain(res.status);
      expectStatus(await get(id), won[0].status === 204 ? 404 : 200);
    }
  });
});

describe('PATCH /special-events/{eventId} with If-None-Match', () => {
  it('* or the current tag is 412 and changes nothing; another tag applies', async () => {
    const sent = validEvent();
    const id = sent.eventId as string;
    const tag = await create(sent);
    const refused = await patch(id, { name: 'Overwritten' }).set('If-None-Match', '*');
    expectProblem(refused, 412, `/special-events/${id}`);
    expectProblem(await patch(id, { name: 'Overwritten' }).set('If-None-Match', tag), 412, `/special-events/${id}`);
    const unchanged = await get(id);
    expect((unchanged.body as Body).name).toBe(sent.name);
    expect(unchanged.headers.etag).toBe(tag);
    const applied = await patch(id, { name: 'Applied' }).set('If-None-Match', '"not-the-tag"');
    expectStatus(applied, 200);
    expect((applied.body as Body).name).toBe('Applied');
  });
});
