import { randomUUID } from 'node:crypto';
import request, { type Response } from 'supertest';
import { describe, expect, it, vi } from 'vitest';
import { DataSource } from 'typeorm';
import { BatchedWrites } from '../../src/database/batched-writes.js';
import { Sql } from '../../src/database/sql.js';
import { SqliteGroupCommit } from '../../src/database/sqlite-group-commit.js';
import { SpecialEvent } from '../../src/special-events/special-event.entity.js';
import { MysqlSpecialEventsRepository } from '../../src/special-events/special-events.repository.mysql.js';
import { type Body, CHALLENGE, expectProblem, expectStatus } from '../helpers/problem-assertions.js';
import { sendTogether as sendAllTogether } from '../helpers/raw-http.js';
import { AUTH, useTestApp } from '../helpers/test-app.js';

/**
 * End-to-end tests of POST /special-events and DELETE /special-events/{eventId} (docs/api.md),
 * through TCP on the app built exactly as main.ts builds it. Database-agnostic: the state is only
 * ever observed through the HTTP API (a 409 on a second create means "stored", a 404 on DELETE
 * means "not stored"), so the same file runs on SQLite and MySQL.
 */

const t = useTestApp();

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const EVENT_KEYS = ['dates', 'eventDescription', 'eventId', 'location', 'name', 'price'];
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const MAX_BODY_BYTES = 256 * 1024;
const CRAB = '🦀'; // one code point, two UTF-16 units, four UTF-8 bytes

function validEvent(overrides: Body = {}): Body {
  return {
    eventId: randomUUID(),
    name: 'Mermaid Treasure Identification and Analysis',
    location: 'Under the seaaa 🦀 🎶 🌊.',
    eventDescription: 'Join us as we review and classify a rare collection of 20 thingamabobs.',
    dates: ['2025-09-05', '2025-09-08'],
    price: 12.5,
    ...overrides,
  };
}

function without(body: Body, key: string): Body {
  const copy = { ...body };
  delete copy[key];
  return copy;
}

/** A UUID with the given version nibble (RFC variant kept from randomUUID). */
function uuidOfVersion(version: string): string {
  const id = randomUUID();
  return `${id.slice(0, 14)}${version}${id.slice(15)}`;
}

function post(body: unknown): request.Test {
  return request(t.baseUrl)
    .post('/special-events')
    .set('Authorization', AUTH)
    .send(body as object);
}

/** Sends `text` as the body, byte for byte, with the given Content-Type (none when null). */
function postRaw(text: string, contentType: string | null = 'application/json'): request.Test {
  const req = request(t.baseUrl).post('/special-events').set('Authorization', AUTH);
  // A Buffer body makes superagent send no Content-Type of its own.
  return contentType === null ? req.send(Buffer.from(text, 'utf8')) : req.set('Content-Type', contentType).send(text);
}

function del(eventId: string, cookie?: string): request.Test {
  const req = request(t.baseUrl).delete(`/special-events/${eventId}`).set('Authorization', AUTH);
  return cookie === undefined ? req : req.set('Cookie', cookie);
}

/** `sendTogether` of raw-http.ts, the answers read back as supertest's. */
async function sendTogether(requests: readonly { method: 'POST' | 'DELETE'; eventId: string; body?: Body }[]) {
  const answers = await sendAllTogether(
    t,
    requests.map(({ method, eventId, body }) => ({
      method,
      path: method === 'POST' ? '/special-events' : `/special-events/${eventId}`,
      authorization: AUTH,
      body,
    })),
  );
  return answers.map(
    ({ status, headers, body, json }) => ({ status, headers, text: body, body: json ?? {} }) as Response,
  );
}

/**
 * Records the batches the writes form: the group commit's transactions on SQLite; on MySQL the
 * batched writes' batches (Sql.batched, Sql.batchedGuarded), the store's INSERTs (events per
 * statement, batched or alone) and the batches' all-or-none transactions (Sql's allOrNone), here
 * `DELETE … IN`s (whether each committed or fell back to row-by-row deletes).
 */
function recordBatches() {
  const mysql = t.app.get(DataSource).options.type === 'mysql';
  const sizes = (spy: { mock: { calls: unknown[][] } }) => spy.mock.calls.map(([batch]) => (batch as unknown[]).length);
  if (!mysql) {
    const runBatch = vi.spyOn(
      SqliteGroupCommit.prototype as unknown as { runBatch(b: unknown[]): unknown },
      'runBatch',
    );
    return { mysql, batches: () => sizes(runBatch), inserts: () => [], deletesIn: async () => [] };
  }
  type Batching = Record<'runBatch', (b: unknown[]) => unknown>;
  const runBatch = vi.spyOn(BatchedWrites.prototype as unknown as Batching, 'runBatch');
  // Called with a batch's statements and the rows its first must change: one per item.
  const allOrNone = vi.spyOn(
    Sql.prototype as unknown as Record<'allOrNone', (together: unknown, rows: number) => Promise<boolean>>,
    'allOrNone',
  );
  const insertEvents = vi.spyOn(
    MysqlSpecialEventsRepository.prototype as unknown as Record<'insertEvents', (b: unknown[]) => unknown>,
    'insertEvents',
  );
  return {
    mysql,
    batches: () => sizes(runBatch),
    inserts: () => sizes(insertEvents),
    deletesIn: async () =>
      Promise.all(
        allOrNone.mock.calls.map(async ([, rows], i) => ({
          ids: rows,
          committed: (await allOrNone.mock.results[i].value) as boolean,
        })),
      ),
  };
}

/** A 201 whose headers and body are exactly the event as sent (eventId lowercased). */
function expectCreated(res: Response, sent: Body): void {
  expectStatus(res, 201);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  const eventId = (sent.eventId as string).toLowerCase();
  expect(res.headers.location).toBe(`/special-events/${eventId}`);
  expect(Object.keys(res.body as Body).sort()).toEqual(EVENT_KEYS);
  expect(res.body).toStrictEqual({ ...sent, eventId });
}

