import ICAL from 'ical.js';
import { isUtf8 } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import request, { type Response } from 'supertest';
import { DataSource } from 'typeorm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { UsersService } from '../../src/auth/users.service.js';
import { CalendarFeedService } from '../../src/calendar/calendar-feed.service.js';
import { expectProblem, expectStatus, expectUnauthorized, type Body } from '../helpers/problem-assertions.js';
import { AUTH, basicHeader, useTestApp } from '../helpers/test-app.js';
import { insertOldEvent, releaseBefore } from '../helpers/migration-history.js';

/**
 * The calendar feed (docs/api.md, Calendar feed): GET /special-events.ics with Basic credentials,
 * GET /calendar/{token}.ics with a feed token, and the tokens' own routes. The feed is parsed by
 * ical.js (a parser no one here wrote), and its raw bytes are checked against RFC 5545 as well:
 * CRLF line breaks, lines of at most 75 octets, valid UTF-8.
 */

const VIEWER = { user: 'calendar-viewer', password: 'calendar-viewer-password' };
const EDITOR = { user: 'calendar-editor', password: 'calendar-editor-password' };
const VIEWER_AUTH = basicHeader(VIEWER.user, VIEWER.password);
const EDITOR_AUTH = basicHeader(EDITOR.user, EDITOR.password);
const CONTENT_TYPE = 'text/calendar; charset=utf-8';
const CACHE_CONTROL = 'private, no-cache';
const FEED = '/special-events.ics';
const TOKENS = '/calendar-tokens';
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;
const ETAG_FORMAT = /^"[A-Za-z0-9_-]{22}"$/;
const UUID_FORMAT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const STAMP_FORMAT = /^\d{8}T\d{6}Z$/;

const t = useTestApp();

beforeAll(async () => {
  await t.app.get(UsersService).add(VIEWER.user, VIEWER.password, 'viewer');
  await t.app.get(UsersService).add(EDITOR.user, EDITOR.password, 'editor');
}, 60_000);

/** Reads the body as bytes whatever its media type, so that the raw feed can be checked. */
function rawBody(res: Response, callback: (error: Error | null, body: Buffer) => void): void {
  // In Node, superagent hands its parsers the response stream.
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => callback(null, Buffer.concat(chunks)));
}

function get(path: string, headers: Record<string, string> = { Authorization: AUTH }): request.Test {
  const req = request(t.baseUrl).get(path).buffer(true).parse(rawBody);
  for (const [name, value] of Object.entries(headers)) req.set(name, value);
  return req;
}

const event = (overrides: Body = {}): Body => ({
  eventId: randomUUID(),
  name: 'Night at the museum',
  location: 'Hall 1',
  eventDescription: 'Torches and dinosaurs.',
  dates: ['2090-01-01'],
  price: 12.5,
  ...overrides,
});

async function create(body: Body): Promise<string> {
  const res = await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(body);
  expectStatus(res, 201);
  return body.eventId as string;
}

async function createToken(description?: string): Promise<Body> {
  const res = await request(t.baseUrl)
    .post(TOKENS)
    .set('Authorization', AUTH)
    .send(description === undefined ? {} : { description });
  expectStatus(res, 201);
  return res.body as Body;
}

interface ParsedEvent {
  readonly uid: string;
  readonly summary: string;
  readonly location: string;
  readonly description: string;
  readonly start: string;
  readonly end: string;
  readonly dtstamp: string;
  readonly lastModified: string;
}

interface ParsedFeed {
  readonly calendar: ICAL.Component;
  readonly events: ParsedEvent[];
  readonly skipped: number;
}

/** The body as text, whether it was read as bytes (get) or as text. */
const textOf = (res: Response): string => (Buffer.isBuffer(res.body) ? res.body.toString('utf8') : res.text);

/** The status, with the body shown when it is not the expected one (expectStatus for bodies read as bytes). */
function expectFeedStatus(res: Response, status: number): void {
  expect({ status: res.status, body: textOf(res) }).toEqual({ status, body: expect.any(String) as unknown });
}

