import { createHmac, randomBytes, randomInt, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import request, { type Response } from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type Body,
  CHALLENGE,
  expectProblem,
  expectStatus,
  expectUnauthorized,
} from '../helpers/problem-assertions.js';
import { AUTH, useTestApp } from '../helpers/test-app.js';

/**
 * End-to-end tests of list, get and update (issue 16) over HTTP, on the app built exactly as
 * main.ts builds it, on SQLite and MySQL alike. Each test works in dates of its own year, so the
 * date-range lists of one test never see another's events.
 */

const t = useTestApp();

const EVENT_KEYS = ['dates', 'eventDescription', 'eventId', 'location', 'name', 'price'];
const MERGE_PATCH = 'application/merge-patch+json';
const STRONG_ETAG = /^"[\x21\x23-\x7e]+"$/;

let nextYear = 3000 + randomInt(0, 3000);
/**
 * A year no other test uses, nor the year after it (years far ahead, so that no stray event
 * shares them): a test may use y + 1 too.
 */
function freshYear(): number {
  nextYear += 2;
  return nextYear;
}

/** An independent statement of the rule: the date of an ISO date or date-time, or null. */
function isoDate(text: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/.exec(
    text,
  );
  if (!match) return null;
  const date = `${match[1]}-${match[2]}-${match[3]}`;
  const parsed = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== date ? null : date;
}

function event(overrides: Body = {}): Body {
  return {
    eventId: randomUUID(),
    name: 'Mermaid Treasure Identification and Analysis',
    location: 'Under the seaaa 🦀 🎶 🌊.',
    eventDescription: 'Join us as we review and classify a rare collection of 20 thingamabobs.',
    dates: ['2023-09-05', '2023-09-08'],
    price: 19.99,
    ...overrides,
  };
}

async function create(body: Body): Promise<Response> {
  const res = await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(body);
  expectStatus(res, 201);
  return res;
}

function get(eventId: string): request.Test {
  return request(t.baseUrl).get(`/special-events/${eventId}`).set('Authorization', AUTH);
}

function list(query: string): request.Test {
  return request(t.baseUrl).get(`/special-events${query}`).set('Authorization', AUTH);
}

function patch(eventId: string, body: unknown, contentType = MERGE_PATCH): request.Test {
  return request(t.baseUrl)
    .patch(`/special-events/${eventId}`)
    .set('Authorization', AUTH)
    .set('Content-Type', contentType)
    .send(typeof body === 'string' ? body : JSON.stringify(body));
}

function del(eventId: string): request.Test {
  return request(t.baseUrl).delete(`/special-events/${eventId}`).set('Authorization', AUTH);
}

/** A 200 JSON answer whose body is exactly `expected` and whose ETag is strong. */
function expectEvent(res: Response, expected: Body): string {
  expectStatus(res, 200);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(Object.keys(res.body as Body).sort()).toEqual(EVENT_KEYS);
  expect(res.body).toStrictEqual(expected);
  expect(res.headers.etag).toMatch(STRONG_ETAG);
  return res.headers.etag as string;
}

/** A 400 validation problem naming exactly `fields`. */
function expectFieldProblem(res: Response, instance: string, fields: string[]): Body {
  const body = expectProblem(res, 400, instance, true);
  expect(body.type).toBe('urn:museum:problem:validation');
  const errors = body.errors as { field: string; message: string }[];
  expect([...new Set(errors.map((error) => error.field))].sort()).toEqual([...fields].sort());
  return body;
}

/** The `next` target of a Link header, or undefined when there is none. */
function nextLink(res: Response): string | undefined {
  const header = res.headers.link as string | undefined;
  if (header === undefined) return undefined;
  const match = /^<([^>]+)>; rel="next"$/.exec(header);
  expect(match, `Link header ${header}`).not.toBeNull();
  return match?.[1];
}

/** Follows the `next` links from `first` to the end: every event of every page, in order. */
async function followAll(first: string, onPage?: () => Promise<void>): Promise<Body[]> {
  const seen: Body[] = [];
  let target: string | undefined = first;
  for (let pages = 0; target !== undefined; pages++) {
    expect(pages).toBeLessThan(10_000);
    const res = await list(target.replace(/^\/special-events/, ''));
    expectStatus(res, 200);
    seen.push(...(res.body as Body[]));
    target = nextLink(res);
    if (target !== undefined) await onPage?.();
  }
  return seen;
}

