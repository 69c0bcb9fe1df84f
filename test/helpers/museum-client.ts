import { Ajv, type AnySchema } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { parse } from 'yaml';
import type { components, paths } from '../../.test-build/museum-api/schema.js';
import { basicHeader, TEST_PASSWORD, TEST_USER, type TestApp } from './test-app.js';

/**
 * The kit of test/museum-client.e2e-spec.ts: a client generated from the Redocly Museum API
 * (openapi-typescript's types in the gitignored .test-build/museum-api/, openapi-fetch's requests,
 * a middleware adding the Basic credentials and nothing else), and the Museum API's own schemas to
 * validate its answers with. A feature whose operations the Museum API has tests them with it in
 * `test/<feature>/museum-client-rows.ts`, whose default export is a MuseumClientRows; the file runs
 * them in its describe.
 */

export type MuseumEvent = components['schemas']['SpecialEvent'];
export type MuseumClient = Client<paths>;

const MUSEUM_API = resolve(import.meta.dirname, '../fixtures/museum-api/museum-openapi.yaml');

interface MuseumDocument {
  readonly components: { readonly schemas: Record<string, unknown> };
}

const addFormats = addFormatsModule.default;
const museumDocument = parse(readFileSync(MUSEUM_API, 'utf8')) as MuseumDocument;
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
// OpenAPI's numeric formats, which JSON Schema does not define (the Museum API's price is `float`).
for (const format of ['int32', 'int64', 'float', 'double']) ajv.addFormat(format, true);

/** What is wrong with `value` as the Museum API's schema `name` (empty: nothing). */
export function museumSchemaProblems(name: string, value: unknown): string[] {
  const validate = ajv.compile({
    $ref: `#/components/schemas/${name}`,
    components: museumDocument.components,
  } as AnySchema);
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}

/** The credentials, added to every request by openapi-fetch's middleware: the client is otherwise as generated. */
function basicCredentials(username: string, password: string): Middleware {
  const authorization = basicHeader(username, password);
  return {
    onRequest({ request }) {
      request.headers.set('Authorization', authorization);
      return request;
    },
  };
}

export function museumClient(baseUrl: string, password = TEST_PASSWORD): MuseumClient {
  const client = createClient<paths>({ baseUrl });
  client.use(basicCredentials(TEST_USER, password));
  return client;
}

/**
 * The Museum API's own create example, with dates of a year no other test of the file uses, so
 * that a date-range list finds exactly the events of one test.
 */
export function museumEvent(year: number, overrides: Partial<MuseumEvent> = {}): MuseumEvent {
  return {
    name: 'Mermaid Treasure Identification and Analysis',
    location: 'Under the seaaa 🦀 🎶 🌊.',
    eventDescription:
      'Join us as we review and classify a rare collection of 20 thingamabobs, gadgets, gizmos, whoosits, and whatsits, kindly donated by Ariel.',
    dates: [`${year}-09-05`, `${year}-09-08`],
    price: 0,
    ...overrides,
  };
}

/** What a feature's tests get from the file. */
export interface MuseumClientKit {
  readonly t: TestApp;
  /** The client with the right credentials (made before the tests: read it in a test). */
  readonly museum: MuseumClient;
  /** Creates an event with the client: a 201 with the event as sent, valid as the Museum API's SpecialEvent. */
  readonly create: (event: MuseumEvent) => Promise<MuseumEvent & { eventId: string }>;
}

/** What one feature contributes. */
export interface MuseumClientRows {
  /** Its operations' tests, run in the file's describe after the events', feature by feature. */
  readonly tests: (kit: MuseumClientKit) => readonly { readonly title: string; readonly run: () => Promise<void> }[];
  /**
   * Each of its operations called by `intruder` (a wrong password), given an event on `eventDay`
   * made with the right one, labelled by operation id with the status it got (each must be 401);
   * it checks itself that nothing of its changed.
   */
  readonly intruderStatuses: (
    kit: MuseumClientKit,
    intruder: MuseumClient,
    event: { readonly eventId: string; readonly eventDay: string },
  ) => Promise<readonly (readonly [string, number])[]>;
}