/**
 * A 400 validation problem: the base members plus `errors`, each entry exactly { field, message },
 * naming exactly the `fields` given (no more, no fewer).
 */
function expectFieldProblem(res: Response, instance: string, fields: string[]): void {
  expectProblem(res, 400, instance, true);
  const body = res.body as Body;
  expect(body.type).toBe('urn:museum:problem:validation');
  const errors = body.errors as { field: unknown; message: unknown }[];
  expect(Array.isArray(errors)).toBe(true);
  expect(errors.length).toBeGreaterThan(0);
  for (const error of errors) {
    expect(Object.keys(error).sort()).toEqual(['field', 'message']);
    expect(error.field).toEqual(expect.any(String));
    expect(error.message).toEqual(expect.any(String));
    expect((error.message as string).length).toBeGreaterThan(0);
  }
  expect([...new Set(errors.map((error) => error.field as string))].sort()).toEqual([...fields].sort());
}

function expectValidationProblem(res: Response, fields: string[]): void {
  expectFieldProblem(res, '/special-events', fields);
}

/**
 * After a rejected create: nothing is stored under `eventId`. DELETE finds nothing (a stored event
 * would be deleted with 204 and fail this), and a valid create with that id then succeeds.
 */
async function expectNothingStored(eventId: string): Promise<void> {
  expectProblem(await del(eventId), 404, `/special-events/${eventId}`);
  const event = validEvent({ eventId });
  expectCreated(await post(event), event);
  expect((await del(eventId)).status).toBe(204);
}

/** A DELETE problem; its instance is the path as requested. */
async function expectDeleteProblem(eventId: string, status: number): Promise<void> {
  expectProblem(await del(eventId), status, `/special-events/${eventId}`);
}

async function expectDeleteValidationProblem(eventId: string): Promise<void> {
  expectFieldProblem(await del(eventId), `/special-events/${eventId}`, ['eventId']);
}

// ---------------------------------------------------------------------------------------------
// POST /special-events
// ---------------------------------------------------------------------------------------------

describe('POST /special-events: success', () => {
  it('answers 201 with Location, JSON and exactly the six fields as sent', async () => {
    const event = validEvent();
    const res = await post(event);
    expectCreated(res, event);
    // Stored: a second create with the same id conflicts.
    expectProblem(await post(validEvent({ eventId: event.eventId })), 409, '/special-events');
  });

  it.each([
    ['absent', undefined],
    ['null', null],
  ])('generates a lowercase UUIDv7 when eventId is %s', async (_label, eventId) => {
    const sent = eventId === undefined ? without(validEvent(), 'eventId') : validEvent({ eventId });
    const before = Date.now();
    const res = await post(sent);
    const after = Date.now();
    expectStatus(res, 201);
    const id = (res.body as Body).eventId as string;
    expect(id).toMatch(UUID_V7);
    // The first 48 bits are the creation time in Unix milliseconds.
    const millis = Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16);
    expect(millis).toBeGreaterThanOrEqual(before - 1000);
    expect(millis).toBeLessThanOrEqual(after + 1000);
    expect(res.headers.location).toBe(`/special-events/${id}`);
    expect(res.body).toStrictEqual({ ...sent, eventId: id });
    expect((await del(id)).status).toBe(204);
  });

  it('generates time-ordered ids for creates in quick succession', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await post(validEvent({ eventId: i % 2 === 0 ? null : undefined }));
      expectStatus(res, 201);
      ids.push((res.body as Body).eventId as string);
    }
    for (const id of ids) expect(id).toMatch(UUID_V7);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('stores an upper-case eventId in lowercase; DELETE ignores letter case', async () => {
    const lower = randomUUID();
    const event = validEvent({ eventId: lower.toUpperCase() });
    const res = await post(event);
    expectCreated(res, event);
    expect((res.body as Body).eventId).toBe(lower);
    // The same UUID in another case is the same event.
    expectProblem(await post(validEvent({ eventId: lower })), 409, '/special-events');
    const deleted = await del(lower.toUpperCase());
    expectStatus(deleted, 204);
    await expectDeleteProblem(lower, 404);
  });

  it('stores a mixed-case eventId in lowercase and deletes it by another case', async () => {
    const lower = `ab${randomUUID().slice(2)}`; // at least two letters: 'A' then 'b'
    let letters = 0;
    const mixed = lower.replace(/[a-f]/g, (c) => (letters++ % 2 === 0 ? c.toUpperCase() : c));
    expect(mixed).not.toBe(mixed.toLowerCase());
    expect(mixed).not.toBe(mixed.toUpperCase());
    const event = validEvent({ eventId: mixed });
    expectCreated(await post(event), event);
    expectProblem(await post(validEvent({ eventId: lower.toUpperCase() })), 409, '/special-events');
    expect((await del(lower.toUpperCase())).status).toBe(204);
    await expectDeleteProblem(mixed, 404);
  });

  it.each(['1', '3', '4', '5', '6', '7', '8'])('accepts a version %s UUID', async (version) => {
    const event = validEvent({ eventId: uuidOfVersion(version) });
    expectCreated(await post(event), event);
    expect((await del(event.eventId as string)).status).toBe(204);
  });

  it.each([
    ['Nil', '00000000-0000-0000-0000-000000000000'],
    ['Max', 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF'],
  ])('accepts the %s UUID of RFC 9562', async (_label, eventId) => {
    const event = validEvent({ eventId });
    expectCreated(await post(event), event);
    expect((await del(eventId)).status).toBe(204);
  });

  it('accepts application/json with a UTF-8 charset, in any letter case', async () => {
    for (const contentType of [
      'application/json; charset=utf-8',
      'application/json;charset=UTF-8',
      'Application/JSON; charset="utf-8"',
    ]) {
      const event = validEvent();
      expectCreated(await postRaw(JSON.stringify(event), contentType), event);
    }
  });
});

