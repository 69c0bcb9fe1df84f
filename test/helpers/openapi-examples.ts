import { AUTH } from './test-app.js';

/**
 * What the /docs page's "Try it out" sends: each parameter's example, and a request body's first
 * named example (else the one built from its properties' examples). test/openapi-examples.e2e-spec.ts
 * tries the lists out, with each feature's reads from its `openapi-example-reads.ts`; a feature's
 * folder tries out its own bodies.
 */

// The OpenAPI document is walked by path, as the /docs page walks it: typing each step adds nothing.
// oxlint-disable-next-line typescript/no-explicit-any
export type Json = Record<string, any>;

/** A feature's list whose parameters' examples must find what the service holds. */
export interface ExampleRead {
  /** The GET path, as the document names it. */
  readonly path: string;
  /** What the service must hold first, beyond the event the shared test creates. */
  readonly prepare?: (baseUrl: string) => Promise<void>;
  /** What the 200 answer must show, given the name of the event the shared test created. */
  readonly check: (answer: Response, eventName: string) => Promise<void>;
}

export async function documentOf(baseUrl: string): Promise<Json> {
  const response = await fetch(`${baseUrl}/openapi.json`);
  return (await response.json()) as Json;
}

/** The query string "Try it out" fills in from the parameters' examples. */
export function exampleQuery(doc: Json, path: string): string {
  const parameters = (doc.paths[path].get.parameters ?? []) as Json[];
  const query = new URLSearchParams();
  for (const parameter of parameters) {
    const example = parameter.example ?? parameter.schema?.example;
    if (parameter.in === 'query' && example !== undefined) query.set(parameter.name, String(example));
  }
  return query.toString();
}

function resolveRef(doc: Json, schema: Json): Json {
  const ref = schema.$ref as string | undefined;
  return ref === undefined ? schema : (doc.components.schemas[ref.split('/').pop()!] as Json);
}

/** The body "Try it out" starts from: the first named example, else the properties' examples. */
export function exampleBody(doc: Json, path: string): Json {
  const media = doc.paths[path].post.requestBody.content['application/json'] as Json;
  const named = Object.values((media.examples ?? {}) as Record<string, Json>)[0];
  if (named !== undefined) return named.value as Json;
  if (media.example !== undefined) return media.example as Json;
  const schema = resolveRef(doc, media.schema as Json);
  return Object.fromEntries(
    Object.entries(schema.properties as Record<string, Json>).map(([name, property]) => [
      name,
      property.example ?? (property.enum as unknown[] | undefined)?.[0],
    ]),
  );
}

/** A request as "Try it out" sends it, with the admin's credentials. */
export async function send(baseUrl: string, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${baseUrl}${path}`, {
    method,
    headers: { Authorization: AUTH, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}
