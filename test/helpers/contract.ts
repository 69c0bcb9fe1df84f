import { Ajv, type AnySchema } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { UsersService } from '../../src/auth/users.service.js';
import { SUITE_NOW } from './clock.js';
import { AUTH, basicHeader, TEST_USER, type TestApp } from './test-app.js';

/**
 * The kit of the contract table (test/openapi-contract.e2e-spec.ts): what a case is, and the
 * requests every feature's cases share. Each feature's cases sit in its own test folder, in
 * `contract-cases.ts`, whose default export is a ContractCases; the table collects them all.
 */

const addFormats = addFormatsModule.default;

/**
 * The museum's clock in every app the table starts (frozen): a Wednesday. Cases that need
 * "today" or a date ahead derive it from this instant, never from the machine's clock.
 */
export const CONTRACT_NOW = SUITE_NOW;

export type Json = Record<string, unknown>;
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json>; securitySchemes: Record<string, Json> };
  security?: Record<string, string[]>[];
}
export interface Operation {
  operationId: string;
  parameters?: Json[];
  security?: Record<string, string[]>[];
  responses: Record<string, DocumentedResponse>;
}
export interface DocumentedResponse {
  description: string;
  headers?: Record<string, { required?: boolean; schema: Json }>;
  content?: Record<string, { schema: Json; example?: Json }>;
}

/** A real HTTP exchange, as a client sees it. */
export interface Exchange {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
/**
 * The apps the table starts, one at a time: as configured for tests, with a failure limit of 2,
 * with the database gone, and in test mode (TEST_MODE=true: the only one with /testing/ routes).
 */
export type AppKind = 'main' | 'failure-limit-2' | 'database-destroyed' | 'test-mode';

export interface Case {
  readonly app: AppKind;
  readonly method: Method;
  /** The documented path (template). */
  readonly path: string;
  readonly status: number;
  readonly what: string;
  /** Sends the request (and any it needs first) and returns the response to check. */
  readonly send: (t: TestApp) => Promise<Exchange>;
}

/** What the document and its schemas give a check of the document itself. */
export interface DocumentContext {
  readonly doc: OpenApiDocument;
  readonly validate: (schema: Json, value: unknown) => string[];
}

/** What one feature contributes to the contract table. */
export interface ContractCases {
  /** Real requests to its operations, each with the status it must produce. */
  readonly cases: readonly Case[];
  /** Operations whose every documented status some case produces. */
  readonly complete?: readonly (readonly [path: string, method: Method])[];
  /** Checks of what the document says about its operations, by title. */
  readonly documentChecks?: Readonly<Record<string, (context: DocumentContext) => void>>;
}

export const JSON_TYPE = 'application/json';
export const WRONG_AUTH = basicHeader(TEST_USER, 'not the password');
/** Over Node's 16 KiB limit for request headers: answered 431 before any routing. */
export const HUGE_HEADER = { 'X-Padding': 'p'.repeat(20 * 1024) };

export const newEvent = (eventId: string = randomUUID()): Json => ({
  eventId,
  name: 'Mermaid Treasure Identification and Analysis',
  location: 'Under the seaaa 🦀 🎶 🌊.',
  eventDescription: 'Join us as we review and classify a rare collection of 20 thingamabobs.',
  dates: ['2023-09-05', '2023-09-08'],
  price: 19.99,
});

export async function send(
  t: TestApp,
  method: Method,
  path: string,
  init: { headers?: Record<string, string>; body?: string } = {},
): Promise<Exchange> {
  const res = await fetch(`${t.baseUrl}${path}`, {
    method: method.toUpperCase(),
    headers: init.headers,
    body: init.body,
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** Creates a special event (POST /special-events) with the test user's credentials. */
export const post = (t: TestApp, body: string, headers: Record<string, string> = {}): Promise<Exchange> =>
  send(t, 'post', '/special-events', { headers: { Authorization: AUTH, 'Content-Type': JSON_TYPE, ...headers }, body });

/** A new special event: its id. */
export async function created(t: TestApp): Promise<string> {
  const eventId = randomUUID();
  const res = await post(t, JSON.stringify(newEvent(eventId)));
  expect(res.status).toBe(201);
  return eventId;
}

/** Credentials of a new user with the viewer role. */
export async function viewer(t: TestApp): Promise<string> {
  const username = `viewer-${randomUUID().slice(0, 8)}`;
  await t.app.get(UsersService).add(username, 'viewer-password-1', 'viewer');
  return basicHeader(username, 'viewer-password-1');
}

/** Failed authentications until the address is refused with 429 (the limit is 2 in that app). */
export async function exhaustFailures(t: TestApp): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const res = await post(t, JSON.stringify(newEvent()), { Authorization: WRONG_AUTH });
    expect([401, 429]).toContain(res.status);
    if (res.status === 429) return;
  }
  throw new Error('no 429 after 3 failed authentications with AUTH_FAILURE_LIMIT=2');
}

export const getAuthed = (t: TestApp, path: string): Promise<Exchange> =>
  send(t, 'get', path, { headers: { Authorization: AUTH } });
export const postAuthed = (t: TestApp, path: string, body?: string): Promise<Exchange> =>
  send(t, 'post', path, {
    headers: { Authorization: AUTH, ...(body === undefined ? {} : { 'Content-Type': JSON_TYPE }) },
    body,
  });

/** Ajv on the document's schemas: `#/components/schemas/...` references resolve inside the root. */
export function schemaValidator(doc: OpenApiDocument): (schema: Json, value: unknown) => string[] {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  // OpenAPI's numeric formats, which JSON Schema does not define.
  for (const format of ['int32', 'int64', 'float', 'double']) ajv.addFormat(format, true);
  return (schema, value) => {
    const validate = ajv.compile({ allOf: [schema], components: { schemas: doc.components.schemas } } as AnySchema);
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
  };
}