const ids = (events: readonly Body[]): string[] => events.map((e) => e.eventId as string);

// ---------------------------------------------------------------------------------------------
// GET /special-events/{eventId}
// ---------------------------------------------------------------------------------------------

describe('GET /special-events/{eventId}', () => {
  it('200 with the event as created, byte for byte, and a strong ETag; the UUID in any case', async () => {
    const sent = event();
    const created = await create(sent);
    const res = await get(sent.eventId as string);
    const etag = expectEvent(res, sent);
    expect(res.text).toBe(created.text);
    expect(created.headers.etag).toBe(etag);
    expectEvent(await get((sent.eventId as string).toUpperCase()), sent);
  });

  it('404 when absent (never created, or deleted)', async () => {
    const id = randomUUID();
    expectProblem(await get(id), 404, `/special-events/${id}`);
    const sent = event();
    await create(sent);
    expectStatus(await del(sent.eventId as string), 204);
    expectProblem(await get(sent.eventId as string), 404, `/special-events/${sent.eventId as string}`);
  });

  it.each(['not-a-uuid', '123', `${randomUUID()}0`])('400 for %s, naming eventId', async (id) => {
    expectFieldProblem(await get(id), `/special-events/${id}`, ['eventId']);
  });

  it('If-None-Match with the current tag (or W/ of it, or *): 304 without a body; with another: 200', async () => {
    const sent = event();
    await create(sent);
    const id = sent.eventId as string;
    const etag = expectEvent(await get(id), sent);
    for (const condition of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      // fetch() adds Cache-Control: no-cache to every conditional request; it is for caches, not for us.
      const res = await get(id).set('If-None-Match', condition).set('Cache-Control', 'no-cache');
      expectStatus(res, 304);
      expect(res.text).toBe('');
      expect(res.headers.etag).toBe(etag);
      expect(res.headers['content-type']).toBeUndefined();
    }
    expectEvent(await get(id).set('If-None-Match', '"other"'), sent);
  });

  it('HEAD answers as GET does, without a body', async () => {
    const sent = event();
    await create(sent);
    const full = await get(sent.eventId as string);
    const head = await request(t.baseUrl)
      .head(`/special-events/${sent.eventId as string}`)
      .set('Authorization', AUTH);
    expect(head.status).toBe(200);
    expect(head.text ?? '').toBe('');
    expect(head.headers.etag).toBe(full.headers.etag);
    expect(head.headers['content-length']).toBe(full.headers['content-length']);
    const missing = randomUUID();
    expect((await request(t.baseUrl).head(`/special-events/${missing}`).set('Authorization', AUTH)).status).toBe(404);
  });

  it('the ETag changes on every update, and after a delete and a new create under the same id', async () => {
    const sent = event();
    await create(sent);
    const id = sent.eventId as string;
    const tags = [expectEvent(await get(id), sent)];
    for (const name of ['One', 'Two', 'Three']) {
      tags.push(expectEvent(await patch(id, { name }), { ...sent, name }));
    }
    expectStatus(await del(id), 204);
    await create(sent);
    tags.push(expectEvent(await get(id), sent));
    expect(new Set(tags).size).toBe(tags.length);
    // The first tag is stale: If-None-Match with it gets the event again.
    expectEvent(await get(id).set('If-None-Match', tags[0]), sent);
  });
});

// ---------------------------------------------------------------------------------------------
// GET /special-events
// ---------------------------------------------------------------------------------------------