describe('POST /special-events: duplicate eventId', () => {
  it('answers 409 and leaves the stored event unchanged', async () => {
    const event = validEvent();
    expectCreated(await post(event), event);
    const other = validEvent({
      eventId: event.eventId,
      name: 'Another name',
      location: 'Elsewhere',
      eventDescription: 'Other',
      dates: [],
      price: 99,
    });
    const conflict = await post(other);
    expectProblem(conflict, 409, '/special-events');
    // Still there, exactly once.
    expectProblem(await post(other), 409, '/special-events');
    expect((await del(event.eventId as string)).status).toBe(204);
    await expectDeleteProblem(event.eventId as string, 404);
  });

  it('lets exactly one of 40 concurrent creates with one eventId succeed', async () => {
    const eventId = randomUUID();
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => post(validEvent({ eventId, name: `Concurrent ${i}` }))),
    );
    const statuses = responses.map((res) => res.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(39);
    const winner = responses.find((res) => res.status === 201);
    expect(winner?.headers.location).toBe(`/special-events/${eventId}`);
    for (const res of responses.filter((r) => r.status === 409)) expectProblem(res, 409, '/special-events');
    expect((await del(eventId)).status).toBe(204);
    await expectDeleteProblem(eventId, 404);
  });

  it('concurrent creates that share a commit each get their own answer: new, already stored, twice in one go', async () => {
    // Sent together they are written together (SQLite: one transaction; MySQL: one multi-row
    // INSERT, retried row by row when it fails): no duplicate may cost the others their event.
    const stored = validEvent({ name: 'Stored first' });
    expectCreated(await post(stored), stored);
    const twiceId = randomUUID();
    const fresh = Array.from({ length: 20 }, (_, i) => validEvent({ name: `Fresh ${i}` }));
    const again = validEvent({ eventId: stored.eventId, name: 'Must not replace the stored one' });
    const twice = [
      validEvent({ eventId: twiceId, name: 'Twice A' }),
      validEvent({ eventId: twiceId, name: 'Twice B' }),
    ];
    const sent = [...fresh.slice(0, 10), again, ...twice, ...fresh.slice(10)];
    const recorded = recordBatches();
    const responses = await sendTogether(sent.map((body) => ({ method: 'POST', eventId: '', body })));

    // One batch of all of them; on MySQL its multi-row INSERT is refused and each is inserted alone.
    expect(recorded.batches()).toEqual([sent.length]);
    expect(recorded.inserts()).toEqual(recorded.mysql ? [sent.length, ...sent.map(() => 1)] : []);

    responses.forEach((res, i) => {
      if (sent[i] === again) expectProblem(res, 409, '/special-events');
      else if (!twice.includes(sent[i])) expectCreated(res, sent[i]);
    });
    const twiceStatuses = twice.map((event) => responses[sent.indexOf(event)].status);
    expect([...twiceStatuses].sort((a, b) => a - b)).toEqual([201, 409]);
    const twiceWinner = twice[twiceStatuses.indexOf(201)];
    expectCreated(responses[sent.indexOf(twiceWinner)], twiceWinner);
    expectProblem(responses[sent.indexOf(twice[twiceStatuses.indexOf(409)])], 409, '/special-events');

    const repository = t.app.get(DataSource).getRepository(SpecialEvent);
    expect(await repository.findOneByOrFail({ eventId: twiceId })).toMatchObject({ name: twiceWinner.name });
    expect(await repository.findOneByOrFail({ eventId: stored.eventId as string })).toMatchObject({
      name: 'Stored first',
    });
    for (const event of fresh) {
      expect(await repository.findOneByOrFail({ eventId: event.eventId as string })).toMatchObject({
        name: event.name,
      });
    }
  });
  it('concurrent creates of new events that share a commit are stored together, one multi-row INSERT on MySQL', async () => {
    const sent = Array.from({ length: 16 }, (_, i) =>
      validEvent({ name: `Together ${i}`, dates: i % 2 ? [] : ['2026-01-0' + String((i % 9) + 1)] }),
    );
    const recorded = recordBatches();
    const responses = await sendTogether(sent.map((body) => ({ method: 'POST', eventId: '', body })));

    expect(recorded.batches()).toEqual([sent.length]);
    expect(recorded.inserts()).toEqual(recorded.mysql ? [sent.length] : []);
    responses.forEach((res, i) => expectCreated(res, sent[i]));
    const repository = t.app.get(DataSource).getRepository(SpecialEvent);
    for (const event of sent) {
      expect(await repository.findOneByOrFail({ eventId: event.eventId as string })).toMatchObject({
        name: event.name,
        dates: event.dates,
      });
    }
  });
});

