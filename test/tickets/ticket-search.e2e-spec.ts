import { randomUUID } from 'node:crypto';
import { get as httpGet, type IncomingMessage } from 'node:http';
import request from 'supertest';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { UsersService } from '../../src/auth/users.service.js';
import { EXPORT_BATCH } from '../../src/tickets/box-office.service.js';
import { TicketsRepository } from '../../src/tickets/tickets.repository.js';
import { expectProblem, expectStatus } from '../helpers/problem-assertions.js';
import { AUTH, basicHeader, type TestApp, useTestApp } from '../helpers/test-app.js';
import { seedTickets, type TicketSeed } from '../helpers/tickets.js';

/**
 * GET /tickets over HTTP, on each database: each filter and their combinations find exactly the
 * matching tickets; following the Link headers visits each once, in the order of sale; cursors
 * are bound to their filters; unknown parameters are 400s; a viewer sees no codes or emails and
 * may not search by email. With Accept: text/csv the same filters stream every match, across
 * batches, and the export reads a batch only when the client has taken the last (backpressure).
 * The tickets are written straight into the table: no date of the real clock matters.
 */

const KIOSK_AUTH = basicHeader('search-kiosk', 'kiosk-password-1234');
const EVENT_A = randomUUID();
const EVENT_B = randomUUID();
const DATES = ['2026-12-01', '2026-12-05'];
const STATUSES = ['active', 'checked-in', 'cancelled'];
const EMAILS = ['ada@example.com', 'bob@example.com', undefined];

interface Seeded extends TicketSeed {
  readonly ticketId: string;
}

/** 72 tickets: every combination of event (two, or general), date, status and email, twice. */
function seeds(): TicketSeed[] {
  const all: TicketSeed[] = [];
  for (let round = 0; round < 2; round++)
    for (const eventId of [EVENT_A, EVENT_B, undefined])
      for (const ticketDate of DATES)
        for (const status of STATUSES) for (const email of EMAILS) all.push({ eventId, ticketDate, status, email });
  return all;
}

const search = (t: TestApp, query: string, auth = AUTH) =>
  request(t.baseUrl).get(`/tickets${query}`).set('Authorization', auth);

/** Every ticket a search finds, following its Link headers; the pages' sizes too. */
async function walk(t: TestApp, first: string): Promise<{ ids: string[]; pages: number[] }> {
  const ids: string[] = [];
  const pages: number[] = [];
  let path: string | undefined = first;
  while (path !== undefined) {
    const res: request.Response = await request(t.baseUrl).get(path).set('Authorization', AUTH);
    expectStatus(res, 200);
    const body = res.body as { ticketId: string }[];
    ids.push(...body.map((ticket) => ticket.ticketId));
    pages.push(body.length);
    path = /^<([^>]+)>; rel="next"$/.exec(res.headers.link ?? '')?.[1];
  }
  return { ids, pages };
}