describe('GET /special-events: matching and order', () => {
  it('matches an ISO date (or date-time) in the closed range; orders by first date in range, then eventId', async () => {
    const y = freshYear();
    const [a, b, c, d, e, f] = [
      event({ eventId: `00000000-0000-4000-8000-${String(y).padStart(12, '0')}`, dates: [`${y}-03-01`] }),
      event({ dates: [`${y}-01-10T18:30:00Z`, 'free text'] }),
      event({ dates: [`${y}-05-01`, `${y}-02-01`] }),
      event({ dates: [`${y}-02-30`, `March ${y}`, `${y}/03/01`] }),
      event({ dates: [`${y + 1}-01-01`] }),
      event({ eventId: `ffffffff-ffff-4fff-bfff-${String(y).padStart(12, '0')}`, dates: [`${y}-03-01`] }),
    ];
    for (const sent of [f, e, d, c, b, a]) await create(sent);

    const range = async (query: string): Promise<Body[]> => {
      const res = await list(query);
      expectStatus(res, 200);
      return res.body as Body[];
    };
    // Closed range: both bounds included; c comes at its first date in the range (Feb 1).
    expect(await range(`?startDate=${y}-02-01&endDate=${y}-03-01`)).toStrictEqual([c, a, f]);
    // From Mar 2 on, c's first date in the range is May 1, and e's is next year's Jan 1.
    expect(await range(`?startDate=${y}-03-02&endDate=${y + 1}-12-31`)).toStrictEqual([c, e]);
    // A date-time's date part counts.
    expect(await range(`?startDate=${y}-01-10&endDate=${y}-01-10`)).toStrictEqual([b]);
    // Free text that looks like a date never matches (d has no ISO date).
    expect(ids(await range(`?startDate=${y}-01-01&endDate=${y}-12-31&limit=100`))).not.toContain(d.eventId);
    expect(await range(`?startDate=${y}-02-28&endDate=${y}-02-28`)).toStrictEqual([]);
  });

  it('either bound may be omitted', async () => {
    const y = freshYear();
    const early = event({ dates: [`${y}-01-01`] });
    const late = event({ dates: [`${y}-12-31`] });
    await create(early);
    await create(late);
    const onlyStart = (await list(`?startDate=${y}-12-31&limit=100`)).body as Body[];
    expect(ids(onlyStart)).toContain(late.eventId);
    expect(ids(onlyStart)).not.toContain(early.eventId);
    const onlyEnd = await followAll(`/special-events?endDate=${y}-01-01&limit=100`);
    expect(ids(onlyEnd)).toContain(early.eventId);
    expect(ids(onlyEnd)).not.toContain(late.eventId);
  });

  it('without a range every event is listed: dated ones by earliest ISO date, then the undated by eventId', async () => {
    const y = freshYear();
    const dated = event({ dates: ['whenever', `${y}-06-01`, `${y}-05-01`] });
    const undated = event({ dates: ['every Sunday'] });
    const empty = event({ dates: [] });
    for (const sent of [undated, dated, empty]) await create(sent);
    const all = await followAll('/special-events?limit=100');
    expect(new Set(ids(all)).size).toBe(all.length);
    for (const sent of [dated, undated, empty]) expect(all).toContainEqual(sent);
    const firstIsoDate = (e: Body): string =>
      (e.dates as string[])
        .map(isoDate)
        .filter((date) => date !== null)
        .sort()[0] ?? '~';
    const keys = all.map((e) => [firstIsoDate(e), e.eventId as string] as const);
    const sorted = [...keys].sort(([ka, ia], [kb, ib]) =>
      ka < kb ? -1 : ka > kb ? 1 : ia < ib ? -1 : ia > ib ? 1 : 0,
    );
    expect(keys).toEqual(sorted);
    expect(ids(all).indexOf(dated.eventId as string)).toBeLessThan(ids(all).indexOf(undated.eventId as string));
  });
});