describe('POST /special-events: the body', () => {
  it.each([
    ['an empty array', '[]'],
    ['an array of an event', JSON.stringify([validEvent()])],
  ])('rejects a JSON body that is %s with 400 naming the body', async (_label, text) => {
    expectValidationProblem(await postRaw(text), ['body']);
  });

  // Top-level scalars are not even accepted as a JSON document for this resource.
  it.each([
    ['a string', '"hello"'],
    ['a number', '42'],
    ['null', 'null'],
    ['true', 'true'],
  ])('rejects a JSON body that is %s with 400', async (_label, text) => {
    expectProblem(await postRaw(text), 400, '/special-events');
  });

  it.each([
    ['truncated', (json: string) => json.slice(0, -5)],
    ['with a trailing comma', (json: string) => `${json.slice(0, -1)},}`],
    ['in single quotes', (json: string) => json.replaceAll('"', "'")],
    ['followed by garbage', (json: string) => `${json}x`],
  ])('answers malformed JSON (%s) with 400, not 500, and stores nothing', async (_label, corrupt) => {
    const event = validEvent();
    const res = await postRaw(corrupt(JSON.stringify(event)));
    expectProblem(res, 400, '/special-events');
    await expectNothingStored(event.eventId as string);
  });

  it('answers an empty JSON body with 400 naming every required field', async () => {
    expectValidationProblem(await postRaw(''), ['name', 'location', 'eventDescription', 'dates', 'price']);
    expectValidationProblem(await postRaw('{}'), ['name', 'location', 'eventDescription', 'dates', 'price']);
  });

  it.each([
    ['text/plain', 'text/plain'],
    ['text/plain; charset=utf-8', 'text/plain; charset=utf-8'],
    ['form-urlencoded', 'application/x-www-form-urlencoded'],
    ['missing', null],
    ['application/json; charset=latin1', 'application/json; charset=latin1'],
    ['application/json; charset=utf-16', 'application/json; charset=utf-16'],
    ['application/jsonx', 'application/jsonx'],
  ])('answers Content-Type %s with 415 and stores nothing', async (_label, contentType) => {
    const event = validEvent();
    const res = await postRaw(JSON.stringify(event), contentType);
    expectProblem(res, 415, '/special-events');
    await expectNothingStored(event.eventId as string);
  });

  it('answers a 300 KiB JSON string with 413', async () => {
    const res = await postRaw(JSON.stringify('a'.repeat(300 * 1024)));
    expectProblem(res, 413, '/special-events');
  });

  it('answers a 300 KiB event with 413 (not 400) and stores nothing', async () => {
    const event = validEvent({ eventDescription: 'x'.repeat(300 * 1024) });
    const res = await post(event);
    expectProblem(res, 413, '/special-events');
    await expectNothingStored(event.eventId as string);
  });

  it('reads a body of exactly 256 KiB and answers one byte more with 413', async () => {
    const eventId = randomUUID();
    const padded = (bytes: number): string => {
      const head = `{"eventId":"${eventId}","pad":"`;
      return `${head}${'p'.repeat(bytes - head.length - 2)}"}`;
    };
    const atLimit = padded(MAX_BODY_BYTES);
    expect(Buffer.byteLength(atLimit)).toBe(MAX_BODY_BYTES);
    expectValidationProblem(await postRaw(atLimit), ['pad', 'name', 'location', 'eventDescription', 'dates', 'price']);
    const overLimit = padded(MAX_BODY_BYTES + 1);
    expect(Buffer.byteLength(overLimit)).toBe(MAX_BODY_BYTES + 1);
    expectProblem(await postRaw(overLimit), 413, '/special-events');
    await expectNothingStored(eventId);
  });
});

describe('POST /special-events: text fields', () => {
  const textFields = ['name', 'location', 'eventDescription'] as const;
  const badValues: [string, unknown][] = [
    ['empty', ''],
    ['a space', ' '],
    ['only white space', ' \t\r\n '],
    ['only Unicode white space', '\u00a0\u2003\u3000'],
    ['only invisible format characters', '\u200b\u200d'],
    ['a number', 25],
    ['zero', 0],
    ['true', true],
    ['null', null],
    ['an array', ['a']],
    ['an object', { text: 'a' }],
  ];

  for (const field of textFields) {
    it.each(badValues)(`rejects ${field} that is %s with 400 naming it, storing nothing`, async (_label, value) => {
      const event = validEvent({ [field]: value });
      expectValidationProblem(await post(event), [field]);
      await expectNothingStored(event.eventId as string);
    });

    it(`rejects a missing ${field} with 400 naming it, storing nothing`, async () => {
      const event = without(validEvent(), field);
      expectValidationProblem(await post(event), [field]);
      await expectNothingStored(event.eventId as string);
    });

    it(`accepts ${field} with surrounding white space, kept as sent`, async () => {
      const event = validEvent({ [field]: '  \tpadded\n ' });
      expectCreated(await post(event), event);
    });
  }

  it.each([
    ['name', 200],
    ['location', 200],
    ['eventDescription', 5000],
  ])('limits %s to %i code points (not UTF-16 units)', async (field, max) => {
    // Astral characters: max code points are 2 × max UTF-16 units and 4 × max UTF-8 bytes.
    const atMax = validEvent({ [field]: CRAB.repeat(max) });
    expect((atMax[field] as string).length).toBe(2 * max);
    expectCreated(await post(atMax), atMax);

    const asciiMax = validEvent({ [field]: 'a'.repeat(max) });
    expectCreated(await post(asciiMax), asciiMax);

    // A base character plus a variation selector is two code points.
    const selectors = validEvent({ [field]: '❤️'.repeat(max / 2) });
    expectCreated(await post(selectors), selectors);

    for (const tooLong of [CRAB.repeat(max + 1), 'a'.repeat(max + 1), `${'❤️'.repeat(max / 2)}a`]) {
      const event = validEvent({ [field]: tooLong });
      expectValidationProblem(await post(event), [field]);
      await expectNothingStored(event.eventId as string);
    }
  });

  it('rejects text that is not well-formed Unicode (a lone surrogate) with 400, not 500', async () => {
    const eventId = randomUUID();
    const text = JSON.stringify(validEvent({ eventId })).replace('"Mermaid', '"\\ud800Mermaid');
    expectValidationProblem(await postRaw(text), ['name']);
    await expectNothingStored(eventId);
  });

  it('does not coerce: name 25 is not a name', async () => {
    const event = validEvent({ name: 25, location: 7, eventDescription: false });
    expectValidationProblem(await post(event), ['name', 'location', 'eventDescription']);
    await expectNothingStored(event.eventId as string);
  });
});