/** The raw rules of RFC 5545 a parser may forgive, then the feed as ical.js reads it. */
function parseFeed(res: Response): ParsedFeed {
  expectFeedStatus(res, 200);
  expect(res.headers['content-type']).toBe(CONTENT_TYPE);
  expect(res.headers['cache-control']).toBe(CACHE_CONTROL);
  expect(res.headers.etag).toMatch(ETAG_FORMAT);
  const bytes = res.body as Buffer;
  expect(Buffer.isBuffer(bytes)).toBe(true);
  expect(isUtf8(bytes)).toBe(true);
  const text = bytes.toString('utf8');
  expect(Buffer.from(text, 'utf8').equals(bytes)).toBe(true);
  expect(text.endsWith('\r\n')).toBe(true);
  const lines = text.slice(0, -2).split('\r\n');
  // No bare CR or LF, no line over 75 octets, no surrogate pair split.
  expect(lines.filter((line) => /[\r\n]/.test(line) || !line.isWellFormed())).toEqual([]);
  expect(lines.filter((line) => Buffer.byteLength(line, 'utf8') > 75)).toEqual([]);
  const calendar = new ICAL.Component(ICAL.parse(text));
  expect(calendar.name).toBe('vcalendar');
  const events = calendar.getAllSubcomponents('vevent').map((vevent): ParsedEvent => {
    const value = (name: string): string => String(vevent.getFirstPropertyValue(name));
    return {
      uid: value('uid'),
      summary: value('summary'),
      location: value('location'),
      description: value('description'),
      start: value('dtstart'),
      end: value('dtend'),
      dtstamp: (vevent.getFirstProperty('dtstamp')?.toICALString() ?? '').replace(/^DTSTAMP:/, ''),
      lastModified: (vevent.getFirstProperty('last-modified')?.toICALString() ?? '').replace(/^LAST-MODIFIED:/, ''),
    };
  });
  return { calendar, events, skipped: Number(calendar.getFirstPropertyValue('x-museum-skipped-events')) };
}

const uidOf = (eventId: string, date: string): string => `${eventId}-${date.replaceAll('-', '')}@museum-special-events`;

/** The events of the feed whose UID belongs to one of `eventIds`. */
const ofEvents = (feed: ParsedFeed, eventIds: readonly string[]): ParsedEvent[] =>
  feed.events.filter((parsed) => eventIds.some((eventId) => parsed.uid.startsWith(`${eventId}-`)));

/** What a calendar application reads back from a stored TEXT: every line break as LF. */
const asRead = (text: string): string => text.replace(/\r\n|\r/g, '\n');

