import { AUTH, type TestApp } from '../helpers/test-app.js';

/** A JSON exchange with the app under test, as a suite outside sees it. */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Record<string, unknown> & { errors?: { field: string; message: string }[] };
}

export async function call(
  t: TestApp,
  method: string,
  path: string,
  body?: unknown,
  authorization: string | null = AUTH,
): Promise<Answer> {
  const res = await fetch(`${t.baseUrl}${path}`, {
    method,
    headers: {
      ...(authorization === null ? {} : { Authorization: authorization }),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? {} : (JSON.parse(text) as Answer['body']) };
}

/** A week open every day 09:00-18:00 without a capacity. */
export const OPEN_EVERY_DAY = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => [
    day,
    { timeOpen: '09:00', timeClose: '18:00' },
  ]),
);
