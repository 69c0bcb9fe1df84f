import request from 'supertest';
import { DataSource } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { expectProblem, expectStatus, validEvent } from '../helpers/problem-assertions.js';
import { AUTH, useTestApp } from '../helpers/test-app.js';

/**
 * A special event's `prices` (price categories) over HTTP, on SQLite and MySQL: set on create and
 * by PATCH, read back on every read in the order given, removed by null or []; an event without
 * them reads exactly as the Museum API's SpecialEvent (no `prices` key); every bad list is a 400
 * naming `prices`, and nothing is stored or changed.
 */

const t = useTestApp();

const PRICES = [
  { category: 'adult', price: 20 },
  { category: 'child', price: 0 },
];

type Errors = { errors: { field: string; message: string }[] };

const create = (body: object) => request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(body);
const read = (eventId: unknown) =>
  request(t.baseUrl)
    .get(`/special-events/${eventId as string}`)
    .set('Authorization', AUTH);
const patch = (eventId: unknown, body: object) =>
  request(t.baseUrl)
    .patch(`/special-events/${eventId as string}`)
    .set('Authorization', AUTH)
    .send(body);

async function storedPrices(eventId: unknown): Promise<unknown> {
  const [row] = (await t.app
    .get(DataSource)
    .query('SELECT prices FROM special_events WHERE event_id = ?', [eventId])) as { prices: unknown }[];
  return typeof row.prices === 'string' ? JSON.parse(row.prices) : row.prices;
}

describe('special event prices', () => {
  it('creates an event with prices, answers and reads them in the order given, and lists them', async () => {
    const event = validEvent({ dates: ['2090-05-01'], prices: [...PRICES].reverse() });
    const created = await create(event);
    expectStatus(created, 201);
    expect(created.body.prices).toEqual([...PRICES].reverse());
    expect(Object.keys(created.body as object)).toEqual([
      'eventId',
      'name',
      'location',
      'eventDescription',
      'dates',
      'price',
      'prices',
    ]);
    expect((await read(event.eventId)).body.prices).toEqual([...PRICES].reverse());
    expect(await storedPrices(event.eventId)).toEqual([...PRICES].reverse());
    const list = await request(t.baseUrl)
      .get('/special-events?startDate=2090-05-01&endDate=2090-05-01')
      .set('Authorization', AUTH);
    expectStatus(list, 200);
    const listed = (list.body as { eventId: string; prices?: unknown }[]).find((e) => e.eventId === event.eventId);
    expect(listed?.prices).toEqual([...PRICES].reverse());
  });

  it('reads an event without prices exactly as before: no prices key, NULL in its column', async () => {
    const event = validEvent();
    const created = await create(event);
    expectStatus(created, 201);
    expect(created.body).toEqual(event);
    expect((await read(event.eventId)).body).toEqual(event);
    expect(await storedPrices(event.eventId)).toBeNull();
    // [] and null on create are the same as absent.
    for (const prices of [[], null]) {
      const empty = validEvent({ prices });
      expectStatus(await create(empty), 201);
      const { prices: _, ...fields } = empty;
      expect((await read(empty.eventId)).body).toEqual(fields);
    }
  });

  it('sets, replaces and removes prices by PATCH (null and [] remove them), other fields untouched', async () => {
    const event = validEvent();
    expectStatus(await create(event), 201);
    const set = await patch(event.eventId, { prices: PRICES });
    expectStatus(set, 200);
    expect(set.body).toEqual({ ...event, prices: PRICES });
    const replaced = await patch(event.eventId, { prices: [{ category: 'member', price: 5 }] });
    expect(replaced.body.prices).toEqual([{ category: 'member', price: 5 }]);
    // A patch of another field keeps them.
    expect((await patch(event.eventId, { name: 'Renamed' })).body.prices).toEqual([{ category: 'member', price: 5 }]);
    const removed = await patch(event.eventId, { prices: null });
    expectStatus(removed, 200);
    expect(removed.body).toEqual({ ...event, name: 'Renamed' });
    expect(await storedPrices(event.eventId)).toBeNull();
    expectStatus(await patch(event.eventId, { prices: PRICES }), 200);
    const emptied = await patch(event.eventId, { prices: [] });
    expect(emptied.body).not.toHaveProperty('prices');
    expect(await storedPrices(event.eventId)).toBeNull();
  });

  const BAD: [string, unknown, RegExp][] = [
    [
      'a category given twice',
      [...PRICES, { category: 'adult', price: 3 }],
      /prices item 2 repeats the category "adult" of item 0/,
    ],
    ['a negative price', [{ category: 'adult', price: -0.01 }], /prices item 0 price must be from 0 to 1000000000/],
    [
      '21 entries',
      Array.from({ length: 21 }, (_, i) => ({ category: `c${i}`, price: 1 })),
      /prices must have at most 20 entries \(it has 21\)/,
    ],
    [
      'a category of 41 characters',
      [{ category: 'x'.repeat(41), price: 1 }],
      /prices item 0 category must be 1 to 40 characters long \(it has 41\)/,
    ],
    ['an entry without a price', [{ category: 'adult' }], /prices item 0 price must be a finite JSON number/],
    ['an object instead of a list', { adult: 20 }, /prices must be an array/],
  ];

  it.each(BAD)('refuses %s on create with 400 naming prices, and creates nothing', async (_what, prices, message) => {
    const event = validEvent({ prices });
    const { errors } = expectProblem(await create(event), 400, '/special-events', true) as unknown as Errors;
    expect(errors.map((error) => error.field)).toEqual(['prices']);
    expect(errors[0].message).toMatch(message);
    expectStatus(await read(event.eventId), 404);
  });

  it.each(BAD)('refuses %s on PATCH with 400 naming prices, and changes nothing', async (_what, prices, message) => {
    const event = validEvent({ prices: PRICES });
    expectStatus(await create(event), 201);
    const path = `/special-events/${event.eventId as string}`;
    const { errors } = expectProblem(await patch(event.eventId, { prices }), 400, path, true) as unknown as Errors;
    expect(errors.map((error) => error.field)).toEqual(['prices']);
    expect(errors[0].message).toMatch(message);
    expect((await read(event.eventId)).body.prices).toEqual(PRICES);
  });

  it('takes 20 entries with categories of 40 characters', async () => {
    const prices = Array.from({ length: 20 }, (_, i) => ({ category: `${i}`.padStart(40, 'x'), price: i + 0.99 }));
    const event = validEvent({ prices });
    expectStatus(await create(event), 201);
    expect((await read(event.eventId)).body.prices).toEqual(prices);
  });
});