describe('GET /special-events: pages and links', () => {
  let y: number;
  let expected: Body[];

  beforeAll(async () => {
    y = freshYear();
    expected = [];
    for (let i = 0; i < 7; i++) {
      const sent = event({ dates: [`${y}-0${1 + (i % 3)}-15`], name: `Page event ${i}` });
      await create(sent);
      expected.push(sent);
    }
    expected.sort((a, b) => {
      const [da, db] = [(a.dates as string[])[0], (b.dates as string[])[0]];
      return da < db ? -1 : da > db ? 1 : (a.eventId as string) < (b.eventId as string) ? -1 : 1;
    });
  });

  it('limit defaults to 10; every page with a next one links to it; the last page has no Link', async () => {
    const query = `?startDate=${y}-01-01&endDate=${y}-12-31`;
    const first = await list(query);
    expectStatus(first, 200);
    expect(first.body).toStrictEqual(expected);
    expect(first.headers.link).toBeUndefined();

    const paged = await list(`${query}&limit=3`);
    expect(paged.body).toStrictEqual(expected.slice(0, 3));
    const link = nextLink(paged) as string;
    expect(link).toMatch(
      new RegExp(
        `^/special-events\\?startDate=${y}-01-01&endDate=${y}-12-31&limit=3&cursor=[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{22}$`,
      ),
    );
    expect(await followAll(`/special-events${query}&limit=3`)).toStrictEqual(expected);
    expect(await followAll(`/special-events${query}&limit=1`)).toStrictEqual(expected);
    // A page that ends exactly at the last event has no next link.
    const exact = await list(`${query}&limit=7`);
    expect(exact.body).toStrictEqual(expected);
    expect(exact.headers.link).toBeUndefined();
  });

  it('page (from 1) gives the same pages as the links, and carries the next link too', async () => {
    const query = `?startDate=${y}-01-01&endDate=${y}-12-31&limit=3`;
    const second = await list(`${query}&page=2`);
    expectStatus(second, 200);
    expect(second.body).toStrictEqual(expected.slice(3, 6));
    const rest = await followAll(nextLink(second) as string);
    expect(rest).toStrictEqual(expected.slice(6));
    const beyond = await list(`${query}&page=4`);
    expectStatus(beyond, 200);
    expect(beyond.body).toStrictEqual([]);
    expect(beyond.headers.link).toBeUndefined();
    expect((await list(`${query}&page=1`)).body).toStrictEqual(expected.slice(0, 3));
  });

  it('the cursor is valid only for its own range: 400 naming cursor otherwise, or when altered', async () => {
    const link = nextLink(await list(`?startDate=${y}-01-01&endDate=${y}-12-31&limit=2`)) as string;
    const cursor = new URLSearchParams(link.split('?')[1]).get('cursor') as string;
    expectFieldProblem(await list(`?startDate=${y}-01-02&endDate=${y}-12-31&cursor=${cursor}`), '/special-events', [
      'cursor',
    ]);
    expectFieldProblem(await list(`?cursor=${cursor}`), '/special-events', ['cursor']);
    expectFieldProblem(await list(`?startDate=${y}-01-01&endDate=${y}-12-31&cursor=${cursor}x`), '/special-events', [
      'cursor',
    ]);
    expectFieldProblem(await list(`?cursor=${Buffer.from('["x"]').toString('base64url')}`), '/special-events', [
      'cursor',
    ]);
  });

  it('a cursor cannot be forged: its position or range rewritten under the same signature is a 400 (issue 26)', async () => {
    const range = `startDate=${y}-01-01&endDate=${y}-12-31`;
    const link = nextLink(await list(`?${range}&limit=2`)) as string;
    const cursor = new URLSearchParams(link.split('?')[1]).get('cursor') as string;
    const [payload, keyId, mac] = cursor.split('.');
    expect(mac).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const [key, eventId] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as [string, string];
    expectStatus(await list(`?${range}&limit=2&cursor=${cursor}`), 200);
    const forge = (position: unknown[]) =>
      `${Buffer.from(JSON.stringify(position)).toString('base64url')}.${keyId}.${mac}`;
    // Moved on (skipping events), or widened to another range and sent with that range.
    const moved = forge([`${y}-06-01`, eventId, `${y}-01-01`, `${y}-12-31`]);
    expectFieldProblem(await list(`?${range}&limit=2&cursor=${moved}`), '/special-events', ['cursor']);
    const widened = forge([key, eventId, null, null]);
    expectFieldProblem(await list(`?limit=2&cursor=${widened}`), '/special-events', ['cursor']);
    // The unsigned form cursors had before.
    expectFieldProblem(await list(`?${range}&limit=2&cursor=${payload}`), '/special-events', ['cursor']);
  });

  it('signing keys rotate through the database: a cursor signed with a key added since start is accepted, old cursors stay valid', async () => {
    const range = `startDate=${y}-01-01&endDate=${y}-12-31`;
    const before = nextLink(await list(`?${range}&limit=2`)) as string;
    const oldCursor = new URLSearchParams(before.split('?')[1]).get('cursor') as string;
    // What another instance (or an operator) adds: a newer key, which this instance does not hold yet.
    const secret = randomBytes(32);
    const keyId = `rot${randomInt(1e6)}`;
    await t.app
      .get(DataSource)
      .query('INSERT INTO cursor_signing_keys (key_id, secret, created_at) VALUES (?, ?, ?)', [
        keyId,
        secret.toString('base64url'),
        Date.now() + 1,
      ]);
    const [payload] = oldCursor.split('.');
    const mac = createHmac('sha256', secret)
      .update(`${payload}.${keyId}`)
      .digest()
      .subarray(0, 16)
      .toString('base64url');
    // Reloads for an unknown key are at most once a second.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const fresh = await list(`?${range}&limit=2&cursor=${payload}.${keyId}.${mac}`);
    expectStatus(fresh, 200);
    const viaOld = await list(`?${range}&limit=2&cursor=${oldCursor}`);
    expectStatus(viaOld, 200);
    expect(fresh.body).toStrictEqual(viaOld.body);
    // A made-up key id is refused, after the same reload.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expectFieldProblem(await list(`?${range}&limit=2&cursor=${payload}.nokey.${mac}`), '/special-events', ['cursor']);
    await t.app.get(DataSource).query('DELETE FROM cursor_signing_keys WHERE key_id = ?', [keyId]);
  });
});