describe('POST /special-events: dates', () => {
  it('accepts an empty array', async () => {
    const event = validEvent({ dates: [] });
    expectCreated(await post(event), event);
  });

  it('accepts 500 dates and rejects 501', async () => {
    const dates = Array.from({ length: 500 }, (_, i) => `2026-${String((i % 12) + 1).padStart(2, '0')}-${i}`);
    const event = validEvent({ dates });
    expectCreated(await post(event), event);

    const tooMany = validEvent({ dates: [...dates, '2027-01-01'] });
    expectValidationProblem(await post(tooMany), ['dates']);
    await expectNothingStored(tooMany.eventId as string);
  });

  it('accepts dates of 64 code points and rejects 65', async () => {
    for (const date of ['d'.repeat(64), CRAB.repeat(64)]) {
      const event = validEvent({ dates: ['2025-01-01', date] });
      expectCreated(await post(event), event);
    }
    for (const date of ['d'.repeat(65), CRAB.repeat(65)]) {
      const event = validEvent({ dates: ['2025-01-01', date] });
      expectValidationProblem(await post(event), ['dates']);
      await expectNothingStored(event.eventId as string);
    }
  });

  it.each([
    ['an empty item', ['2025-01-01', '']],
    ['a number item', ['2025-01-01', 20250101]],
    ['a null item', [null]],
    ['a boolean item', [true]],
    ['an object item', [{ date: '2025-01-01' }]],
    ['an array item', [['2025-01-01']]],
    ['a string instead of an array', '2025-01-01'],
    ['an object instead of an array', { 0: '2025-01-01' }],
    ['null', null],
    ['a number', 3],
  ])('rejects dates with %s with 400 naming dates', async (_label, dates) => {
    const event = validEvent({ dates });
    expectValidationProblem(await post(event), ['dates']);
    await expectNothingStored(event.eventId as string);
  });

  it('rejects missing dates with 400 naming dates', async () => {
    const event = without(validEvent(), 'dates');
    expectValidationProblem(await post(event), ['dates']);
    await expectNothingStored(event.eventId as string);
  });

  it('keeps dates exactly and in the order sent, commas and duplicates included', async () => {
    const dates = ['2025-12-31', '1 May, 2025', '2025-01-01', 'May 2, 2025, 10:00', '2025-01-01', ' spaced ', 'a,b,,c'];
    const event = validEvent({ dates });
    const res = await post(event);
    expectCreated(res, event);
    expect((res.body as Body).dates).toStrictEqual(dates);
  });
});

describe('POST /special-events: price', () => {
  it.each([0, 1e9, 19.99, 0.1, 1e-7, 0.30000000000000004, 123456789.123, 5, 999999999.99])(
    'round-trips price %s exactly',
    async (price) => {
      const event = validEvent({ price });
      const res = await post(event);
      expectCreated(res, event);
      expect((res.body as Body).price).toBe(price);
    },
  );

  it.each([
    ['-0.01', -0.01],
    ['-1', -1],
    ['1e9 + 1', 1e9 + 1],
    ['1e9 + 0.01', 1_000_000_000.01],
    ['the string "25"', '25'],
    ['the string "19.99"', '19.99'],
    ['true', true],
    ['null', null],
    ['an array', [25]],
    ['an object', { amount: 25 }],
  ])('rejects price %s with 400 naming price', async (_label, price) => {
    const event = validEvent({ price });
    expectValidationProblem(await post(event), ['price']);
    await expectNothingStored(event.eventId as string);
  });

  it('rejects a missing price with 400 naming price', async () => {
    const event = without(validEvent(), 'price');
    expectValidationProblem(await post(event), ['price']);
    await expectNothingStored(event.eventId as string);
  });

  it.each(['1e400', '-1e400'])('rejects a price that overflows to infinity (%s) with 400', async (literal) => {
    const eventId = randomUUID();
    const text = JSON.stringify(validEvent({ eventId, price: 424242 })).replace('424242', literal);
    expect(text).toContain(`"price":${literal}`);
    expectValidationProblem(await postRaw(text), ['price']);
    await expectNothingStored(eventId);
  });
});

describe('POST /special-events: eventId', () => {
  it.each([
    ['not a UUID', 'not-a-uuid'],
    ['empty', ''],
    ['a number', 123],
    ['version 0', uuidOfVersion('0')],
    ['version 9', uuidOfVersion('9')],
    ['with a non-RFC variant', `${randomUUID().slice(0, 19)}c${randomUUID().slice(20)}`],
    ['without hyphens', randomUUID().replaceAll('-', '')],
    ['in braces', `{${randomUUID()}}`],
    ['with surrounding spaces', ` ${randomUUID()} `],
    ['a URN', `urn:uuid:${randomUUID()}`],
    ['an object', { id: randomUUID() }],
    ['true', true],
  ])('rejects an eventId that is %s with 400 naming eventId', async (_label, eventId) => {
    const res = await post(validEvent({ eventId }));
    expectValidationProblem(res, ['eventId']);
  });
});

