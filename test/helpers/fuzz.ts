import type fc from 'fast-check';
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
