import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { UsersService } from '../../src/auth/users.service.js';
import { expectProblem, expectStatus } from '../helpers/problem-assertions.js';
import { AUTH, basicHeader, type TestApp, useTestApp } from '../helpers/test-app.js';
import { seedTickets, type TicketSeed } from '../helpers/tickets.js';

/**
 * GET /tickets over HTTP, on each database: each filter and their combinations find exactly the
 * matching tickets; following the Link headers visits each once, in the order of sale; cursors
 * are bound to their filters; unknown parameters are 400s; a viewer sees no codes or emails and
 * may not search by email. The tickets are written straight into the table: no date of the real clock matters.
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
});