describe('GET /tickets (searchTickets)', () => {
  const t = useTestApp();
  let tickets: Seeded[];

  beforeAll(async () => {
    await t.app.get(UsersService).add('search-kiosk', 'kiosk-password-1234', 'viewer');
    const all = seeds();
    const ids = await seedTickets(t, all);
    tickets = all.map((seed, i) => ({ ...seed, ticketId: ids[i] }));
  }, 60_000);

  const matching = (filter: (ticket: Seeded) => boolean): string[] =>
    tickets
      .filter(filter)
      .map((ticket) => ticket.ticketId)
      .sort();

  it('finds exactly the tickets matching every filter given, in the order of sale', async () => {
    const cases: [string, (ticket: Seeded) => boolean][] = [
      [`?eventId=${EVENT_A}`, (x) => x.eventId === EVENT_A],
      [`?eventId=${EVENT_B.toUpperCase()}&status=cancelled`, (x) => x.eventId === EVENT_B && x.status === 'cancelled'],
      ['?ticketDate=2026-12-05', (x) => x.ticketDate === '2026-12-05'],
      ['?status=checked-in&ticketDate=2026-12-01', (x) => x.status === 'checked-in' && x.ticketDate === '2026-12-01'],
      ['?email=ada@example.com', (x) => x.email === 'ada@example.com'],
      [
        `?email=bob@example.com&eventId=${EVENT_A}&ticketDate=2026-12-05&status=active`,
        (x) =>
          x.email === 'bob@example.com' &&
          x.eventId === EVENT_A &&
          x.ticketDate === '2026-12-05' &&
          x.status === 'active',
      ],
      ['?email=nobody@example.com', () => false],
    ];
    for (const [query, filter] of cases) {
      const { ids } = await walk(t, `/tickets${query}&limit=100`.replace('?&', '?'));
      expect({ query, ids }).toEqual({ query, ids: matching(filter) });
    }
    // Without a filter: every ticket (this app holds only these).
    expect((await walk(t, '/tickets?limit=100')).ids).toEqual(matching(() => true));
  });

  it('pages by keyset: limit per page (10 by default), a Link to the next that keeps the filters', async () => {
    const first = await search(t, '?ticketDate=2026-12-01');
    expectStatus(first, 200);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.body).toHaveLength(10);
    expect(first.headers.link).toMatch(/^<\/tickets\?ticketDate=2026-12-01&limit=10&cursor=[^>]+>; rel="next"$/);
    const expected = matching((x) => x.ticketDate === '2026-12-01');
    const { ids, pages } = await walk(t, '/tickets?ticketDate=2026-12-01&limit=7');
    expect(ids).toEqual(expected);
    expect(pages).toEqual([7, 7, 7, 7, 7, 7, 7, 5]);
    const full = (await search(t, '?limit=100&ticketDate=2026-12-01')).body as Record<string, unknown>[];
    expect(full[0]).toMatchObject({ ticketId: expected[0], ticketDate: '2026-12-01', refundDue: null });
    expect(full[0]).toHaveProperty('confirmationCode');
  });

  it('refuses a cursor sent with other filters, or changed, naming it', async () => {
    const first = await search(t, `?eventId=${EVENT_A}&limit=2`);
    const cursor = new URL(`http://x${/^<([^>]+)>/.exec(first.headers.link as string)?.[1]}`).searchParams.get(
      'cursor',
    ) as string;
    const other = expectProblem(await search(t, `?eventId=${EVENT_B}&limit=2&cursor=${cursor}`), 400, '/tickets', true);
    expect(other.errors).toEqual([
      {
        field: 'cursor',
        message: 'cursor is not one this service issued for these filters: follow the Link header as given',
      },
    ]);
    const changed = `${cursor.slice(0, -2)}${cursor.endsWith('AA') ? 'BB' : 'AA'}`;
    expectProblem(await search(t, `?eventId=${EVENT_A}&limit=2&cursor=${changed}`), 400, '/tickets', true);
  });

  it('answers an unknown filter, a bad value or a limit out of 1-100 with a 400 naming it', async () => {
    const unknown = expectProblem(await search(t, '?evntId=x&status=active'), 400, '/tickets', true);
    expect(unknown.errors).toEqual([{ field: 'evntId', message: 'not a parameter of this operation' }]);
    const bad = expectProblem(await search(t, '?status=lost&limit=101&ticketDate=tomorrow'), 400, '/tickets', true);
    expect((bad.errors as { field: string }[]).map((error) => error.field).sort()).toEqual([
      'limit',
      'status',
      'ticketDate',
    ]);
    expectProblem(await search(t, '?limit=0'), 400, '/tickets', true);
  });

  it('shows a viewer no confirmation code or email, and refuses them a search by email', async () => {
    const res = await search(t, '?limit=100', KIOSK_AUTH);
    expectStatus(res, 200);
    for (const ticket of res.body as Record<string, unknown>[]) {
      expect(ticket).not.toHaveProperty('confirmationCode');
      expect(ticket).not.toHaveProperty('email');
    }
    const refused = expectProblem(await search(t, '?email=ada@example.com', KIOSK_AUTH), 403, '/tickets');
    expect(refused.detail).toContain('box-office');
  });

  describe('with Accept: text/csv', () => {
    const csv = (query: string, auth = AUTH) =>
      request(t.baseUrl).get(`/tickets${query}`).set('Authorization', auth).set('Accept', 'text/csv');

    it('streams every match, with a header line, as the JSON shows them', async () => {
      const res = await csv(`?eventId=${EVENT_A}&status=active`);
      expectStatus(res, 200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8; header=present');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['content-disposition']).toBe('attachment; filename="tickets.csv"');
      const lines = res.text.split('\r\n');
      expect(lines.at(-1)).toBe('');
      expect(lines[0]).toBe(
        'ticketId,ticketType,ticketDate,eventId,email,category,price,confirmationCode,status,createdAt,checkedInAt,cancelledAt,refundDue',
      );
      const rows = lines.slice(1, -1).map((line) => line.split(','));
      expect(rows.map((row) => row[0])).toEqual(matching((x) => x.eventId === EVENT_A && x.status === 'active'));
      const json = (await search(t, `?eventId=${EVENT_A}&status=active&limit=1`)).body[0] as Record<string, unknown>;
      expect(rows[0]).toEqual([
        json.ticketId,
        'event',
        json.ticketDate,
        EVENT_A,
        json.email ?? '',
        '',
        '25',
        json.confirmationCode,
        'active',
        json.createdAt,
        '',
        '',
        '',
      ]);
    });

    it('leaves out codes and emails for a viewer', async () => {
      const res = await csv('?status=cancelled', KIOSK_AUTH);
      expectStatus(res, 200);
      expect(res.text.split('\r\n')[0]).toBe(
        'ticketId,ticketType,ticketDate,eventId,category,price,status,createdAt,checkedInAt,cancelledAt,refundDue',
      );
      expect(res.text).not.toContain('example.com');
      expect(res.text).not.toContain('ticket-');
    });

    it('is a 400 naming an unknown filter, or limit and cursor, before any row', async () => {
      const unknown = expectProblem(await csv('?state=active'), 400, '/tickets', true);
      expect(unknown.errors).toEqual([{ field: 'state', message: 'not a parameter of this operation' }]);
      const paged = expectProblem(await csv('?limit=5&cursor=abc'), 400, '/tickets', true);
      expect((paged.errors as { field: string }[]).map((error) => error.field)).toEqual(['limit', 'cursor']);
      expectProblem(await csv('?email=ada@example.com', KIOSK_AUTH), 403, '/tickets');
    });
  });
});

