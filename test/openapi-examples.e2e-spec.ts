import { describe, expect, it, vi } from 'vitest';
import { AUTH, useTestApp } from './helpers/test-app.js';

/**
 * What the /docs page's "Try it out" sends: each parameter's example, and a request body's first
 * named example (else the one built from its properties' examples). Sent to a service that has
 * the data they speak of, they must find it and succeed, not answer `[]` or a problem.
 */

// The OpenAPI document is walked by path, as the /docs page walks it: typing each step adds nothing.
// oxlint-disable-next-line typescript/no-explicit-any
type Json = Record<string, any>;

const t = useTestApp();

async function documentOf(): Promise<Json> {
  const response = await fetch(`${t.baseUrl}/openapi.json`);
  return (await response.json()) as Json;
}

/** The query string "Try it out" fills in from the parameters' examples. */
function exampleQuery(doc: Json, path: string): string {
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
function exampleBody(doc: Json, path: string): Json {
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

const OPEN_EVERY_DAY = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => [
    day,
    { timeOpen: '09:00', timeClose: '18:00' },
  ]),
);

async function send(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${t.baseUrl}${path}`, {
    method,
    headers: { Authorization: AUTH, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

describe('the OpenAPI examples, tried out', () => {
  it('list the events and the open days there are, whatever year it is', async () => {
    const doc = await documentOf();
    const nextYear = new Date().getUTCFullYear() + 1;
    const created = await send('POST', '/special-events', {
      name: 'Tried out',
      location: 'Hall',
      eventDescription: 'Found by the examples.',
      dates: [`${nextYear}-03-01`],
      price: 10,
    });
    expect(created.status).toBe(201);
    expect((await send('PUT', '/museum-hours/weekly', OPEN_EVERY_DAY)).status).toBe(200);

    const events = await send('GET', `/special-events?${exampleQuery(doc, '/special-events')}`);
    expect(events.status).toBe(200);
    expect(((await events.json()) as Json[]).map((event) => event.name)).toContain('Tried out');

    const hours = await send('GET', `/museum-hours?${exampleQuery(doc, '/museum-hours')}`);
    expect(hours.status).toBe(200);
    expect(((await hours.json()) as Json[]).length).toBeGreaterThan(0);

    const feed = await send('GET', `/special-events.ics?${exampleQuery(doc, '/special-events.ics')}`);
    expect(feed.status).toBe(200);
    expect(await feed.text()).toContain('SUMMARY:Tried out');
  });

  it('buy a general-admission ticket with the default POST /tickets example, no event needed', async () => {
    const doc = await documentOf();
    expect((await send('PUT', '/museum-hours/weekly', OPEN_EVERY_DAY)).status).toBe(200);
    const body = exampleBody(doc, '/tickets');
    expect(body).not.toHaveProperty('eventId');
    // The example's date is fixed in the document; sales open 366 days ahead and close on the
    // day: the service's clock stands a month before that date, where a reader tries it out.
    const month = 30 * 86_400_000;
    vi.spyOn(Date, 'now').mockReturnValue(Date.parse(`${String(body.ticketDate)}T12:00:00Z`) - month);
    const bought = await send('POST', '/tickets', body);
    expect(bought.status).toBe(201);
    expect(await bought.json()).toMatchObject({ ticketType: 'general' });
  });

  it('show a ticket whose type agrees with its eventId', async () => {
    const doc = await documentOf();
    for (const name of ['TicketConfirmationResponse', 'TicketResponse']) {
      const properties = (doc.components.schemas[name] as Json).properties as Record<string, Json>;
      const shownType = properties.ticketType.example ?? (properties.ticketType.enum as string[])[0];
      // Swagger UI shows every property, eventId included: the type shown must be an event's.
      expect(properties).toHaveProperty('eventId');
      expect({ name, shownType }).toEqual({ name, shownType: 'event' });
    }
  });
});
