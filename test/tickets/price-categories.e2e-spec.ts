import request from 'supertest';
import { DataSource } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { FAMILY_PRICES, setAdmissionPrices } from '../admission-prices/api.js';
import { suiteDate, useMuseumClock } from '../helpers/clock.js';
import { expectProblem, expectStatus, validEvent } from '../helpers/problem-assertions.js';
import { AUTH, type TestApp, useTestApp } from '../helpers/test-app.js';
import { setHoursOn } from '../museum-hours/api.js';
import { buyTicket, cancelTicket, readTicket, TICKETS_PATH } from './api.js';

/**
 * POST /tickets with a price category, over HTTP on SQLite and MySQL: an event ticket costs its
 * category's price in the event's `prices`, a general one its category's in GET
 * /admission-prices; the ticket keeps the category and the price it was sold at whatever prices
 * say later (its refundDue too); an unknown category is a 400 naming the valid ones and sells
 * nothing; without a category a ticket is bought and read exactly as before.
 */

const t = useTestApp();
useMuseumClock(t);

const DATE = suiteDate(3);
const PRICES = [
  { category: 'adult', price: 20 },
  { category: 'child', price: 0 },
  { category: 'student', price: 12.5 },
];

type Errors = { errors: { field: string; message: string }[] };

async function createEvent(fields: Record<string, unknown> = {}): Promise<string> {
  const event = validEvent({ dates: [DATE], price: 25, prices: PRICES, ...fields });
  expectStatus(await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(event), 201);
  return event.eventId as string;
}

const patchEvent = (eventId: string, patch: object) =>
  request(t.baseUrl).patch(`/special-events/${eventId}`).set('Authorization', AUTH).send(patch);

async function buy(body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await buyTicket(t.baseUrl, body);
  expectStatus(res, 201);
  return res.body as Record<string, unknown>;
}

async function ticket(ticketId: unknown): Promise<Record<string, unknown>> {
  const res = await readTicket(t.baseUrl, ticketId as string);
  expectStatus(res, 200);
  return res.body as Record<string, unknown>;
}

async function count(app: TestApp, sql: string, parameters: unknown[]): Promise<number> {
  const rows = (await app.app.get(DataSource).query(sql, parameters)) as { n: unknown }[];
  return Number(rows[0].n);
}