describe('GET /special-events.ics', () => {
  it('has every event once per ISO date in the range, its text round-tripped exactly through ical.js', async () => {
    const tricky = {
      name: '🦕 Dinosaurs, fossils; and \\ backslashes 🦀',
      location: 'Hall 1; Wing B, floor 2 \\ west',
      eventDescription:
        'Line one,\r\nline two;\nline three\\\rline four: Cafe\u0301 de\u0301couverte, na\u0308ive. 👩‍👩‍👧‍👦 🇫🇷',
      dates: ['2091-03-01', '2091-03-03T18:30:00+02:00', 'every Sunday', '2091-03-01', '2091-04-02'],
    };
    const rtl = {
      name: 'أمسية في المتحف، مع الموسيقى',
      location: 'אולם 2, ירושלים; קומה א׳',
      eventDescription: Array.from(
        { length: 2000 },
        (_, i) => ['ش', 'ב', '🎶', 'e\u0301', ',', ';', '\\', 'x', '\n', 'é'][i % 10],
      ).join(''),
      dates: ['2091-03-02'],
    };
    const marks = {
      name: 'e\u0301'.repeat(100),
      location: 'a\u0308\u0301\u0323 '.repeat(30),
      eventDescription: 'ﷺ '.repeat(300),
      dates: ['2091-03-31', '2091-02-28'],
    };
    const ids = {
      tricky: await create(event(tricky)),
      rtl: await create(event(rtl)),
      marks: await create(event(marks)),
    };
    expect(rtl.eventDescription.length).toBeGreaterThanOrEqual(2000);

    const feed = parseFeed(await get(`${FEED}?startDate=2091-03-01&endDate=2091-03-31`));
    const expected = [
      [ids.tricky, '2091-03-01', tricky],
      [ids.rtl, '2091-03-02', rtl],
      [ids.tricky, '2091-03-03', tricky],
      [ids.marks, '2091-03-31', marks],
    ] as const;
    // Exactly these, each once, in date order; nothing outside the range (April, February).
    expect(feed.events.map((parsed) => parsed.uid)).toEqual(expected.map(([eventId, date]) => uidOf(eventId, date)));
    for (const [eventId, date, fields] of expected) {
      const parsed = feed.events.find((candidate) => candidate.uid === uidOf(eventId, date));
      expect(parsed).toMatchObject({
        summary: asRead(fields.name),
        location: asRead(fields.location),
        description: asRead(fields.eventDescription),
        start: date,
        end: new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10),
      });
      expect(parsed?.dtstamp).toMatch(STAMP_FORMAT);
      expect(parsed?.lastModified).toBe(parsed?.dtstamp);
    }
    expect(feed.calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(feed.calendar.getFirstPropertyValue('calscale')).toBe('GREGORIAN');
    expect(feed.calendar.getFirstPropertyValue('prodid')).toBe('-//Museum//Special Events Calendar Feed 1.0//EN');
    expect(feed.calendar.getFirstPropertyValue('x-wr-calname')).toBe('Museum special events');
    expect(feed.skipped).toBe(0);
    // The raw text: the properties as RFC 5545 writes them.
    const text = textOf(await get(`${FEED}?startDate=2091-03-02&endDate=2091-03-02`));
    expect(text).toMatch(/^BEGIN:VCALENDAR\r\nVERSION:2\.0\r\nPRODID:[^\r]+\r\nCALSCALE:GREGORIAN\r\n/);
    expect(text).toContain(`\r\nUID:${uidOf(ids.rtl, '2091-03-02')}\r\n`);
    expect(text).toContain('\r\nDTSTART;VALUE=DATE:20910302\r\nDTEND;VALUE=DATE:20910303\r\n');
    expect(text).toContain('\r\nLOCATION:אולם 2\\, ירושלים\\; קומה א׳\r\n');
    expect(text).toMatch(/\r\nDTSTAMP:\d{8}T\d{6}Z\r\n/);
    expect(text.endsWith('END:VEVENT\r\nEND:VCALENDAR\r\n')).toBe(true);
  });

  it('follows the list pages to the end: 130 events, more than one page of 100, each once', async () => {
    const ids: string[] = [];
    for (let batch = 0; batch < 13; batch++) {
      ids.push(
        ...(await Promise.all(
          Array.from({ length: 10 }, (_, i) => create(event({ dates: [`2093-01-${String(i + 10)}`, '2093-02-01'] }))),
        )),
      );
    }
    const feed = parseFeed(await get(`${FEED}?startDate=2093-01-01&endDate=2093-01-31`));
    expect(feed.events).toHaveLength(130);
    expect(new Set(feed.events.map((parsed) => parsed.uid)).size).toBe(130);
    const expected = new Set(feed.events.map((parsed) => parsed.uid.slice(0, 36)));
    expect([...expected].sort()).toEqual([...ids].sort());
  });

  it('leaves out events without an ISO date and counts them in X-MUSEUM-SKIPPED-EVENTS', async () => {
    const before = parseFeed(await get(FEED)).skipped;
    const freeText = [
      await create(event({ dates: ['every Sunday', '1 May 2094'] })),
      await create(event({ dates: [] })),
      await create(event({ dates: ['2094-02-30'] })),
    ];
    const dated = await create(event({ dates: ['2094-05-01', 'and on request'] }));
    const feed = parseFeed(await get(FEED));
    expect(feed.skipped).toBe(before + 3);
    expect(ofEvents(feed, freeText)).toEqual([]);
    expect(ofEvents(feed, [dated]).map((parsed) => parsed.uid)).toEqual([uidOf(dated, '2094-05-01')]);
    // With a range, free-text events never match, so none is counted.
    expect(parseFeed(await get(`${FEED}?startDate=2094-01-01`)).skipped).toBe(0);
  });

  it('moves LAST-MODIFIED (and the ETag) when the event is updated, and drops a deleted event', async () => {
    const createdAt = Date.now();
    const eventId = await create(event({ dates: ['2095-06-01'] }));
    const path = `${FEED}?startDate=2095-06-01&endDate=2095-06-01`;
    const first = await get(path);
    const [before] = parseFeed(first).events;
    const stampOf = (stamp: string): number =>
      Date.parse(stamp.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));
    expect(stampOf(before.lastModified)).toBeGreaterThanOrEqual(Math.floor(createdAt / 1000) * 1000);
    expect(stampOf(before.lastModified)).toBeLessThanOrEqual(Date.now());
    // The same feed again: the same bytes and tag.
    const again = await get(path);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect((again.body as Buffer).equals(first.body as Buffer)).toBe(true);

    // LAST-MODIFIED has whole seconds: let one pass.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expectStatus(
      await request(t.baseUrl)
        .patch(`/special-events/${eventId}`)
        .set('Authorization', AUTH)
        .set('Content-Type', 'application/merge-patch+json')
        .send({ name: 'Renamed, at last' }),
      200,
    );
    const updated = await get(path);
    const [after] = parseFeed(updated).events;
    expect(after.summary).toBe('Renamed, at last');
    expect(stampOf(after.lastModified)).toBeGreaterThan(stampOf(before.lastModified));
    expect(after.dtstamp).toBe(after.lastModified);
    expect(updated.headers.etag).not.toBe(first.headers.etag);

    expectStatus(await request(t.baseUrl).delete(`/special-events/${eventId}`).set('Authorization', AUTH), 204);
    expect(parseFeed(await get(path)).events).toEqual([]);
    const stamps = (await t.app
      .get(DataSource)
      .query('SELECT event_id FROM calendar_event_stamps WHERE event_id = ?', [eventId])) as unknown[];
    expect(stamps).toEqual([]);
  });

  it('answers 304 without a body to an If-None-Match naming the current feed, even with Cache-Control: no-cache', async () => {
    await create(event({ dates: ['2096-01-01'] }));
    const path = `${FEED}?startDate=2096-01-01&endDate=2096-01-01`;
    const first = await get(path);
    const etag = first.headers.etag as string;
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await get(path, { Authorization: AUTH, 'If-None-Match': ifNoneMatch, 'Cache-Control': 'no-cache' });
      expectFeedStatus(res, 304);
      expect((res.body as Buffer).length).toBe(0);
      expect(res.headers.etag).toBe(etag);
      expect(res.headers['cache-control']).toBe(CACHE_CONTROL);
      expect(res.headers['content-type']).toBeUndefined();
    }
    const stale = await get(path, { Authorization: AUTH, 'If-None-Match': '"stale"' });
    expect(parseFeed(stale).events).toHaveLength(1);
    // Another range is another feed, with another tag.
    const other = await get(`${FEED}?startDate=2096-01-02`, { Authorization: AUTH, 'If-None-Match': etag });
    expectFeedStatus(other, 200);
  });

  it('answers HEAD like GET without the body', async () => {
    const res = await request(t.baseUrl).head(`${FEED}?startDate=2096-01-01`).set('Authorization', AUTH);
    expect(res.status).toBe(200);
    expect(res.text ?? '').toBe('');
    expect(res.headers['content-type']).toBe(CONTENT_TYPE);
    expect(Number(res.headers['content-length'])).toBeGreaterThan(0);
    expect(res.headers.etag).toMatch(ETAG_FORMAT);
  });

  it.each([
    ['?startDate=2026-02-30', ['startDate']],
    ['?startDate=2026/01/01', ['startDate']],
    ['?endDate=tomorrow', ['endDate']],
    ['?startDate=2026-02-01&endDate=2026-01-31', ['endDate']],
    ['?startDate=2026-01-01&startDate=2026-01-02', ['startDate']],
    ['?limit=5', ['limit']],
    ['?cursor=abc', ['cursor']],
    ['?toString=1', ['toString']],
  ])('400 for %s, naming the parameter', async (query, fields) => {
    const res = await request(t.baseUrl).get(`${FEED}${query}`).set('Authorization', AUTH);
    const problem = expectProblem(res, 400, FEED, true);
    expect((problem.errors as { field: string }[]).map((error) => error.field)).toEqual(fields);
  });

  it('401 without credentials or with a wrong password, before the query is looked at', async () => {
    expectUnauthorized(await request(t.baseUrl).get(FEED), FEED);
    expectUnauthorized(await request(t.baseUrl).get(`${FEED}?startDate=bad`), FEED);
    expectUnauthorized(
      await request(t.baseUrl).get(FEED).set('Authorization', basicHeader(VIEWER.user, 'not the password')),
      FEED,
    );
  });

  it('is open to viewers and editors', async () => {
    for (const authorization of [VIEWER_AUTH, EDITOR_AUTH])
      expect(parseFeed(await get(`${FEED}?startDate=2096-01-01`, { Authorization: authorization })).calendar.name).toBe(
        'vcalendar',
      );
  });

  it('does not collide with /special-events/{eventId}: each path keeps its own answers', async () => {
    const eventId = await create(event({ dates: ['2097-01-01'] }));
    // The event's own path still serves the event, and a non-UUID there is still a 400.
    expectStatus(await request(t.baseUrl).get(`/special-events/${eventId}`).set('Authorization', AUTH), 200);
    expectProblem(
      await request(t.baseUrl).get('/special-events/special-events.ics').set('Authorization', AUTH),
      400,
      '/special-events/special-events.ics',
      true,
    );
    // Other methods on the feed: 405 naming what it serves; deeper paths: 404; after authentication.
    const put = await request(t.baseUrl).put(FEED).set('Authorization', AUTH);
    expectProblem(put, 405, FEED);
    expect(put.headers.allow).toBe('GET, HEAD');
    expectProblem(await request(t.baseUrl).get(`${FEED}/more`).set('Authorization', AUTH), 404, `${FEED}/more`);
    expectUnauthorized(await request(t.baseUrl).put(FEED), FEED);
    expectUnauthorized(await request(t.baseUrl).get(`${FEED}/more`), `${FEED}/more`);
    // The list at /special-events is untouched by the feed's route.
    expectStatus(await request(t.baseUrl).get('/special-events?limit=1').set('Authorization', AUTH), 200);
  });
});

