import { suiteDate } from '../helpers/clock.js';
import fc from 'fast-check';
import { expect } from 'vitest';
import { type FuzzKit, type FuzzProperties, isPlainObject, isQueryDate } from '../helpers/fuzz.js';
import { AUTH } from '../helpers/test-app.js';

/**
 * The museum hours' properties for test/fuzz.e2e-spec.ts: the week, the query of the open days
 * and the date exceptions, against a model week and an oracle written from docs/museum-hours.md
 * and docs/api.md (never from src/).
 */

/** Shares of the file's request budget. */
const SHARE = { query: 0.015, week: 0.01, date: 0.005 } as const;

// ---------------------------------------------------------------------------------------------

const HOURS_DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
type HoursEntry = { timeOpen: string; timeClose: string; capacity?: number } | null;
/** The week as the service should hold it (no date exceptions are kept between requests). */
let modelWeek: Record<string, HoursEntry> = Object.fromEntries(HOURS_DAYS.map((day) => [day, null]));

const isHoursTime = (value: unknown): boolean => typeof value === 'string' && /^([01]\d|2[0-3]):[0-5]\d$/.test(value);

/** Why a day's entry of the week is invalid, or null (docs/api.md: times, midnight, capacity). */
function hoursEntryValid(value: unknown): boolean {
  if (value === null) return true;
  if (!isPlainObject(value)) return false;
  if (Object.keys(value).some((key) => !['timeOpen', 'timeClose', 'capacity'].includes(key))) return false;
  if (!isHoursTime(value.timeOpen) || !isHoursTime(value.timeClose)) return false;
  if ((value.timeClose as string) <= (value.timeOpen as string)) return false;
  const capacity = value.capacity;
  return (
    capacity === undefined ||
    (typeof capacity === 'number' && Number.isInteger(capacity) && capacity >= 1 && capacity <= 1_000_000)
  );
}

const timeText = fc.oneof(
  fc.constantFrom('00:00', '09:00', '09:30', '12:00', '18:00', '23:59'),
  fc.constantFrom('24:00', '9:00', '0900', '09:60', '09:00:00', '', ' 09:00', '１０:００'),
  fc
    .tuple(fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 61 }))
    .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`),
);
const capacityValue = fc.oneof(
  fc.integer({ min: 1, max: 1000 }),
  fc.constantFrom<unknown>(0, -1, 1.5, 1_000_001, '5', null, true),
);
const hoursEntry: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constant(null) },
  {
    weight: 6,
    arbitrary: fc.record(
      { timeOpen: timeText, timeClose: timeText, capacity: capacityValue },
      { requiredKeys: ['timeOpen', 'timeClose'] },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>('closed', 0, [], {}, { timeOpen: '09:00', timeClose: '18:00', open: true }),
  },
);
/** A valid day: closed, or hours that close after they open, with or without a capacity. */
const validHoursEntry: fc.Arbitrary<HoursEntry> = fc.oneof(
  fc.constant(null),
  fc
    .tuple(
      fc.integer({ min: 0, max: 23 * 60 + 58 }),
      fc.integer({ min: 1, max: 24 * 60 }),
      fc.option(fc.integer({ min: 1, max: 1_000_000 }), { nil: undefined }),
    )
    .map(([open, length, capacity]) => {
      const close = Math.min(open + length, 23 * 60 + 59);
      const time = (minutes: number) =>
        `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
      const hours = { timeOpen: time(open), timeClose: time(close) };
      return capacity === undefined ? hours : { ...hours, capacity };
    }),
);
/** A valid week, then, half of the time, one near miss: a day changed to anything, a day left out, or a key added. */
const weekBody = fc
  .tuple(
    fc.array(validHoursEntry, { minLength: 7, maxLength: 7 }),
    fc.option(fc.tuple(fc.integer({ min: 0, max: 6 }), fc.constantFrom('change', 'omit', 'add'), hoursEntry), {
      nil: undefined,
    }),
  )
  .map(([entries, miss]) => {
    const week: Record<string, unknown> = Object.fromEntries(HOURS_DAYS.map((day, i) => [day, entries[i]]));
    if (miss !== undefined) {
      const [index, how, entry] = miss;
      if (how === 'change') week[HOURS_DAYS[index]] = entry;
      if (how === 'omit') delete week[HOURS_DAYS[index]];
      if (how === 'add') week.holiday = entry;
    }
    return week;
  });