describe('GET /special-events: invalid parameters are 400s naming them', () => {
  it.each([
    ['limit=0', ['limit']],
    ['limit=101', ['limit']],
    ['limit=abc', ['limit']],
    ['limit=1.5', ['limit']],
    ['limit=-1', ['limit']],
    ['limit=', ['limit']],
    ['limit=1&limit=2', ['limit']],
    ['page=0', ['page']],
    ['page=x', ['page']],
    ['page=10001', ['page']],
    ['startDate=2026-02-30', ['startDate']],
    ['startDate=2026-1-5', ['startDate']],
    ['endDate=tomorrow', ['endDate']],
    ['startDate=2026-12-02&endDate=2026-12-01', ['endDate']],
    ['page=2&cursor=abc', ['page', 'cursor']],
    ['cursor=', ['cursor']],
    ['sort=name', ['sort']],
    ['limitt=5', ['limitt']],
    // Named like Object.prototype's members: unknown parameters all the same (issue 26).
    ...['toString', 'valueOf', 'hasOwnProperty', 'constructor', '__proto__', 'prototype', 'isPrototypeOf'].map(
      (name): [string, string[]] => [`${name}=1`, [name]],
    ),
    ['__proto__[limit]=5', ['__proto__[limit]']],
    ['limit=5&constructor=x&toString=', ['constructor', 'toString']],
  ])('?%s', async (query, fields) => {
    expectFieldProblem(await list(`?${query}`), '/special-events', fields);
  });

  it('a page may skip at most 10,000 events ((page - 1) * limit): deeper is a 400 pointing to the cursor; the bounds are accepted', async () => {
    for (const query of ['?page=10001', '?page=1002&limit=10', '?page=102&limit=100', '?page=10002&limit=1']) {
      const body = expectFieldProblem(await list(query), '/special-events', ['page']);
      expect(JSON.stringify(body.errors)).toMatch(/cursor/);
    }
    for (const query of [
      '?limit=1',
      '?limit=100',
      '?page=1001&limit=10',
      '?page=101&limit=100',
      '?page=10001&limit=1',
      '?startDate=2026-12-01&endDate=2026-12-01',
    ]) {
      expectStatus(await list(query), 200);
    }
  });
});

