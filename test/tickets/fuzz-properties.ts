import { suiteDate } from '../helpers/clock.js';
import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { expect } from 'vitest';
import {
  type FuzzKit,
  type FuzzProperties,
  isoDay,
  isPlainObject,
  isUuid,
  MAX_DEPTH,
  nestingDepth,
  NIL_UUID,
  smallJson,
  unit,
  validUuid,
} from '../helpers/fuzz.js';
import { validEvent } from '../helpers/problem-assertions.js';
import { AUTH } from '../helpers/test-app.js';
import { setWeeklyHours } from '../museum-hours/api.js';

/**
 * The tickets' property for test/fuzz.e2e-spec.ts (issue 28), against an oracle written from
 * docs/api.md (never from src/): a purchase body (POST /tickets) the oracle refuses gets 400 naming
 * exactly the failing fields, one it accepts gets 201, 404 or 422 as the event and the date say,
 * and a ticket row appears exactly for each 201; a scanned code (POST /check-ins) that is not one
 * is a 400, an unknown one a 404, a ticket's own (for another day) a 409.
 */

/** Share of the file's request budget. */
const SHARE = { tickets: 0.03 } as const;

const json = (value: unknown): string => JSON.stringify(value);

/** An event that exists, on no date a purchase here asks for: a purchase for it is a 422 (the Nil UUID: a valid id). */
const OTHER_EVENT = NIL_UUID;
/** Two months ahead. */
const OTHER_DATE = suiteDate(60);
/** No opening hours: a general ticket for any day is a 422. */
const CLOSED_EVERY_DAY = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => [day, null]),
);

const TICKET_FIELDS = ['ticketType', 'ticketDate', 'eventId', 'email'] as const;
/** The event the purchases are for, made in the tickets property: one ISO date, a month ahead. */
const SALE_EVENT = '0190a3c4-5e6f-7a8b-9c0d-ace0ace0ace0';
/** Within the sales' horizon (366 days from the museum clock's day, SUITE_NOW), never today (a scan of its ticket is a 409). */
const SALE_DATE = suiteDate(30);
/** The day after: not a date of the sale event. */
const NEXT_DAY = suiteDate(31);
/** Beyond the horizon: a 400 for any purchase. */
const BEYOND_HORIZON = '2099-06-01';
const GOOD_EMAILS = ['todd@example.com', 'museum-lover@example.org', 'a.b+c@museum.example.co.uk'];
const BAD_EMAILS = ['', 'todd', '@example.com', 'todd@', 'todd@example', 'two@@example.com', 'a b@example.com'];
const CODE = /^ticket-[A-Za-z0-9_-]{22}$/;

/** README (docs/api.md, Tickets): the fields a 400 names for a purchase body, or null for a non-object. */
function judgeTicket(body: unknown): ReadonlySet<string> | null {
  if (!isPlainObject(body) || nestingDepth(body) > MAX_DEPTH) return null;
  const failing = new Set<string>();
  for (const key of Object.keys(body)) if (!(TICKET_FIELDS as readonly string[]).includes(key)) failing.add(key);
  const { ticketType, ticketDate, eventId, email } = body;
  if (ticketType !== 'general' && ticketType !== 'event') failing.add('ticketType');
  if (!(typeof ticketDate === 'string' && ticketDate.length === 10 && isoDay(ticketDate) === ticketDate))
    failing.add('ticketDate');
  const eventIdChecked = ticketType === 'event' || eventId !== undefined;
  if (eventIdChecked && !(typeof eventId === 'string' && isUuid(eventId))) failing.add('eventId');
  if (email !== undefined && !(typeof email === 'string' && GOOD_EMAILS.includes(email))) failing.add('email');
  // A general ticket has no event: refused once the rest is valid.
  if (failing.size === 0 && ticketType === 'general' && eventId !== undefined) failing.add('eventId');
  return failing;
}

const ticketBody = fc
  .record(
    {
      ticketType: fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom('event', 'general') },
        { weight: 1, arbitrary: fc.constantFrom('Event', 'vip', '', null, 1) },
      ),
      ticketDate: fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(SALE_DATE, NEXT_DAY, BEYOND_HORIZON, '2020-01-01') },
        { weight: 1, arbitrary: fc.constantFrom('2099-02-30', '2099-6-1', '20990601', '', null, 20990601) },
      ),
      eventId: fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(SALE_EVENT, SALE_EVENT.toUpperCase(), NIL_UUID) },
        { weight: 2, arbitrary: validUuid },
        { weight: 1, arbitrary: fc.constantFrom('not-a-uuid', '', 42, null) },
      ),
      email: fc.oneof(fc.constantFrom(...GOOD_EMAILS), fc.constantFrom(...BAD_EMAILS), fc.constantFrom(null, 7)),
    },
    { requiredKeys: [] },
  )
  .chain((body) =>
    // An unknown property now and then: it alone makes a 400.
    fc.oneof(
      { weight: 5, arbitrary: fc.constant(body) },
      { weight: 1, arbitrary: smallJson.map((extra) => ({ ...body, extra })) },
    ),
  )
  .map((body) => json(body));

