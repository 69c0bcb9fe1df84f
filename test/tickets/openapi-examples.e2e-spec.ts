import { describe, expect, it, vi } from 'vitest';
import { documentOf, exampleBody, send } from '../helpers/openapi-examples.js';
import { useTestApp } from '../helpers/test-app.js';
import { OPEN_EVERY_DAY, setWeeklyHours } from '../museum-hours/api.js';

/** POST /tickets as the /docs page's "Try it out" sends it (test/helpers/openapi-examples.ts). */

const t = useTestApp();

describe('the OpenAPI examples, tried out', () => {
  it('buy a general-admission ticket with the default POST /tickets example, no event needed', async () => {
    const doc = await documentOf(t.baseUrl);
    expect((await setWeeklyHours(t.baseUrl, OPEN_EVERY_DAY)).status).toBe(200);
    const body = exampleBody(doc, '/tickets');
    expect(body).not.toHaveProperty('eventId');
    // The example's date is fixed in the document; sales open 366 days ahead and close on the
    // day: the service's clock stands a month before that date, where a reader tries it out.
    const month = 30 * 86_400_000;
    vi.spyOn(Date, 'now').mockReturnValue(Date.parse(`${String(body.ticketDate)}T12:00:00Z`) - month);
    const bought = await send(t.baseUrl, 'POST', '/tickets', body);
    expect(bought.status).toBe(201);
    expect(await bought.json()).toMatchObject({ ticketType: 'general' });
  });
});