describe('GET /special-events: following next links while others create and delete', () => {
  it('visits every event that existed throughout exactly once, and no event twice', async () => {
    const y = freshYear();
    const day = (n: number) => `${y}-${String(1 + (n % 12)).padStart(2, '0')}-${String(1 + (n % 28)).padStart(2, '0')}`;
    const stable: string[] = [];
    const doomed: string[] = [];
    for (let i = 0; i < 60; i++) {
      const sent = event({ dates: [day(randomInt(0, 1000)), day(randomInt(0, 1000))] });
      await create(sent);
      (i % 3 === 0 ? doomed : stable).push(sent.eventId as string);
    }
    let churn = 0;
    const seen = await followAll(`/special-events?startDate=${y}-01-01&endDate=${y}-12-31&limit=4`, async () => {
      // Between pages: two creates at random dates in the range and a delete, concurrently.
      const victim = doomed.pop();
      await Promise.all([
        create(event({ dates: [day(randomInt(0, 1000))] })),
        create(event({ dates: [day(randomInt(0, 1000)), `other ${churn}`] })),
        victim === undefined ? Promise.resolve() : del(victim).then((res) => expectStatus(res, 204)),
      ]);
      churn += 1;
    });
    expect(churn).toBeGreaterThan(10);
    const seenIds = ids(seen);
    expect(new Set(seenIds).size).toBe(seenIds.length);
    for (const id of stable) expect(seenIds).toContain(id);
  });
});

// ---------------------------------------------------------------------------------------------
// PATCH /special-events/{eventId}
// ---------------------------------------------------------------------------------------------

