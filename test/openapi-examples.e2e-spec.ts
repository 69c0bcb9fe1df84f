import { describe, expect, it } from 'vitest';
import { featureRows } from './helpers/feature-rows.js';
import { documentOf, type ExampleRead, exampleQuery, type Json, send } from './helpers/openapi-examples.js';
import { useTestApp } from './helpers/test-app.js';

/**
 * What the /docs page's "Try it out" sends (test/helpers/openapi-examples.ts), sent to a service
 * that has the data they speak of: they must find it and succeed, not answer `[]` or a problem.
 * Each feature's lists come from its `openapi-example-reads.ts`; its bodies are tried in its folder.
 */

const t = useTestApp();

describe('the OpenAPI examples, tried out', () => {
  it('list the events and the open days there are, whatever year it is', async () => {
    const doc = await documentOf(t.baseUrl);
    const nextYear = new Date().getUTCFullYear() + 1;
    const created = await send(t.baseUrl, 'POST', '/special-events', {
      name: 'Tried out',
      location: 'Hall',
      eventDescription: 'Found by the examples.',
      dates: [`${nextYear}-03-01`],
      price: 10,
    });
    expect(created.status).toBe(201);
    const reads = (await featureRows<ExampleRead[]>('openapi-example-reads')).flatMap(({ rows }) => rows);
    for (const read of reads) await read.prepare?.(t.baseUrl);

    const events = await send(t.baseUrl, 'GET', `/special-events?${exampleQuery(doc, '/special-events')}`);
    expect(events.status).toBe(200);
    expect(((await events.json()) as Json[]).map((event) => event.name)).toContain('Tried out');

    expect(reads.length).toBeGreaterThan(0);
    for (const read of reads) {
      const answer = await send(t.baseUrl, 'GET', `${read.path}?${exampleQuery(doc, read.path)}`);
      expect({ path: read.path, status: answer.status }).toEqual({ path: read.path, status: 200 });
      await read.check(answer, 'Tried out');
    }
  });

  it('show a ticket whose type agrees with its eventId', async () => {
    const doc = await documentOf(t.baseUrl);
    for (const name of ['TicketConfirmationResponse', 'TicketResponse']) {
      const properties = (doc.components.schemas[name] as Json).properties as Record<string, Json>;
      const shownType = properties.ticketType.example ?? (properties.ticketType.enum as string[])[0];
      // Swagger UI shows every property, eventId included: the type shown must be an event's.
      expect(properties).toHaveProperty('eventId');
      expect({ name, shownType }).toEqual({ name, shownType: 'event' });
    }
  });
});