describe('POST /special-events: unknown and dangerous properties', () => {
  it('rejects a typo (eventDescripton) by name instead of dropping the data', async () => {
    const event: Body = { ...validEvent(), eventDescripton: 'typo' };
    expectValidationProblem(await post(event), ['eventDescripton']);
    await expectNothingStored(event.eventId as string);
  });

  it('names both the typo and the field it misses', async () => {
    const event: Body = { ...without(validEvent(), 'eventDescription'), eventDescripton: 'typo' };
    expectValidationProblem(await post(event), ['eventDescripton', 'eventDescription']);
    await expectNothingStored(event.eventId as string);
  });

  it('names every failing field at once', async () => {
    const event = {
      eventId: 'nope',
      name: 25,
      location: '   ',
      eventDescription: null,
      dates: '2025-01-01',
      price: '25',
      colour: 'red',
    };
    expectValidationProblem(await post(event), [
      'eventId',
      'name',
      'location',
      'eventDescription',
      'dates',
      'price',
      'colour',
    ]);
  });

  it('names every failing field at once, each missing field included', async () => {
    const eventId = randomUUID();
    expectValidationProblem(await post({ eventId, price: -5, extra: 1 }), [
      'name',
      'location',
      'eventDescription',
      'dates',
      'price',
      'extra',
    ]);
    await expectNothingStored(eventId);
  });

  it.each([
    ['__proto__', '{"isAdmin":true}'],
    ['constructor', '{"prototype":{"isAdmin":true}}'],
    ['prototype', '{"isAdmin":true}'],
  ])('rejects a %s key (raw JSON) with 400 naming it', async (key, value) => {
    const eventId = randomUUID();
    const json = JSON.stringify(validEvent({ eventId }));
    const text = `${json.slice(0, -1)},"${key}":${value}}`;
    expectValidationProblem(await postRaw(text), [key]);
    await expectNothingStored(eventId);
  });

  it('rejects __proto__ and constructor together, naming both', async () => {
    const eventId = randomUUID();
    const json = JSON.stringify(validEvent({ eventId }));
    const text = `{"__proto__":{"price":"x"},"constructor":{"name":1},${json.slice(1)}`;
    expectValidationProblem(await postRaw(text), ['__proto__', 'constructor']);
    await expectNothingStored(eventId);
  });
});

describe('POST /special-events: limits and Unicode', () => {
  it('accepts the largest event the limits allow and returns it identically', async () => {
    const event = validEvent({
      name: CRAB.repeat(200),
      location: CRAB.repeat(200),
      eventDescription: CRAB.repeat(5000),
      dates: Array.from({ length: 500 }, () => CRAB.repeat(64)),
      price: 1e9,
    });
    const bytes = Buffer.byteLength(JSON.stringify(event));
    expect(bytes).toBeGreaterThan(140_000);
    expect(bytes).toBeLessThan(MAX_BODY_BYTES);
    const res = await post(event);
    expectCreated(res, event);
    expectProblem(await post(validEvent({ eventId: event.eventId })), 409, '/special-events');
  });

  it('stores and returns any Unicode text unchanged (not normalized)', async () => {
    const nfc = 'caf\u00e9'; // é precomposed
    const nfd = 'cafe\u0301'; // e + combining acute accent
    expect(nfc.normalize('NFC')).toBe(nfd.normalize('NFC'));
    const event = validEvent({
      name: `${nfd} 👩‍👩‍👧 🦀 🇯🇵 👍🏽 ❤️`,
      location: 'متحف القاهرة · מוזיאון ישראל · \u200fRTL\u200e',
      eventDescription: [
        nfc,
        nfd,
        'Z\u0351\u036b\u0343a\u0310\u0308lgo', // stacked combining marks
        '𠜎𠜱𠝹𠱓 𝄞 𝕳𝖊𝖑𝖑𝖔', // astral CJK, music, mathematical letters
        '👨‍👩‍👧‍👦 🏳️‍🌈 🧑🏿‍🚀', // ZWJ sequences
        'Ελληνικά Русский 日本語 한국어 हिन्दी ไทย',
        '"quotes" \\ back\\slash \u2028 \u2029 tab\tnew\nline',
      ].join(' | '),
      dates: [nfc, nfd, '٢٠٢٥-٠٥-٠١', '2025年5月1日', '👩‍👩‍👧'],
    });
    const res = await post(event);
    expectCreated(res, event);
    const body = res.body as Body;
    for (const key of ['name', 'location', 'eventDescription'] as const) {
      expect(Buffer.from(body[key] as string, 'utf8').equals(Buffer.from(event[key] as string, 'utf8'))).toBe(true);
    }
    const dates = body.dates as string[];
    expect(dates[0]).toBe(nfc);
    expect(dates[1]).toBe(nfd);
    expect(dates[0]).not.toBe(dates[1]);
    expect((body.name as string).startsWith('cafe\u0301')).toBe(true);
    expectProblem(await post(validEvent({ eventId: event.eventId })), 409, '/special-events');
  });

  it('keeps NFC and NFD names of otherwise equal events distinct', async () => {
    const a = validEvent({ name: 'Ame\u0301lie' });
    const b = validEvent({ name: 'Am\u00e9lie' });
    expectCreated(await post(a), a);
    expectCreated(await post(b), b);
    expect((await del(a.eventId as string)).status).toBe(204);
    expect((await del(b.eventId as string)).status).toBe(204);
  });
});

// ---------------------------------------------------------------------------------------------
// DELETE /special-events/{eventId}
// ---------------------------------------------------------------------------------------------