describe('PATCH /special-events/{eventId}', () => {
  it('applies a merge patch: 200 with the event as stored and its new ETag; get and list agree', async () => {
    const y = freshYear();
    const sent = event({ dates: [`${y}-01-01`] });
    await create(sent);
    const id = sent.eventId as string;
    const changed = { ...sent, name: 'Renamed 🦀', dates: [`${y}-06-01`, 'or later'], price: 0.1 };
    const res = await patch(id, { name: changed.name, dates: changed.dates, price: 0.1 });
    const etag = expectEvent(res, changed);
    expect(expectEvent(await get(id), changed)).toBe(etag);
    // The date index moved with the dates.
    expect((await list(`?startDate=${y}-01-01&endDate=${y}-01-01`)).body).toStrictEqual([]);
    expect((await list(`?startDate=${y}-06-01&endDate=${y}-06-01`)).body).toStrictEqual([changed]);
  });

  it('accepts application/json (the Museum API) and the eventId of the path in any case; null eventId is absent', async () => {
    const sent = event();
    await create(sent);
    const id = sent.eventId as string;
    expectEvent(await patch(id, { location: 'Hall 2' }, 'application/json'), { ...sent, location: 'Hall 2' });
    expectEvent(await patch(id, { eventId: id.toUpperCase(), location: 'Hall 3' }), { ...sent, location: 'Hall 3' });
    expectEvent(await patch(id, { eventId: null, location: 'Hall 4' }), { ...sent, location: 'Hall 4' });
  });

  it('400 for each invalid field, for null where a field cannot be absent, and nothing changes', async () => {
    const sent = event();
    await create(sent);
    const id = sent.eventId as string;
    const instance = `/special-events/${id}`;
    const cases: [unknown, string[]][] = [
      [{ name: '' }, ['name']],
      [{ name: '   ' }, ['name']],
      [{ name: 25 }, ['name']],
      [{ name: null }, ['name']],
      [{ location: 'x'.repeat(201) }, ['location']],
      [{ eventDescription: null }, ['eventDescription']],
      [{ dates: '2026-12-01' }, ['dates']],
      [{ dates: [''] }, ['dates']],
      [{ dates: null }, ['dates']],
      [{ price: '25' }, ['price']],
      [{ price: -1 }, ['price']],
      [{ price: 1e10 }, ['price']],
      [{ price: null }, ['price']],
      [{ eventId: 'nope', name: 'x' }, ['eventId']],
      [{ eventId: randomUUID(), name: 'x' }, ['eventId']],
      // Another event's id and another failing field: both named, as every failing field is.
      [{ eventId: randomUUID(), name: '', price: '1' }, ['eventId', 'name', 'price']],
      [{ eventId: randomUUID().toUpperCase(), typo: 1 }, ['eventId', 'typo']],
      [{ eventDescripton: 'typo' }, ['eventDescripton']],
      [{ name: null, price: '1', extra: 1 }, ['name', 'price', 'extra']],
      [{}, ['body']],
      [{ eventId: id }, ['body']],
      [[{ name: 'x' }], ['body']],
    ];
    for (const [body, fields] of cases) {
      expectFieldProblem(await patch(id, body), instance, fields);
    }
    expectProblem(await patch(id, '{"name":'), 400, instance);
    expectProblem(await patch(id, 'null'), 400, instance);
    expectEvent(await get(id), sent);
  });

  it('415 for other media types (a merge patch is no create body either); 404 absent; 400 not a UUID', async () => {
    const sent = event();
    await create(sent);
    const id = sent.eventId as string;
    expectProblem(await patch(id, { name: 'x' }, 'text/plain'), 415, `/special-events/${id}`);
    expectProblem(await patch(id, { name: 'x' }, 'application/json-patch+json'), 415, `/special-events/${id}`);
    expectProblem(
      await patch(id, { name: 'x' }, 'application/merge-patch+json; charset=latin1'),
      415,
      `/special-events/${id}`,
    );
    const created = await request(t.baseUrl)
      .post('/special-events')
      .set('Authorization', AUTH)
      .set('Content-Type', MERGE_PATCH)
      .send(JSON.stringify(event()));
    expectProblem(created, 415, '/special-events');
    const missing = randomUUID();
    expectProblem(await patch(missing, { name: 'x' }), 404, `/special-events/${missing}`);
    expectFieldProblem(await patch('not-a-uuid', { name: 'x' }), '/special-events/not-a-uuid', ['eventId']);
    expectEvent(await get(id), sent);
  });

  it('If-Match: the current tag (or *) applies; a stale or weak one is 412 and changes nothing', async () => {
    const sent = event();
    await create(sent);
    const id = sent.eventId as string;
    const first = expectEvent(await get(id), sent);
    const second = expectEvent(await patch(id, { name: 'A' }).set('If-Match', first), { ...sent, name: 'A' });
    const stale = await patch(id, { name: 'B' }).set('If-Match', first);
    expectProblem(stale, 412, `/special-events/${id}`);
    expectProblem(await patch(id, { name: 'B' }).set('If-Match', `W/${second}`), 412, `/special-events/${id}`);
    expect(expectEvent(await get(id), { ...sent, name: 'A' })).toBe(second);
    expectEvent(await patch(id, { name: 'C' }).set('If-Match', `"x", ${second}`), { ...sent, name: 'C' });
    expectEvent(await patch(id, { name: 'D' }).set('If-Match', '*'), { ...sent, name: 'D' });
    // An empty If-Match holds no tag at all: taken as absent, not as one that fails.
    expectEvent(await patch(id, { name: 'E' }).set('If-Match', ''), { ...sent, name: 'E' });
  });

  it('concurrent updates with the same If-Match: exactly one 200, every other 412', async () => {
    const sent = event();
    await create(sent);
    const id = sent.eventId as string;
    const etag = expectEvent(await get(id), sent);
    const names = Array.from({ length: 12 }, (_, i) => `Concurrent ${i}`);
    const answers = await Promise.all(names.map((name) => patch(id, { name }).set('If-Match', etag)));
    const statuses = answers.map((res) => res.status).sort((a, b) => a - b);
    expect(statuses).toEqual([200, ...Array<number>(names.length - 1).fill(412)]);
    const winner = answers.find((res) => res.status === 200) as Response;
    expectEvent(await get(id), winner.body as Body);
    expect((await get(id)).headers.etag).toBe(winner.headers.etag);
  });

  it('concurrent updates without If-Match of different fields: all apply, none is lost', async () => {
    const sent = event();
    await create(sent);
    const id = sent.eventId as string;
    const changes: Body[] = [
      { name: 'N' },
      { location: 'L' },
      { eventDescription: 'D' },
      { dates: ['x'] },
      { price: 7 },
    ];
    const answers = await Promise.all(changes.map((change) => patch(id, change)));
    for (const res of answers) expectStatus(res, 200);
    expectEvent(await get(id), { ...sent, ...Object.assign({}, ...changes) });
  });
});