const scannedCode = fc.oneof(
  { weight: 3, arbitrary: fc.stringMatching(CODE) },
  { weight: 2, arbitrary: smallJson },
  { weight: 1, arbitrary: fc.string({ unit, maxLength: 40 }).map((rest) => `ticket-${rest}`) },
);

function properties(kit: FuzzKit): ReturnType<FuzzProperties['properties']> {
  const { t, send, fuzz, counts, record, parseJson, checkCommon } = kit;
  return [
    {
      title:
        'tickets: purchase bodies and scanned codes: 400 exactly as the oracle says, a ticket only for a 201, never a 5xx',
      run: async () => {
        // What the oracle says rests on, whatever ran before in the file: the museum closed every
        // day, another event on other dates, the event on sale made here.
        expect((await setWeeklyHours(t.baseUrl, CLOSED_EVERY_DAY)).status).toBe(200);
        expect([204, 404]).toContain(
          (await send('DELETE', `/special-events/${OTHER_EVENT}`, { Authorization: AUTH })).status,
        );
        for (const [what, event] of [
          ['the other event', validEvent({ eventId: OTHER_EVENT, dates: [OTHER_DATE] })],
          ['the event on sale', { ...validEvent({ eventId: SALE_EVENT }), dates: [SALE_DATE] }],
        ] as const) {
          const made = await send(
            'POST',
            '/special-events',
            { Authorization: AUTH, 'Content-Type': 'application/json' },
            Buffer.from(json(event)),
          );
          if (made.status !== 201) throw new Error(`${what}: ${made.status} ${made.text}`);
        }
        const tickets = async (): Promise<number> =>
          Number(((await t.app.get(DataSource).query('SELECT COUNT(*) AS n FROM tickets')) as { n: unknown }[])[0].n);
        const codes: string[] = [];
        await fuzz(
          'tickets',
          fc.tuple(ticketBody, scannedCode, fc.boolean()),
          SHARE.tickets,
          async ([body, scanned, reuse]) => {
            counts.generated += 2;
            const before = await tickets();
            const reply = await send(
              'POST',
              '/tickets',
              { Authorization: AUTH, 'Content-Type': 'application/json' },
              Buffer.from(body),
            );
            record(reply);
            const parsed = JSON.parse(body) as Record<string, unknown>;
            const failing = judgeTicket(parsed);
            const problem = checkCommon(reply, '/tickets', Object.keys(parsed));
            if (failing !== null && failing.size > 0) {
              expect(reply.status, `400 for ${body}`).toBe(400);
              const named = new Set(((problem?.errors ?? []) as { field: string }[]).map(({ field }) => field));
              expect([...named].sort()).toEqual([...failing].sort());
            } else {
              // A past date, or one beyond the 366 days tickets are sold for: 400.
              const past = parsed.ticketDate === '2020-01-01' || parsed.ticketDate === BEYOND_HORIZON;
              const eventId = typeof parsed.eventId === 'string' ? parsed.eventId.toLowerCase() : '';
              // The other event exists, on a date never asked for here.
              const other = eventId === OTHER_EVENT;
              const expected = past
                ? 400
                : parsed.ticketType === 'general'
                  ? 422 // the week set above: the museum is closed every day
                  : other
                    ? 422
                    : eventId !== SALE_EVENT
                      ? 404
                      : parsed.ticketDate === SALE_DATE
                        ? 201
                        : 422;
              expect(reply.status, `for ${body}: ${reply.text.slice(0, 300)}`).toBe(expected);
            }
            if (reply.status === 201) codes.push(parseJson(reply).confirmationCode as string);
            expect(await tickets()).toBe(before + (reply.status === 201 ? 1 : 0));

            const code: unknown = reuse && codes.length > 0 ? codes[codes.length - 1] : scanned;
            const scan = await send(
              'POST',
              '/check-ins',
              { Authorization: AUTH, 'Content-Type': 'application/json' },
              Buffer.from(json({ code })),
            );
            record(scan);
            checkCommon(scan, '/check-ins', typeof code === 'string' ? [code] : []);
            const expectedScan = typeof code !== 'string' || !CODE.test(code) ? 400 : codes.includes(code) ? 409 : 404; // 409: a ticket for SALE_DATE, not today
            expect(scan.status, `scan of ${json(code)}: ${scan.text.slice(0, 300)}`).toBe(expectedScan);
          },
        );
      },
    },
  ];
}

const tickets: FuzzProperties = { title: '/tickets and /check-ins', properties };

export default tickets;