describe('DELETE /special-events/{eventId}', () => {
  it('concurrent deletes that share a commit each get their own answer: existing, missing, twice in one go', async () => {
    // Sent together they are written together (SQLite: one transaction; MySQL: one DELETE … IN,
    // rolled back and done one by one when it cannot delete them all).
    const existing = Array.from({ length: 12 }, (_, i) => validEvent({ name: `To delete ${i}` }));
    const kept = validEvent({ name: 'Kept' });
    for (const event of [...existing, kept]) expectCreated(await post(event), event);
    const twiceId = existing[0].eventId as string;
    const missing: string[] = [randomUUID(), randomUUID()];
    const ids = [...existing.map((event) => event.eventId as string), ...missing, twiceId];
    const recorded = recordBatches();
    const responses = await sendTogether(ids.map((eventId) => ({ method: 'DELETE', eventId })));

    // One batch of all of them; on MySQL the id twice sends it row by row at once.
    expect(recorded.batches()).toEqual([ids.length]);
    expect(await recorded.deletesIn()).toEqual([]);

    const statuses = responses.map((res) => res.status);
    const once = ids.flatMap((id, i) => (id === twiceId ? [] : [[id, statuses[i]]]));
    expect(once).toEqual(ids.flatMap((id) => (id === twiceId ? [] : [[id, missing.includes(id) ? 404 : 204]])));
    for (const id of missing) expectProblem(responses[ids.indexOf(id)], 404, `/special-events/${id}`);
    const twiceStatuses = ids.flatMap((id, i) => (id === twiceId ? [statuses[i]] : []));
    expect([...twiceStatuses].sort((a, b) => a - b)).toEqual([204, 404]);

    const repository = t.app.get(DataSource).getRepository(SpecialEvent);
    for (const event of existing)
      await expect(repository.existsBy({ eventId: event.eventId as string })).resolves.toBe(false);
    await expect(repository.existsBy({ eventId: kept.eventId as string })).resolves.toBe(true);
  });

  it('concurrent deletes that share a commit: one DELETE … IN on MySQL, rolled back and done row by row when one is missing', async () => {
    const existing = Array.from({ length: 12 }, (_, i) => validEvent({ name: `To delete ${i}` }));
    for (const event of existing) expectCreated(await post(event), event);
    const first = existing.slice(0, 6).map((event) => event.eventId as string);
    const missing = randomUUID();
    const mixed = [...first.slice(0, 3), missing, ...first.slice(3)];
    const second = existing.slice(6).map((event) => event.eventId as string);
    const recorded = recordBatches();

    const mixedResponses = await sendTogether(mixed.map((eventId) => ({ method: 'DELETE', eventId })));
    expect(mixedResponses.map((res) => res.status)).toEqual(mixed.map((id) => (id === missing ? 404 : 204)));
    expectProblem(mixedResponses[3], 404, `/special-events/${missing}`);
    const secondResponses = await sendTogether(second.map((eventId) => ({ method: 'DELETE', eventId })));
    expect(secondResponses.map((res) => res.status)).toEqual(second.map(() => 204));

    expect(recorded.batches()).toEqual([mixed.length, second.length]);
    expect(await recorded.deletesIn()).toEqual(
      recorded.mysql
        ? [
            { ids: mixed.length, committed: false },
            { ids: second.length, committed: true },
          ]
        : [],
    );
    const repository = t.app.get(DataSource).getRepository(SpecialEvent);
    for (const event of existing)
      await expect(repository.existsBy({ eventId: event.eventId as string })).resolves.toBe(false);
  });

  it('answers 204 with an empty body, then 404 once deleted', async () => {
    const event = validEvent();
    expectCreated(await post(event), event);
    const res = await del(event.eventId as string);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(res.headers['content-type']).toBeUndefined();
    expect(res.headers['content-length'] ?? '0').toBe('0');
    await expectDeleteProblem(event.eventId as string, 404);
    await expectDeleteProblem(event.eventId as string, 404);
  });

  it('answers 404 for an event that never existed', async () => {
    await expectDeleteProblem(randomUUID(), 404);
    await expectDeleteProblem(uuidOfVersion('7'), 404);
    await expectDeleteProblem('00000000-0000-0000-0000-000000000000', 404);
  });

  it.each([
    ['not-a-uuid', 'not-a-uuid'],
    ['123', '123'],
    ['a version 0 UUID', uuidOfVersion('0')],
    ['a version 9 UUID', uuidOfVersion('9')],
    ['a UUID with a non-RFC variant', `${randomUUID().slice(0, 19)}c${randomUUID().slice(20)}`],
    ['a UUID without hyphens', randomUUID().replaceAll('-', '')],
    ['a UUID with an extra character', `${randomUUID()}0`],
    ['a very long id', 'a'.repeat(2000)],
    ['a UUID with a trailing space (encoded)', `${randomUUID()}%20`],
  ])('answers 400 for %s', async (_label, eventId) => {
    await expectDeleteValidationProblem(eventId);
  });

  it('does not delete anything when the id is invalid', async () => {
    const event = validEvent();
    expectCreated(await post(event), event);
    await expectDeleteValidationProblem(`${event.eventId as string}0`);
    expectProblem(await post(event), 409, '/special-events');
    expect((await del(event.eventId as string)).status).toBe(204);
  });

  it.each([
    ['no cookie', undefined],
    ['Cookie test=anything', 'test=anything'],
    ['Cookie test= (empty)', 'test='],
    ['Cookie test with other cookies', 'a=1; test=%E2%9C%93; b=2'],
  ])('gives the same outcomes with %s', async (_label, cookie) => {
    const event = validEvent();
    expectCreated(await post(event), event);
    const deleted = await del(event.eventId as string, cookie);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    const again = await del(event.eventId as string, cookie);
    expectProblem(again, 404, `/special-events/${event.eventId as string}`);
    expectFieldProblem(await del('not-a-uuid', cookie), '/special-events/not-a-uuid', ['eventId']);
    const fresh = randomUUID();
    expectProblem(await del(fresh, cookie), 404, `/special-events/${fresh}`);
  });

  it('lets a deleted eventId be used again by a later create', async () => {
    const event = validEvent();
    expectCreated(await post(event), event);
    expect((await del(event.eventId as string)).status).toBe(204);
    const again = validEvent({ eventId: event.eventId, name: 'The sequel', price: 3 });
    expectCreated(await post(again), again);
    expect((await del(event.eventId as string)).status).toBe(204);
    await expectDeleteProblem(event.eventId as string, 404);
  });

  it('deletes only the event named', async () => {
    const a = validEvent();
    const b = validEvent();
    expectCreated(await post(a), a);
    expectCreated(await post(b), b);
    expect((await del(a.eventId as string)).status).toBe(204);
    expectProblem(await post(b), 409, '/special-events');
    expect((await del(b.eventId as string)).status).toBe(204);
  });
});