describe('event tickets in a price category', () => {
  it('sells at the category price and keeps category and price after the event prices change', async () => {
    const eventId = await createEvent();
    const confirmation = await buy({ ticketType: 'event', eventId, ticketDate: DATE, category: 'student' });
    expect(confirmation).toMatchObject({ ticketType: 'event', eventId, category: 'student' });
    expect(await ticket(confirmation.ticketId)).toMatchObject({ category: 'student', price: 12.5, status: 'active' });

    const raised = PRICES.map((entry) => ({ ...entry, price: entry.price + 5 }));
    expectStatus(await patchEvent(eventId, { prices: raised, price: 30 }), 200);
    expect(await ticket(confirmation.ticketId)).toMatchObject({ category: 'student', price: 12.5 });
    const later = await buy({ ticketType: 'event', eventId, ticketDate: DATE, category: 'student' });
    expect(await ticket(later.ticketId)).toMatchObject({ category: 'student', price: 17.5 });

    // The box office owes what was paid, not what the category costs now.
    const cancelled = await cancelTicket(t.baseUrl, confirmation.ticketId as string);
    expectStatus(cancelled, 200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', category: 'student', price: 12.5, refundDue: 12.5 });
  });

  it('sells a category priced 0, and still keeps it once the event has no categories at all', async () => {
    const eventId = await createEvent();
    const child = await buy({ ticketType: 'event', eventId, ticketDate: DATE, category: 'child' });
    expectStatus(await patchEvent(eventId, { prices: null }), 200);
    expect(await ticket(child.ticketId)).toMatchObject({ category: 'child', price: 0 });
    const rows = (await t.app
      .get(DataSource)
      .query('SELECT category, price_paid FROM tickets WHERE ticket_id = ?', [child.ticketId])) as {
      category: string;
      price_paid: number;
    }[];
    expect(rows.map((row) => ({ ...row, price_paid: Number(row.price_paid) }))).toEqual([
      { category: 'child', price_paid: 0 },
    ]);
  });

  it('shows the category in a CSV export, quoted and never a formula, and empty without one', async () => {
    const category = '=1+1, "kids"';
    const eventId = await createEvent({ prices: [{ category, price: 3 }] });
    const kid = await buy({ ticketType: 'event', eventId, ticketDate: DATE, category });
    const plain = await buy({ ticketType: 'event', eventId, ticketDate: DATE });
    const res = await request(t.baseUrl)
      .get(`/tickets?eventId=${eventId}`)
      .set('Authorization', AUTH)
      .set('Accept', 'text/csv');
    expectStatus(res, 200);
    const lines = res.text.split('\r\n');
    expect(lines[0]).toMatch(/^ticketId,ticketType,ticketDate,eventId,email,category,price,/);
    expect(lines[1]).toContain(`${kid.ticketId as string},event,${DATE},${eventId},,"'=1+1, ""kids""",3,`);
    expect(lines[2]).toContain(`${plain.ticketId as string},event,${DATE},${eventId},,,25,`);
  });

  it('sells without a category at the event price, and the ticket has no category key', async () => {
    const eventId = await createEvent();
    const confirmation = await buy({ ticketType: 'event', eventId, ticketDate: DATE });
    expect(confirmation).not.toHaveProperty('category');
    const read = await ticket(confirmation.ticketId);
    expect(read.price).toBe(25);
    expect(read).not.toHaveProperty('category');
  });

  it('refuses an unknown category with 400 naming the valid ones, and takes no seat', async () => {
    const eventId = await createEvent({ capacity: 5 });
    const res = await buyTicket(t.baseUrl, { ticketType: 'event', eventId, ticketDate: DATE, category: 'senior' });
    const { errors } = expectProblem(res, 400, TICKETS_PATH, true) as unknown as Errors;
    expect(errors).toEqual([
      {
        field: 'category',
        message:
          "category must be one of the event's price categories: adult, child, student (or absent for the base price)",
      },
    ]);
    // Categories are compared exactly: letter case counts.
    expectProblem(
      await buyTicket(t.baseUrl, { ticketType: 'event', eventId, ticketDate: DATE, category: 'Adult' }),
      400,
      TICKETS_PATH,
      true,
    );
    expect(await count(t, 'SELECT tickets_sold AS n FROM special_events WHERE event_id = ?', [eventId])).toBe(0);
    expect(await count(t, 'SELECT COUNT(*) AS n FROM tickets WHERE event_id = ?', [eventId])).toBe(0);
  });

  it('refuses a category for an event without categories, saying it has none', async () => {
    const eventId = await createEvent({ prices: undefined });
    const res = await buyTicket(t.baseUrl, { ticketType: 'event', eventId, ticketDate: DATE, category: 'adult' });
    const { errors } = expectProblem(res, 400, TICKETS_PATH, true) as unknown as Errors;
    expect(errors[0].field).toBe('category');
    expect(errors[0].message).toMatch(/not a price category: the event's tickets have none/);
  });

  it('refuses a category of 41 characters, an empty one and one that is not a string', async () => {
    const eventId = await createEvent();
    for (const category of ['x'.repeat(41), '', 7, null]) {
      const res = await buyTicket(t.baseUrl, { ticketType: 'event', eventId, ticketDate: DATE, category });
      const { errors } = expectProblem(res, 400, TICKETS_PATH, true) as unknown as Errors;
      expect(errors.map((error) => error.field)).toEqual(['category']);
    }
    expect(await count(t, 'SELECT COUNT(*) AS n FROM tickets WHERE event_id = ?', [eventId])).toBe(0);
  });
});

describe('general tickets in a price category', () => {
  it('sells at the admission category price and keeps it after the categories change', async () => {
    expectStatus(await setHoursOn(t.baseUrl, DATE, { timeOpen: '09:00', timeClose: '18:00' }), 200);
    expectStatus(await setAdmissionPrices(t.baseUrl, FAMILY_PRICES), 200);
    const child = await buy({ ticketType: 'general', ticketDate: DATE, category: 'child' });
    expect(child).toMatchObject({ ticketType: 'general', category: 'child' });
    expect(await ticket(child.ticketId)).toMatchObject({ category: 'child', price: 5.5 });

    expectStatus(await setAdmissionPrices(t.baseUrl, [{ category: 'child', price: 8 }]), 200);
    expect(await ticket(child.ticketId)).toMatchObject({ category: 'child', price: 5.5 });
    const cancelled = await cancelTicket(t.baseUrl, child.ticketId as string);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', refundDue: 5.5 });
    const next = await buy({ ticketType: 'general', ticketDate: DATE, category: 'child' });
    expect(await ticket(next.ticketId)).toMatchObject({ category: 'child', price: 8 });
  });

  it('sells without a category at GENERAL_ADMISSION_PRICE, with no category key', async () => {
    expectStatus(await setHoursOn(t.baseUrl, DATE, { timeOpen: '09:00', timeClose: '18:00' }), 200);
    expectStatus(await setAdmissionPrices(t.baseUrl, FAMILY_PRICES), 200);
    const plain = await buy({ ticketType: 'general', ticketDate: DATE });
    expect(plain).not.toHaveProperty('category');
    const read = await ticket(plain.ticketId);
    expect(read.price).toBe(t.config.museum.generalAdmissionPrice);
    expect(read).not.toHaveProperty('category');
  });

  it('refuses an unknown category with 400 naming the valid ones, and admits no one', async () => {
    const date = suiteDate(4);
    expectStatus(await setHoursOn(t.baseUrl, date, { timeOpen: '09:00', timeClose: '18:00', capacity: 3 }), 200);
    expectStatus(await setAdmissionPrices(t.baseUrl, FAMILY_PRICES), 200);
    const res = await buyTicket(t.baseUrl, { ticketType: 'general', ticketDate: date, category: 'senior' });
    const { errors } = expectProblem(res, 400, TICKETS_PATH, true) as unknown as Errors;
    expect(errors).toEqual([
      {
        field: 'category',
        message:
          "category must be one of general admission's price categories: adult, child (or absent for the base price)",
      },
    ]);
    expect(await count(t, 'SELECT COUNT(*) AS n FROM tickets WHERE ticket_date = ?', [date])).toBe(0);
    expectStatus(await setAdmissionPrices(t.baseUrl, []), 200);
    const none = await buyTicket(t.baseUrl, { ticketType: 'general', ticketDate: date, category: 'adult' });
    const refused = expectProblem(none, 400, TICKETS_PATH, true) as unknown as Errors;
    expect(refused.errors[0].message).toMatch(/general admission's tickets have none/);
  });
});