describe('GET /tickets as CSV: 60,000 tickets, in batches, at the pace of the client', () => {
  const t = useTestApp();
  const DAY = '2027-01-09';
  /** About 8.6 MB of CSV: more than the kernel's socket buffers take while the client reads nothing. */
  const TOTAL = 60_000;
  const BATCHES = TOTAL / EXPORT_BATCH;
  let ids: string[];

  beforeAll(async () => {
    ids = await seedTickets(
      t,
      Array.from({ length: TOTAL }, () => ({ ticketDate: DAY, email: 'many@example.com' })),
    );
  }, 120_000);

  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** GET as a client that reads only when told: the response, paused. */
  function paused(path: string): Promise<IncomingMessage> {
    const url = new URL(`${t.baseUrl}${path}`);
    return new Promise((resolve, reject) => {
      httpGet(url, { headers: { Authorization: AUTH, Accept: 'text/csv' } }, (res) => {
        res.pause();
        resolve(res);
      }).on('error', reject);
    });
  }

  it('reads a batch only once the client has taken the last, and sends every ticket once', async () => {
    const reads = vi.spyOn(t.app.get(TicketsRepository), 'exportRows');
    const res = await paused(`/tickets?ticketDate=${DAY}`);
    expect(res.statusCode).toBe(200);
    // The client reads nothing for a while: once the socket's buffers are full the export waits
    // for it, reading no further batch, instead of reading on into memory.
    // Waits until no batch was read for 300 ms (the socket's buffers are full), for 15 s at most.
    let whilePaused = -1;
    for (let look = 0; look < 50 && reads.mock.calls.length !== whilePaused; look++) {
      whilePaused = reads.mock.calls.length;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    expect(reads.mock.calls.length).toBe(whilePaused);
    expect(whilePaused).toBeLessThan(BATCHES);
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    const ended = new Promise((resolve) => res.on('end', resolve));
    res.resume();
    await ended;
    const lines = Buffer.concat(chunks).toString('utf8').split('\r\n').slice(1, -1);
    expect(lines.map((line) => line.split(',')[0])).toEqual([...ids].sort());
    // Every batch, and the empty read that ends the walk.
    expect(reads.mock.calls.length).toBe(BATCHES + 1);
    process.stdout.write(
      `[tickets] CSV export of ${TOTAL}: ${whilePaused} of ${BATCHES + 1} batch reads while the client paused\n`,
    );
  }, 120_000);
});
