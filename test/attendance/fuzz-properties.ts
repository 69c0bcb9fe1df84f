import fc from 'fast-check';
import { expect } from 'vitest';
import {
  anyCodePoint,
  type FuzzKit,
  type FuzzProperties,
  isQueryDate,
  isUuid,
  type Reply,
  unit,
  validUuid,
} from '../helpers/fuzz.js';
import { AUTH } from '../helpers/test-app.js';

/**
 * The attendance routes' property for test/fuzz.e2e-spec.ts, against an oracle written from
 * docs/api.md (Attendance), never from src/: a path segment that is an event id answers 200 (the
 * event exists) or 404, and a date 200 with that date's counts; anything else is a 400 (or a 404
 * where the segment changes the path's shape), and never a 5xx.
 */

/** Share of the file's request budget. */
const SHARE = { attendance: 0.01 } as const;

const COUNTS = ['sold', 'checkedIn', 'cancelled'] as const;

/** A segment as sent (percent-encoded), in every form a caller may get wrong. */
const segment = fc.oneof(
  { weight: 3, arbitrary: validUuid },
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.integer({ min: 1000, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }))
      .map(([y, m, d]) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`),
  },
  { weight: 1, arbitrary: fc.constantFrom('2028-02-29', '2026-02-29', '2026-1-1', 'today', '2026-12-01T00:00') },
  {
    weight: 2,
    arbitrary: fc
      .string({ unit: fc.oneof(unit, anyCodePoint), maxLength: 40 })
      .filter((s) => s.isWellFormed() && s !== '')
      .map(encodeURIComponent),
  },
  { weight: 1, arbitrary: fc.uuid().map((id) => id.replaceAll('-', '')) },
);

function decoded(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** What is wrong with a row's counts (each a whole number ≥ 0, checkedIn within sold), if anything. */
function countProblems(row: Record<string, unknown>): string[] {
  const problems = COUNTS.filter((key) => !(Number.isInteger(row[key]) && (row[key] as number) >= 0)).map(
    (key) => `${key} is not a whole number ≥ 0`,
  );
  if ((row.checkedIn as number) > (row.sold as number)) problems.push('checkedIn is over sold');
  return problems;
}

function properties(kit: FuzzKit): ReturnType<FuzzProperties['properties']> {
  const { send, fuzz, checkCommon, record, counts } = kit;
  const read = async (path: string): Promise<Reply> => {
    counts.generated++;
    const reply = await send('GET', path, { Authorization: AUTH });
    record(reply);
    return reply;
  };
  return [
    {
      title: 'any path segment: 200 with well-formed counts for an event or a date, otherwise a 400 or 404',
      run: async () => {
        await fuzz('attendance path segments', segment, SHARE.attendance, async (text) => {
          const value = decoded(text);
          const eventPath = `/special-events/${text}/attendance`;
          const event = await read(eventPath);
          const context = `GET ${eventPath} → ${event.status} ${event.text.slice(0, 300)}`;
          if (value !== null && isUuid(value)) {
            expect([200, 404], `${context}`).toContain(event.status);
            if (event.status === 200) {
              const rows = JSON.parse(event.text) as Record<string, unknown>[];
              expect(rows.flatMap(countProblems), `${context}`).toEqual([]);
            } else checkCommon(event, eventPath, [text]);
          } else {
            checkCommon(event, eventPath, [text]);
            expect([400, 404], `${context}`).toContain(event.status);
          }

          const dayPath = `/museum-hours/${text}/attendance`;
          const day = await read(dayPath);
          const dayContext = `GET ${dayPath} → ${day.status} ${day.text.slice(0, 300)}`;
          if (value !== null && isQueryDate(value)) {
            expect(day.status, `${dayContext}`).toBe(200);
            const rows = JSON.parse(day.text) as Record<string, unknown>[];
            expect(
              rows.map((row) => row.date),
              `${dayContext}`,
            ).toEqual([value]);
            expect(rows.flatMap(countProblems), `${dayContext}`).toEqual([]);
          } else {
            checkCommon(day, dayPath, [text]);
            expect([400, 404], `${dayContext}`).toContain(day.status);
          }
        });
      },
    },
  ];
}

const attendance: FuzzProperties = {
  title: 'GET /special-events/{eventId}/attendance and GET /museum-hours/{date}/attendance',
  properties,
};

export default attendance;