describe('calendar tokens', () => {
  it('POST makes a token, shown once, with its feed URL; GET lists it without the token', async () => {
    const res = await request(t.baseUrl)
      .post(TOKENS)
      .set('Authorization', AUTH)
      .send({ description: 'Front desk 🦕, tablet; "north"' });
    expectStatus(res, 201);
    const body = res.body as Body;
    expect(Object.keys(body).sort()).toEqual(['createdAt', 'description', 'feedUrl', 'token', 'tokenId']);
    expect(body.tokenId).toMatch(UUID_FORMAT);
    expect(body.token).toMatch(TOKEN_FORMAT);
    expect(body.feedUrl).toBe(`/calendar/${body.token as string}.ics`);
    expect(body.description).toBe('Front desk 🦕, tablet; "north"');
    expect(Math.abs(Date.parse(body.createdAt as string) - Date.now())).toBeLessThan(10_000);
    expect(res.headers.location).toBe(`/calendar-tokens/${body.tokenId as string}`);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');

    const listed = await request(t.baseUrl).get(TOKENS).set('Authorization', AUTH);
    expectStatus(listed, 200);
    const tokens = listed.body as Body[];
    for (const token of tokens) expect(Object.keys(token).sort()).toEqual(['createdAt', 'description', 'tokenId']);
    expect(tokens).toContainEqual({ tokenId: body.tokenId, description: body.description, createdAt: body.createdAt });
    expect(listed.text).not.toContain(body.token as string);
    // Only the hash is stored.
    const rows = (await t.app
      .get(DataSource)
      .query('SELECT * FROM calendar_tokens WHERE token_id = ?', [body.tokenId])) as Record<string, unknown>[];
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(body.token as string);
    expect(rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('POST without a description stores an empty one; each token is different', async () => {
    const [a, b] = [await createToken(), await createToken()];
    expect(a.description).toBe('');
    expect(a.token).not.toBe(b.token);
    expect(a.tokenId).not.toBe(b.tokenId);
  });

  it('POST accepts 200 characters of description (emoji count as one), and refuses what breaks the rules', async () => {
    expect((await createToken('🦕'.repeat(200))).description).toBe('🦕'.repeat(200));
    const post = (body: string, contentType = 'application/json') =>
      request(t.baseUrl).post(TOKENS).set('Authorization', AUTH).set('Content-Type', contentType).send(body);
    for (const [body, field] of [
      [JSON.stringify({ description: 'x'.repeat(201) }), 'description'],
      [JSON.stringify({ description: 5 }), 'description'],
      [JSON.stringify({ description: null }), 'description'],
      [JSON.stringify({ token: 'mine' }), 'token'],
      ['[]', 'body'],
    ] as const) {
      const problem = expectProblem(await post(body), 400, TOKENS, true);
      expect((problem.errors as { field: string }[]).map((error) => error.field)).toEqual([field]);
    }
    expectProblem(await post('{"description":'), 400, TOKENS);
    expectProblem(await post('{}', 'text/plain'), 415, TOKENS);
  });

  it('the token serves the same feed as the credentials, with 304 on its ETag, without credentials', async () => {
    await create(event({ name: 'By token', dates: ['2098-01-01'] }));
    const { token } = await createToken('feed');
    const path = `/calendar/${token as string}.ics?startDate=2098-01-01&endDate=2098-01-01`;
    const byToken = await get(path, {});
    const feed = parseFeed(byToken);
    expect(feed.events.map((parsed) => parsed.summary)).toEqual(['By token']);
    const byCredentials = await get(`${FEED}?startDate=2098-01-01&endDate=2098-01-01`);
    expect((byToken.body as Buffer).equals(byCredentials.body as Buffer)).toBe(true);
    expect(byToken.headers.etag).toBe(byCredentials.headers.etag);
    const notModified = await get(path, { 'If-None-Match': byToken.headers.etag as string });
    expectFeedStatus(notModified, 304);
    expect((notModified.body as Buffer).length).toBe(0);
    // Credentials are neither needed nor in the way.
    parseFeed(await get(path, { Authorization: VIEWER_AUTH }));
  });

  it('DELETE revokes the token at once: its feed is a 404 on the next request', async () => {
    const { token, tokenId } = await createToken('revoked');
    const path = `/calendar/${token as string}.ics`;
    parseFeed(await get(path, {}));
    const res = await request(t.baseUrl)
      .delete(`${TOKENS}/${tokenId as string}`)
      .set('Authorization', AUTH);
    expectStatus(res, 204);
    expect(res.text).toBe('');
    const gone = expectProblem(await request(t.baseUrl).get(path), 404, '/calendar/{token}.ics');
    expect(gone.detail).toBe('No calendar feed exists at this address: its token is unknown or was revoked.');
    const listed = (await request(t.baseUrl).get(TOKENS).set('Authorization', AUTH)).body as Body[];
    expect(listed.map((listedToken) => listedToken.tokenId)).not.toContain(tokenId);
    // Again: nothing to delete. Any letter case names the same token.
    expectProblem(
      await request(t.baseUrl)
        .delete(`${TOKENS}/${tokenId as string}`)
        .set('Authorization', AUTH),
      404,
      `${TOKENS}/${tokenId as string}`,
    );
    const upper = await createToken();
    const upperId = (upper.tokenId as string).toUpperCase();
    expectStatus(await request(t.baseUrl).delete(`${TOKENS}/${upperId}`).set('Authorization', AUTH), 204);
  });

  it('DELETE: 400 for a malformed tokenId, 404 for an unknown one', async () => {
    const malformed = expectProblem(
      await request(t.baseUrl).delete(`${TOKENS}/not-a-uuid`).set('Authorization', AUTH),
      400,
      `${TOKENS}/not-a-uuid`,
      true,
    );
    expect((malformed.errors as { field: string }[]).map((error) => error.field)).toEqual(['tokenId']);
    const unknown = randomUUID();
    expectProblem(
      await request(t.baseUrl).delete(`${TOKENS}/${unknown}`).set('Authorization', AUTH),
      404,
      `${TOKENS}/${unknown}`,
    );
  });

  it('a malformed or unknown token is the same 404, checked before the query', async () => {
    const unknown = Buffer.alloc(32, 7).toString('base64url');
    for (const path of [
      `/calendar/${unknown}.ics`,
      `/calendar/${unknown}.ics?startDate=bad`,
      '/calendar/short.ics',
      `/calendar/${unknown}x.ics`,
      `/calendar/${'%41'.repeat(43)}.ics`,
    ]) {
      const problem = expectProblem(await request(t.baseUrl).get(path), 404, '/calendar/{token}.ics');
      expect(problem.detail).toBe('No calendar feed exists at this address: its token is unknown or was revoked.');
    }
  });

  it('the token feed validates its query like the other feed (400), and has 405 and 404 around it', async () => {
    const { token } = await createToken();
    const feedPath = `/calendar/${token as string}.ics`;
    const problem = expectProblem(
      await request(t.baseUrl).get(`${feedPath}?startDate=2026-01-02&endDate=2026-01-01`),
      400,
      '/calendar/{token}.ics',
      true,
    );
    expect((problem.errors as { field: string }[]).map((error) => error.field)).toEqual(['endDate']);
    expectProblem(await request(t.baseUrl).get(`${feedPath}?limit=1`), 400, '/calendar/{token}.ics', true);
    const put = await request(t.baseUrl).put(feedPath);
    expectProblem(put, 405, '/calendar/{token}.ics');
    expect(put.headers.allow).toBe('GET, HEAD');
    expectProblem(await request(t.baseUrl).get(`/calendar/${token as string}`), 404, '/calendar/{redacted}');
    expectProblem(await request(t.baseUrl).get(`${feedPath}/more`), 404, '/calendar/{redacted}');
  });

  it('viewers and editors get 403 on every token route, anonymous callers 401', async () => {
    const { tokenId } = await createToken('kept');
    const item = `${TOKENS}/${tokenId as string}`;
    for (const [authorization, role] of [
      [VIEWER_AUTH, 'viewer'],
      [EDITOR_AUTH, 'editor'],
    ] as const) {
      for (const res of [
        await request(t.baseUrl).post(TOKENS).set('Authorization', authorization).send({}),
        await request(t.baseUrl).get(TOKENS).set('Authorization', authorization),
      ]) {
        const problem = expectProblem(res, 403, TOKENS);
        expect(problem.detail).toBe(`This operation needs the admin role; your role is ${role}.`);
      }
      expectProblem(await request(t.baseUrl).delete(item).set('Authorization', authorization), 403, item);
    }
    expectUnauthorized(await request(t.baseUrl).post(TOKENS).send({}), TOKENS);
    expectUnauthorized(await request(t.baseUrl).get(TOKENS), TOKENS);
    expectUnauthorized(await request(t.baseUrl).delete(item), item);
    // Still there: nobody above could delete it.
    const listed = (await request(t.baseUrl).get(TOKENS).set('Authorization', AUTH)).body as Body[];
    expect(listed.map((token) => token.tokenId)).toContain(tokenId);
  });

  it('never writes a token to the logs, nor repeats it in an answer, whatever the answer', async () => {
    const { token, tokenId } = await createToken('secret');
    const secret = token as string;
    const feedPath = `/calendar/${secret}.ics`;
    const answers: Response[] = [
      await get(feedPath, {}),
      await get(`${feedPath}?startDate=2026-01-01`, {}),
      await get(`${feedPath}?startDate=bad`, {}),
      await request(t.baseUrl).post(feedPath),
      await request(t.baseUrl).get(`${feedPath}/more`),
      await request(t.baseUrl).get(`/calendar/${secret}`),
      // Express routes in any letter case, with a trailing slash too.
      await get(`/CALENDAR/${secret}.ICS/?startDate=bad`, {}),
    ];
    // An unexpected error while serving the feed: its log line names the path, without the token.
    vi.spyOn(CalendarFeedService.prototype, 'feed').mockRejectedValueOnce(new Error('boom'));
    const failed = await request(t.baseUrl).get(feedPath);
    expectProblem(failed, 500, '/calendar/{token}.ics');
    answers.push(failed);
    expectStatus(
      await request(t.baseUrl)
        .delete(`${TOKENS}/${tokenId as string}`)
        .set('Authorization', AUTH),
      204,
    );
    answers.push(await request(t.baseUrl).get(feedPath));
    expect(answers.map((res) => res.status)).toEqual([200, 200, 400, 405, 404, 404, 400, 500, 404]);
    expect(answers.filter((res) => JSON.stringify(res.headers).includes(secret))).toEqual([]);
    const problems = answers.filter((res) => res.status !== 200);
    expect(problems.filter((res) => textOf(res).includes(secret)).map(textOf)).toEqual([]);
    const logs = t.logText();
    expect(logs).toContain('"route":"/calendar/:token.ics"');
    expect(logs).toContain('"path":"/calendar/{token}.ics"');
    expect(logs).not.toContain(secret);
  });
});

describe('the migration', () => {
  it('stamps the events that exist when it runs with the time it ran', async () => {
    const { database, options, old, later } = await releaseBefore('Calendar1764300000000');
    try {
      await insertOldEvent(old);
      await old.destroy();
      const startedAt = Date.now();
      const upgraded = new DataSource({ ...options, migrationsRun: true });
      await upgraded.initialize();
      try {
        const rows = (await upgraded.query('SELECT event_id, modified_at FROM calendar_event_stamps')) as {
          event_id: string;
          modified_at: number | string;
        }[];
        expect(rows.map((row) => row.event_id)).toEqual(['a0000000-0000-4000-8000-000000000000']);
        expect(Number(rows[0].modified_at)).toBeGreaterThanOrEqual(startedAt);
        expect(Number(rows[0].modified_at)).toBeLessThanOrEqual(Date.now());
        await expect(upgraded.query('SELECT COUNT(*) AS n FROM calendar_tokens')).resolves.toEqual([
          { n: expect.anything() as unknown },
        ]);
        // The migrations after the calendar's, then the calendar's.
        for (let i = 0; i <= later; i++) await upgraded.undoLastMigration();
        await expect(upgraded.query('SELECT 1 FROM calendar_event_stamps')).rejects.toThrow(/calendar_event_stamps/);
        await expect(upgraded.query('SELECT 1 FROM calendar_tokens')).rejects.toThrow(/calendar_tokens/);
      } finally {
        await upgraded.destroy();
      }
    } finally {
      if (old.isInitialized) await old.destroy();
      await database.drop();
    }
  });
});