// ---------------------------------------------------------------------------------------------
// Exact values on every read
// ---------------------------------------------------------------------------------------------

describe('what was stored comes back byte for byte from get and list', () => {
  const PRICES = [92007.34631975321, 0.1, 1e-7, 999999999.99, 19.99, 0.30000000000000004, 1e9];
  const TEXTS = {
    name: 'cafe\u0301 👩‍👩‍👧 🦀 Z\u0351\u036b',
    location: 'متحف · מוזיאון · 日本語',
    eventDescription: 'e\u0301 \u200f RTL مرحبا \u202e reversed \u202c 𝄞 "q" \\ \u2028 end',
  };

  it.each(PRICES)(
    'price %s, with emoji, combining marks and right-to-left text, after create and after update',
    async (price) => {
      const y = freshYear();
      const sent = event({ ...TEXTS, dates: [`${y}-04-01`, 'caf\u00e9', 'cafe\u0301'], price });
      const created = await create(sent);
      expect(created.text).toContain(`"price":${JSON.stringify(price)}`);
      const id = sent.eventId as string;
      const fromGet = await get(id);
      expect(fromGet.text).toBe(created.text);
      const fromList = await list(`?startDate=${y}-04-01&endDate=${y}-04-01`);
      expect(fromList.text).toBe(`[${created.text}]`);

      // The same through an update (a different price, then the original back).
      const other = price === 0.1 ? 0.2 : 0.1;
      expectStatus(await patch(id, { price: other, name: `${TEXTS.name}!` }), 200);
      const updated = await patch(id, { price, name: TEXTS.name });
      expectStatus(updated, 200);
      expect(updated.text).toBe(created.text);
      expect((await get(id)).text).toBe(created.text);
      expect((await list(`?startDate=${y}-04-01&endDate=${y}-04-01`)).text).toBe(`[${created.text}]`);
    },
  );
});

describe('concurrent creates with ISO dates (one batch with their date rows on MySQL)', () => {
  it('each 201 answers with its own event and Location, and each is listed by its dates', async () => {
    const y = freshYear();
    const events = Array.from({ length: 30 }, (_, i) =>
      event({ dates: [`${y}-01-${String(1 + i).padStart(2, '0')}`] }),
    );
    const answers = await Promise.all(
      events.map((sent) => request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(sent)),
    );
    answers.forEach((res, i) => {
      expectStatus(res, 201);
      expect(res.body).toStrictEqual(events[i]);
      expect(res.headers.location).toBe(`/special-events/${events[i].eventId as string}`);
    });
    expect(await followAll(`/special-events?startDate=${y}-01-01&endDate=${y}-12-31&limit=100`)).toStrictEqual(events);
  });
});

// ---------------------------------------------------------------------------------------------
// Anonymous callers
// ---------------------------------------------------------------------------------------------

describe('without credentials, the new operations answer 401 and change nothing', () => {
  it('list with parameters, get with If-None-Match, patch with If-Match', async () => {
    const sent = event();
    await create(sent);
    const id = sent.eventId as string;
    const etag = expectEvent(await get(id), sent);
    expectUnauthorized(await request(t.baseUrl).get('/special-events?startDate=2026-01-01&limit=5'), '/special-events');
    expectUnauthorized(await request(t.baseUrl).get('/special-events?limit=0'), '/special-events');
    expectUnauthorized(
      await request(t.baseUrl).get(`/special-events/${id}`).set('If-None-Match', etag),
      `/special-events/${id}`,
    );
    const anonymousPatch = await request(t.baseUrl)
      .patch(`/special-events/${id}`)
      .set('Content-Type', MERGE_PATCH)
      .set('If-Match', etag)
      .send(JSON.stringify({ name: 'Hijacked' }));
    expectUnauthorized(anonymousPatch, `/special-events/${id}`);
    expect(anonymousPatch.headers['www-authenticate']).toBe(CHALLENGE);
    expect(expectEvent(await get(id), sent)).toBe(etag);
  });
});