// ---------------------------------------------------------------------------------------------
// Other methods, and authentication first
// ---------------------------------------------------------------------------------------------

describe('other methods', () => {
  const id = randomUUID();
  const cases: ['put' | 'patch' | 'delete' | 'post', string, string][] = [
    ['put', '/special-events', 'GET, HEAD, POST'],
    ['patch', '/special-events', 'GET, HEAD, POST'],
    ['delete', '/special-events', 'GET, HEAD, POST'],
    ['put', `/special-events/${id}`, 'GET, HEAD, PATCH, DELETE'],
    ['post', `/special-events/${id}`, 'GET, HEAD, PATCH, DELETE'],
  ];

  it.each(cases)('%s %s with valid credentials: 405 with Allow %s', async (method, path, allow) => {
    const res = await request(t.baseUrl)[method](path).set('Authorization', AUTH);
    expectProblem(res, 405, path);
    expect(res.headers.allow).toBe(allow);
  });

  it.each(cases)('%s %s without credentials: 401 first', async (method, path) => {
    const res = await request(t.baseUrl)[method](path);
    expectProblem(res, 401, path);
    expect(res.headers['www-authenticate']).toBe(CHALLENGE);
    expect(res.headers.allow).toBeUndefined();
  });
});

describe('authentication comes first', () => {
  const wrong = `Basic ${Buffer.from('tester:wrong', 'utf8').toString('base64')}`;

  it.each([
    ['a valid event', (req: request.Test) => req.send(validEvent())],
    ['malformed JSON', (req: request.Test) => req.set('Content-Type', 'application/json').send('{"name":')],
    ['text/plain', (req: request.Test) => req.set('Content-Type', 'text/plain').send('hello')],
    ['a 300 KiB body', (req: request.Test) => req.send({ pad: 'x'.repeat(300 * 1024) })],
    ['an invalid event', (req: request.Test) => req.send({ name: 25 })],
  ])('POST with %s and no or wrong credentials: 401, nothing stored', async (_label, send) => {
    for (const authorization of [undefined, wrong]) {
      const req = request(t.baseUrl).post('/special-events');
      const res = await send(authorization === undefined ? req : req.set('Authorization', authorization));
      expectProblem(res, 401, '/special-events');
      expect(res.headers['www-authenticate']).toBe(CHALLENGE);
    }
  });

  it('a create without credentials stores nothing', async () => {
    const event = validEvent();
    const res = await request(t.baseUrl).post('/special-events').send(event);
    expectProblem(res, 401, '/special-events');
    await expectNothingStored(event.eventId as string);
  });

  it('DELETE without or with wrong credentials: 401 whether the event exists or the id is valid', async () => {
    const event = validEvent();
    expectCreated(await post(event), event);
    for (const path of [
      `/special-events/${event.eventId as string}`,
      `/special-events/${randomUUID()}`,
      '/special-events/not-a-uuid',
    ]) {
      for (const authorization of [undefined, wrong]) {
        const req = request(t.baseUrl).delete(path).set('Cookie', 'test=x');
        const res = await (authorization === undefined ? req : req.set('Authorization', authorization));
        expectProblem(res, 401, path);
        expect(res.headers['www-authenticate']).toBe(CHALLENGE);
      }
    }
    // Still stored.
    expect((await del(event.eventId as string)).status).toBe(204);
  });
});

// ---------------------------------------------------------------------------------------------
// What the database really holds (the 201 echoes the inserted values; this reads them back)
// ---------------------------------------------------------------------------------------------

describe('read back from the database', () => {
  /** The stored event's API fields; its version and list order key are checked on their own. */
  async function stored(eventId: string): Promise<Body> {
    const { version, sortDate, capacity, ticketsSold, durationMinutes, capacityPerDate, prices, ...fields } =
      await t.app.get(DataSource).getRepository(SpecialEvent).findOneByOrFail({ eventId });
    expect(Number.isSafeInteger(version) && version > 0).toBe(true);
    // Created without a capacity, a duration, a limit per date or prices: none of them, nothing sold yet.
    expect({ capacity, ticketsSold, durationMinutes, capacityPerDate, prices }).toEqual({
      capacity: null,
      ticketsSold: 0,
      durationMinutes: null,
      capacityPerDate: null,
      prices: null,
    });
    expect(sortDate).toBe(fields.dates.includes('2025-05-01') ? '2025-05-01' : '~');
    // Any other nullable column, which these creates leave out, is null: left out here too.
    return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null));
  }

  it('holds exactly what was acknowledged: Unicode, dates with commas and order, exact prices', async () => {
    const events = [
      validEvent({
        name: `cafe\u0301 👩‍👩‍👧 ${CRAB}`,
        location: 'متحف · מוזיאון · 日本語',
        eventDescription: 'Z\u0351\u036ba 𝄞 "q" \\ \u2028 \0 end',
        dates: ['1 May, 2025', '2025-05-01', 'caf\u00e9', 'cafe\u0301'],
        price: 0.30000000000000004,
      }),
      ...[19.99, 0.1, 1e-7, 1e9, 123456.789, 0].map((price) => validEvent({ price, dates: ['soon'] })),
      validEvent({
        name: CRAB.repeat(200),
        location: 'x'.repeat(200),
        eventDescription: CRAB.repeat(5000),
        dates: Array.from({ length: 500 }, (_, i) => `${String(i).padStart(3, '0')}${CRAB.repeat(61)}`),
        price: 999_999_999.99,
      }),
    ];
    for (const event of events) {
      expectCreated(await post(event), event);
      expect(await stored(event.eventId as string)).toStrictEqual(event);
    }
  });
});