/** A `YYYY-MM-DD` of a year from 1000 (the oracle's calendarDay reads years 0-99 as 19xx). */
const hoursDateText = fc.oneof(
  fc
    .tuple(fc.integer({ min: 1000, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }))
    .map(([y, m, d]) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`),
  fc.constantFrom('2026-02-29', '2028-02-29', '2026-13-01', '2026-1-1', 'today', '', '2026-12-01T00:00'),
);
const pageText = fc.oneof(
  fc.integer({ min: 1, max: 40 }).map(String),
  fc.bigInt({ min: 1n, max: 10n ** 20n }).map(String),
  fc.constantFrom('0', '-1', '1.5', 'two', '', ' 1'),
);
const limitText = fc.oneof(fc.integer({ min: 0, max: 40 }).map(String), fc.constantFrom('-1', '10.0', 'ten', ''));
const hoursQuery = fc.record(
  { startDate: hoursDateText, page: pageText, limit: limitText, limt: fc.constant('5') },
  { requiredKeys: [] },
);

/** The open days the model week gives from `start` on, within the 366-day horizon. */
function expectedOpenDays(
  start: string,
): { date: string; timeOpen: string; timeClose: string; ticketsAvailable?: number }[] {
  const days = [];
  const first = new Date(`${start}T00:00:00Z`).getTime();
  for (let i = 0; i < 366; i++) {
    const instant = new Date(first + i * 86_400_000);
    if (instant.getUTCFullYear() > 9999) break;
    const entry = modelWeek[HOURS_DAYS[(instant.getUTCDay() + 6) % 7]];
    if (entry === null) continue;
    const date = instant.toISOString().slice(0, 10);
    const { timeOpen, timeClose, capacity } = entry;
    days.push(
      capacity === undefined
        ? { date, timeOpen, timeClose }
        : { date, timeOpen, timeClose, ticketsAvailable: capacity },
    );
  }
  return days;
}

function properties(kit: FuzzKit): ReturnType<FuzzProperties['properties']> {
  const { send, fuzz, counts, record, parseJson, checkCommon } = kit;

  const putJson = (path: string, body: unknown) =>
    send('PUT', path, { Authorization: AUTH, 'Content-Type': 'application/json' }, Buffer.from(JSON.stringify(body)));

  const weekOutcomes = new Set<number>();

  return [
    {
      title:
        'PUT /museum-hours/weekly with near-miss weeks: a valid one is stored as sent, any other is a 400 naming its days and changes nothing',
      run: async () => {
        await fuzz('museum hours weeks', weekBody, SHARE.week, async (body) => {
          counts.generated++;
          // From the week as stored: a failed run (and fast-check's shrinking after it) starts right.
          modelWeek = parseJson(await send('GET', '/museum-hours/weekly', { Authorization: AUTH })) as Record<
            string,
            HoursEntry
          >;
          const reply = await putJson('/museum-hours/weekly', body);
          record(reply);
          const failing = [
            ...HOURS_DAYS.filter((day) => !(day in body) || !hoursEntryValid(body[day])),
            ...('holiday' in body ? ['holiday'] : []),
          ];
          if (failing.length === 0) {
            expect(reply.status, `PUT weekly ${JSON.stringify(body)} → ${reply.text}`).toBe(200);
            // As JSON: fast-check's records may have a null prototype, which toStrictEqual compares.
            const sent = JSON.parse(JSON.stringify(body)) as Record<string, HoursEntry>;
            expect(parseJson(reply)).toStrictEqual(sent);
            modelWeek = sent;
          } else {
            const problem = checkCommon(reply, '/museum-hours/weekly', Object.keys(body));
            expect(reply.status, `PUT weekly ${JSON.stringify(body)}`).toBe(400);
            const named = ((problem?.errors ?? []) as { field: string }[]).map((error) => error.field);
            expect(named.sort(), `the 400 names exactly ${failing.join(', ')}: ${reply.text}`).toEqual(failing.sort());
          }
          const read = await send('GET', '/museum-hours/weekly', { Authorization: AUTH });
          expect(parseJson(read)).toStrictEqual(modelWeek);
          weekOutcomes.add(reply.status);
        });
        expect([...weekOutcomes].sort((a, b) => a - b)).toEqual([200, 400]);
      },
    },

    {
      title:
        'GET /museum-hours query strings: exactly the open days of the model week, paged, or a 400 naming each bad parameter',
      run: async () => {
        // A week with closed days and a capacity, so that paging skips days and ticketsAvailable shows.
        modelWeek = {
          monday: null,
          tuesday: { timeOpen: '09:00', timeClose: '18:00' },
          wednesday: { timeOpen: '09:00', timeClose: '18:00' },
          thursday: { timeOpen: '12:00', timeClose: '21:00' },
          friday: { timeOpen: '09:00', timeClose: '18:00' },
          saturday: { timeOpen: '10:00', timeClose: '16:00', capacity: 300 },
          sunday: null,
        };
        expect((await putJson('/museum-hours/weekly', modelWeek)).status).toBe(200);
        await fuzz('museum hours queries', hoursQuery, SHARE.query, async (query) => {
          counts.generated++;
          const search = new URLSearchParams(query as Record<string, string>).toString();
          const path = `/museum-hours${search === '' ? '' : `?${search}`}`;
          const today = suiteDate(0);
          const reply = await send('GET', path, { Authorization: AUTH });
          record(reply);
          const failing: string[] = [];
          if (query.startDate !== undefined && !isQueryDate(query.startDate)) failing.push('startDate');
          if (
            query.page !== undefined &&
            !(/^[1-9]\d*$/.test(query.page) && BigInt(query.page) <= BigInt(Number.MAX_SAFE_INTEGER))
          )
            failing.push('page');
          if (query.limit !== undefined && !(/^[1-9]\d*$/.test(query.limit) && Number(query.limit) <= 30))
            failing.push('limit');
          if (query.limt !== undefined) failing.push('limt');
          if (failing.length > 0) {
            const problem = checkCommon(reply, '/museum-hours', Object.values(query));
            expect(reply.status, `GET ${path}`).toBe(400);
            const named = ((problem?.errors ?? []) as { field: string }[]).map((error) => error.field);
            expect(named.sort(), `the 400 names exactly ${failing.join(', ')}: ${reply.text}`).toEqual(failing.sort());
            return;
          }
          expect(reply.status, `GET ${path} → ${reply.text.slice(0, 300)}`).toBe(200);
          const limit = query.limit === undefined ? 10 : Number(query.limit);
          const skip = query.page === undefined ? 0 : Number(BigInt(query.page) - 1n) * limit;
          const expected = expectedOpenDays(query.startDate ?? today).slice(skip, skip + limit);
          expect(JSON.parse(reply.text), `GET ${path}`).toStrictEqual(expected);
        });
      },
    },

    {
      title:
        'PUT /museum-hours/{date} with near-miss dates and bodies: 200 with the exception as sent, or a 400 and nothing stored',
      run: async () => {
        const body = fc.oneof(
          fc.record({ closed: fc.constantFrom<unknown>(true, false, 'true', 1) }),
          fc.record({ closed: fc.constant(true), timeOpen: timeText }),
          fc.record({ timeOpen: timeText, timeClose: timeText, capacity: capacityValue }, { requiredKeys: [] }),
        );
        await fuzz('museum hours dates', fc.tuple(hoursDateText, body), SHARE.date, async ([date, exception]) => {
          counts.generated++;
          const path = `/museum-hours/${encodeURIComponent(date)}`;
          const reply = await putJson(path, exception);
          record(reply);
          const fields = exception as Record<string, unknown>;
          const validDate = isQueryDate(date);
          const validBody =
            'closed' in fields
              ? fields.closed === true && Object.keys(fields).length === 1
              : hoursEntryValid(fields) && 'timeOpen' in fields && 'timeClose' in fields;
          if (!validDate || !validBody) {
            checkCommon(reply, path, [date, ...Object.keys(fields)]);
            expect([400, 404, 405], `PUT ${path} ${JSON.stringify(exception)} → ${reply.text}`).toContain(reply.status);
            if (validDate) expect(reply.status).toBe(400);
            if (validDate) expect((await send('DELETE', path, { Authorization: AUTH })).status).toBe(404);
            return;
          }
          expect(reply.status, `PUT ${path} ${JSON.stringify(exception)} → ${reply.text}`).toBe(200);
          expect(parseJson(reply)).toStrictEqual({ date, ...fields });
          expect((await send('DELETE', path, { Authorization: AUTH })).status).toBe(204);
        });
      },
    },
  ];
}

const museumHours: FuzzProperties = { title: '/museum-hours', properties };

export default museumHours;
