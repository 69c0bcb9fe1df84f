import fc from 'fast-check';
import type { IncomingHttpHeaders } from 'node:http';
import type { TestApp } from './test-app.js';

/**
 * The kit of the fuzz file (test/fuzz.e2e-spec.ts): what a feature's properties get from it, and
 * the oracle's helpers they share. Each feature's properties sit in its own test folder, in
 * `fuzz-properties.ts`, whose default export is a FuzzProperties; the file runs them all with its
 * seed and request budget.
 */

export interface Reply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

export interface FuzzKit {
  readonly t: TestApp;
  /** One request on the file's keep-alive connection. */
  readonly send: (method: string, path: string, headers: Record<string, string>, body?: Buffer) => Promise<Reply>;
  /** Runs a property for `share` of the request budget; a failure names the seed and the replay command. */
  readonly fuzz: <T>(
    name: string,
    arbitrary: fc.Arbitrary<T>,
    share: number,
    check: (value: T) => Promise<void>,
  ) => Promise<void>;
  /** Never a 5xx; a 4xx is an RFC 9457 problem with nothing internal in it (`echoes` may be quoted). */
  readonly checkCommon: (reply: Reply, instance: string, echoes?: readonly string[]) => Record<string, unknown> | null;
  /** The body as a JSON object (the test fails otherwise). */
  readonly parseJson: (reply: Reply) => Record<string, unknown>;
  /** Counts a generated request's status for the summary line. */
  readonly record: (reply: Reply) => void;
  readonly counts: { generated: number; followUp: number };
}

/** What one feature contributes: properties run in a describe of their own, in this order. */
export interface FuzzProperties {
  /** The routes they fuzz, for the describe's name. */
  readonly title: string;
  readonly properties: (kit: FuzzKit) => readonly { readonly title: string; readonly run: () => Promise<void> }[];
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const ISO_DATE_OR_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

export function calendarDay(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The `YYYY-MM-DD` an event's date string stands for, or null for free text. */
export function isoDay(text: string): string | null {
  const match = ISO_DATE_OR_TIME.exec(text);
  if (!match) return null;
  return calendarDay(Number(match[1]), Number(match[2]), Number(match[3])) ? text.slice(0, 10) : null;
}

export const isQueryDate = (text: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(text) && isoDay(text) === text;

// ---------------------------------------------------------------------------------------------
// Shared by every property: bodies, ids and text (docs/api.md, README)
// ---------------------------------------------------------------------------------------------

/** The deepest a JSON body may nest (containers) before a write refuses it. */
export const MAX_DEPTH = 32;
export const NIL_UUID = '00000000-0000-0000-0000-000000000000';
export const MAX_UUID = 'ffffffff-ffff-ffff-ffff-ffffffffffff';
/** RFC 9562 hyphenated form, versions 1-8, RFC variant (README: plus Nil and Max). */
const RFC_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export const isUuid = (value: string): boolean =>
  RFC_UUID.test(value) || value === NIL_UUID || value.toLowerCase() === MAX_UUID;

/** Containers nested in `value` (a scalar is 0, `{}` is 1); iterative, for very deep input. */
export function nestingDepth(value: unknown): number {
  let deepest = 0;
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop() as [unknown, number];
    if (typeof current !== 'object' || current === null) continue;
    deepest = Math.max(deepest, depth + 1);
    for (const child of Object.values(current)) pending.push([child, depth + 1]);
  }
  return deepest;
}

/** Unicode edge cases, each one string unit (some are several code points). */
const EDGE_UNITS = [
  'a',
  'Z',
  '0',
  ' ',
  '\t',
  '\n',
  '\r',
  '\u00a0',
  '\u1680',
  '\u2007',
  '\u3000',
  '\u2028',
  '\u2029',
  '\u0085',
  '\u200b',
  '\u200c',
  '\u200d',
  '\u200e',
  '\u200f',
  '\u202e',
  '\u2066',
  '\u180e',
  '\ufeff',
  '\u00ad',
  '\u034f',
  '\u0000',
  '\u0001',
  '\u001f',
  '\u007f',
  '\u0301',
  '\u0308',
  'e\u0301',
  '\u05d0',
  '\u05e9\u05dc\u05d5\u05dd',
  '\u0627\u0644\u0639\u0631\u0628\u064a\u0629',
  '\ufffd',
  '\uffff',
  '\ufffe',
  '\u{10ffff}',
  '\u{e0001}',
  '\u{f0000}',
  '\u{1f600}',
  '\u{1f980}',
  '\u{1f468}\u200d\u{1f469}\u200d\u{1f467}',
  '\u{1f3f3}\ufe0f\u200d\u{1f308}',
  '\u{1d54f}',
  '\u4e2d',
  '\\',
  '"',
  "'",
  '/',
  '<',
  '>',
  '&',
  '%',
  '\u2603',
  '\ud800',
  '\udbff',
  '\udc00',
  '\udfff',
];
export const anyCodePoint = fc.integer({ min: 0, max: 0x10ffff }).map((cp) => String.fromCodePoint(cp));
/** One string unit: an edge case, any code point, or plain ASCII. */
export const unit = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...EDGE_UNITS) },
  { weight: 2, arbitrary: anyCodePoint },
  { weight: 4, arbitrary: fc.constantFrom(...Array.from('abcdefXYZ0189 -.')) },
);

/** Small JSON values (depth 3 at most) whose strings are made of `unit`s. */
export const smallJson = fc.jsonValue({ maxDepth: 3, stringUnit: unit });

/** A UUID of any version, in mixed case. */
export const validUuid = fc.mixedCase(fc.uuid());
