import request from 'supertest';
import { DataSource } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { FAMILY_PRICES, setAdmissionPrices } from '../admission-prices/api.js';
import { suiteDate, useMuseumClock } from '../helpers/clock.js';
import { expectProblem, expectStatus, validEvent } from '../helpers/problem-assertions.js';
import { AUTH, useTestApp } from '../helpers/test-app.js';
import { setHoursOn } from '../museum-hours/api.js';
import { cancelOrder, ORDERS_PATH, placeOrder } from './api.js';

/**
 * An order's lines in price categories, on each database: the family at the box office buys two
 * adult and two child tickets for the tour and two general tickets, each ticket priced and kept in
 * its category; an unknown category is a 400 naming the line's field and the valid ones, and sells
 * nothing. On the suite's museum clock.
 */

const GENERAL_ADMISSION_PRICE = 25;
const t = useTestApp({ GENERAL_ADMISSION_PRICE: String(GENERAL_ADMISSION_PRICE) });
useMuseumClock(t);

const TOUR_PRICES = [
  { category: 'adult', price: 20 },
  { category: 'child', price: 0 },
];

async function count(sql: string): Promise<number> {
  const rows = (await t.app.get(DataSource).query(sql)) as { n: unknown }[];
  return Number(rows[0].n);
}

describe('an order in price categories', () => {
  it('prices each ticket in its line’s category, keeps it, and refunds what was paid', async () => {
    const date = suiteDate(12);
    expectStatus(await setHoursOn(t.baseUrl, date, { timeOpen: '09:00', timeClose: '18:00' }), 200);
    expectStatus(await setAdmissionPrices(t.baseUrl, FAMILY_PRICES), 200);
    const tour = validEvent({ dates: [date], price: 30, prices: TOUR_PRICES, capacity: 10 });
    expectStatus(await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(tour), 201);

    const placed = await placeOrder(t.baseUrl, {
      email: 'family@example.com',
      lines: [
        { ticketType: 'event', eventId: tour.eventId, ticketDate: date, category: 'adult', quantity: 2 },
        { ticketType: 'event', eventId: tour.eventId, ticketDate: date, category: 'child', quantity: 2 },
        { ticketType: 'event', eventId: tour.eventId, ticketDate: date, quantity: 1 },
        { ticketType: 'general', ticketDate: date, category: 'child', quantity: 1 },
        { ticketType: 'general', ticketDate: date, quantity: 1 },
      ],
    });
    expectStatus(placed, 201);
    const tickets = placed.body.tickets as { ticketId: string; category: string | null; price: number }[];
    expect(tickets.map(({ category, price }) => [category, price])).toEqual([
      ['adult', 20],
      ['adult', 20],
      ['child', 0],
      ['child', 0],
      [null, 30],
      ['child', 5.5],
      [null, GENERAL_ADMISSION_PRICE],
    ]);
    expect(placed.body.total).toBe(100.5);

    // The event's prices change: the tickets keep what they were sold at.
    const patched = await request(t.baseUrl)
      .patch(`/special-events/${tour.eventId as string}`)
      .set('Authorization', AUTH)
      .send({ prices: [{ category: 'adult', price: 99 }] });
    expectStatus(patched, 200);
    const adult = await request(t.baseUrl).get(`/tickets/${tickets[0].ticketId}`).set('Authorization', AUTH);
    expect(adult.body).toMatchObject({ category: 'adult', price: 20 });

    const cancelled = await cancelOrder(t.baseUrl, placed.body.orderId as string);
    expectStatus(cancelled, 200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', refundDue: 100.5 });
  });

  it('refuses an unknown category with a 400 naming the line and the valid ones, selling nothing', async () => {
    const date = suiteDate(13);
    expectStatus(await setHoursOn(t.baseUrl, date, { timeOpen: '09:00', timeClose: '18:00' }), 200);
    expectStatus(await setAdmissionPrices(t.baseUrl, FAMILY_PRICES), 200);
    const tour = validEvent({ dates: [date], prices: TOUR_PRICES, capacity: 10 });
    expectStatus(await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(tour), 201);
    const ticketsBefore = await count('SELECT COUNT(*) AS n FROM tickets');
    const ordersBefore = await count('SELECT COUNT(*) AS n FROM orders');

    for (const [line, message] of [
      [
        { ticketType: 'event', eventId: tour.eventId, ticketDate: date, category: 'senior', quantity: 1 },
        "lines[1].category must be one of the event's price categories: adult, child (or absent for the base price)",
      ],
      [
        { ticketType: 'general', ticketDate: date, category: 'senior', quantity: 1 },
        "lines[1].category must be one of general admission's price categories: adult, child (or absent for the base price)",
      ],
    ] as const) {
      const refused = await placeOrder(t.baseUrl, {
        email: 'family@example.com',
        lines: [{ ticketType: 'event', eventId: tour.eventId, ticketDate: date, category: 'adult', quantity: 2 }, line],
      });
      const problem = expectProblem(refused, 400, ORDERS_PATH, true);
      expect(problem.errors).toEqual([{ field: 'lines[1].category', message }]);
    }
    expect(await count('SELECT COUNT(*) AS n FROM tickets')).toBe(ticketsBefore);
    expect(await count('SELECT COUNT(*) AS n FROM orders')).toBe(ordersBefore);
    const event = await request(t.baseUrl)
      .get(`/special-events/${tour.eventId as string}`)
      .set('Authorization', AUTH);
    expect(event.body).toMatchObject({ capacity: 10, ticketsAvailable: 10 });
  });
});
