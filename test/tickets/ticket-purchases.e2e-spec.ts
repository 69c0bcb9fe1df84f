import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { UsersService } from '../../src/auth/users.service.js';
import { expectProblem, expectStatus, validEvent } from '../helpers/problem-assertions.js';
import { AUTH, basicHeader, useTestApp, type TestApp } from '../helpers/test-app.js';
import { decodeQr } from '../helpers/tickets.js';
import { setHoursOn } from '../museum-hours/api.js';

/**
 * POST /tickets (buyMuseumTickets, issue 28) over HTTP, on each database: both kinds of ticket and
 * every status; the price kept is the event's at purchase; no date in the past (the museum's
 * today, on a fake clock); 500 concurrent purchases for 100 places sell exactly 100, for an event
 * and for a day of general admission; Idempotency-Key; and a bought ticket's QR code checks it in.
 */

const DOOR = { user: 'door', password: 'door-password-12345' };
const DOOR_AUTH = basicHeader(DOOR.user, DOOR.password);
const KIOSK_AUTH = basicHeader('kiosk', 'kiosk-password-1234');

const NOW = new Date('2026-12-01T10:00:00.000Z');
const TODAY = '2026-12-01';
/** Saturday 5 December 2026. */
const SATURDAY = '2026-12-05';

const buy = (t: TestApp, body: Record<string, unknown>, auth = DOOR_AUTH, key?: string): request.Test => {
  const req = request(t.baseUrl).post('/tickets').set('Authorization', auth);
  return (key === undefined ? req : req.set('Idempotency-Key', key)).send(body);
};

async function createEvent(t: TestApp, fields: Record<string, unknown> = {}): Promise<string> {
  const event = validEvent({ dates: [TODAY, SATURDAY, 'every Sunday'], price: 19.99, ...fields });
  expectStatus(await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(event), 201);
  return event.eventId as string;
}

/** Opens the museum on `date` (an exception to the week), with a general-admission capacity or none. */
async function openOn(t: TestApp, date: string, capacity?: number): Promise<void> {
  const res = await setHoursOn(t.baseUrl, date, {
    timeOpen: '09:00',
    timeClose: '18:00',
    ...(capacity === undefined ? {} : { capacity }),
  });
  expectStatus(res, 200);
}

async function ticketRows(t: TestApp, where: string, parameters: unknown[]): Promise<number> {
  const rows = (await t.app.get(DataSource).query(`SELECT COUNT(*) AS n FROM tickets WHERE ${where}`, parameters)) as {
    n: unknown;
  }[];
  return Number(rows[0].n);
}

describe('POST /tickets (buyMuseumTickets)', () => {
  const t = useTestApp();

  beforeAll(async () => {
    await t.app.get(UsersService).add(DOOR.user, DOOR.password, 'box-office');
    await t.app.get(UsersService).add('kiosk', 'kiosk-password-1234', 'viewer');
  }, 60_000);

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sells up to 366 days ahead (the museum-hours horizon), today included; a later date is a 400 and sells nothing', async () => {
    const last = '2027-12-01';
    const eventId = await createEvent(t, { dates: [last, '2027-12-02', '9999-12-31'] });
    await openOn(t, last);
    await openOn(t, '2027-12-02');
    for (const body of [
      { ticketType: 'event', eventId, ticketDate: '2027-12-02' },
      { ticketType: 'event', eventId, ticketDate: '9999-12-31' },
      { ticketType: 'general', ticketDate: '2027-12-02' },
      { ticketType: 'general', ticketDate: '9999-12-31' },
    ]) {
      const problem = expectProblem(await buy(t, body), 400, '/tickets', true);
      expect(problem.errors).toEqual([
        {
          field: 'ticketDate',
          message: `ticketDate must be at most ${last}: tickets are sold up to 366 days ahead, today included`,
        },
      ]);
    }
    expect(await ticketRows(t, 'ticket_date > ?', [last])).toBe(0);
    expectStatus(await buy(t, { ticketType: 'event', eventId, ticketDate: last }), 201);
    expectStatus(await buy(t, { ticketType: 'general', ticketDate: last }), 201);
  });

  it('an event ticket: 201 with the Museum API confirmation and a Location; the ticket keeps the price paid', async () => {
    const eventId = await createEvent(t);
    const res = await buy(t, {
      ticketType: 'event',
      eventId: eventId.toUpperCase(),
      ticketDate: SATURDAY,
      email: 'todd@example.com',
    });
    expectStatus(res, 201);
    const body = res.body as Record<string, string>;
    expect(body).toEqual({
      message: 'Museum special event ticket purchased',
      ticketId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      ticketType: 'event',
      ticketDate: SATURDAY,
      eventId,
      confirmationCode: expect.stringMatching(/^ticket-[A-Za-z0-9_-]{22}$/),
    });
    expect(res.headers.location).toBe(`/tickets/${body.ticketId}`);

    // A later price change does not touch the ticket sold.
    expectStatus(
      await request(t.baseUrl)
        .patch(`/special-events/${eventId}`)
        .set('Authorization', AUTH)
        .set('Content-Type', 'application/merge-patch+json')
        .send({ price: 30 }),
      200,
    );
    const ticket = await request(t.baseUrl).get(`/tickets/${body.ticketId}`).set('Authorization', DOOR_AUTH);
    expectStatus(ticket, 200);
    expect(ticket.body).toEqual({
      ticketId: body.ticketId,
      ticketType: 'event',
      ticketDate: SATURDAY,
      eventId,
      email: 'todd@example.com',
      price: 19.99,
      confirmationCode: body.confirmationCode,
      status: 'active',
      createdAt: NOW.toISOString(),
      checkedInAt: null,
      cancelledAt: null,
      refundDue: null,
    });
    const second = await buy(t, { ticketType: 'event', eventId, ticketDate: SATURDAY });
    expectStatus(second, 201);
    expect(
      (await request(t.baseUrl).get(`/tickets/${second.body.ticketId}`).set('Authorization', AUTH)).body,
    ).toMatchObject({
      price: 30,
      email: null,
    });
  });

  it('a general ticket: 201 at GENERAL_ADMISSION_PRICE on a day the museum is open, 422 on a closed day', async () => {
    const closed = expectProblem(await buy(t, { ticketType: 'general', ticketDate: '2026-12-07' }), 422, '/tickets');
    expect(closed.detail).toMatch(/2026-12-07/);
    await openOn(t, TODAY);
    const res = await buy(t, { ticketType: 'general', ticketDate: TODAY });
    expectStatus(res, 201);
    expect(res.body).toEqual({
      message: 'Museum general entry ticket purchased',
      ticketId: expect.any(String),
      ticketType: 'general',
      ticketDate: TODAY,
      confirmationCode: expect.stringMatching(/^ticket-/),
    });
    const ticket = await request(t.baseUrl).get(`/tickets/${res.body.ticketId}`).set('Authorization', AUTH);
    expect(ticket.body).toMatchObject({ ticketType: 'general', price: t.config.museum.generalAdmissionPrice });
    expect(ticket.body).not.toHaveProperty('eventId');
  });

  it('refuses: 404 no such event, 422 not one of its ISO dates, 400 a past date or bad fields, 403 a viewer', async () => {
    const eventId = await createEvent(t);
    const unknown = randomUUID();
    expect(
      expectProblem(await buy(t, { ticketType: 'event', eventId: unknown, ticketDate: SATURDAY }), 404, '/tickets')
        .detail,
    ).toBe(`No special event has eventId ${unknown}.`);
    const notADate = expectProblem(
      await buy(t, { ticketType: 'event', eventId, ticketDate: '2026-12-03' }),
      422,
      '/tickets',
    );
    expect(notADate.detail).toBe(`2026-12-03 is not a date of this event; its dates are ${TODAY}, ${SATURDAY}.`);

    const past = expectProblem(
      await buy(t, { ticketType: 'event', eventId, ticketDate: '2026-11-30' }),
      400,
      '/tickets',
      true,
    );
    expect(past.errors).toEqual([
      {
        field: 'ticketDate',
        message: `ticketDate must not be in the past: today is 2026-12-01 in the museum's time zone (${t.config.museum.timeZone})`,
      },
    ]);
    const bad = expectProblem(
      await buy(t, { ticketType: 'vip', ticketDate: '2026-02-30', email: 'not-an-address', extra: 1 }),
      400,
      '/tickets',
      true,
    );
    expect((bad.errors as { field: string }[]).map(({ field }) => field).sort()).toEqual([
      'email',
      'extra',
      'ticketDate',
      'ticketType',
    ]);
    const noEvent = expectProblem(await buy(t, { ticketType: 'event', ticketDate: SATURDAY }), 400, '/tickets', true);
    expect(noEvent.errors).toEqual([{ field: 'eventId', message: 'eventId is required' }]);
    const generalWithEvent = expectProblem(
      await buy(t, { ticketType: 'general', eventId, ticketDate: SATURDAY }),
      400,
      '/tickets',
      true,
    );
    expect(generalWithEvent.errors).toEqual([
      { field: 'eventId', message: 'eventId must be absent for a general ticket' },
    ]);
    expectProblem(await buy(t, { ticketType: 'event', eventId, ticketDate: SATURDAY }, KIOSK_AUTH), 403, '/tickets');
    expect(await ticketRows(t, 'event_id = ?', [eventId])).toBe(0);
  });

  it('409 sold out (problem type) beyond the capacity of an event, and of a day', async () => {
    const eventId = await createEvent(t, { capacity: 1 });
    expectStatus(await buy(t, { ticketType: 'event', eventId, ticketDate: SATURDAY }), 201);
    const soldOut = expectProblem(
      await buy(t, { ticketType: 'event', eventId, ticketDate: SATURDAY }),
      409,
      '/tickets',
    );
    expect(soldOut.type).toBe('urn:museum:problem:sold-out');
    await openOn(t, SATURDAY, 1);
    expectStatus(await buy(t, { ticketType: 'general', ticketDate: SATURDAY }), 201);
    const daySoldOut = expectProblem(await buy(t, { ticketType: 'general', ticketDate: SATURDAY }), 409, '/tickets');
    expect(daySoldOut.type).toBe('urn:museum:problem:sold-out');
    expect(await ticketRows(t, 'event_id = ?', [eventId])).toBe(1);
  });

  it('Idempotency-Key: a retried purchase gets the same ticket and buys nothing more', async () => {
    const eventId = await createEvent(t, { capacity: 5 });
    const key = randomUUID();
    const first = await buy(t, { ticketType: 'event', eventId, ticketDate: SATURDAY }, DOOR_AUTH, key);
    expectStatus(first, 201);
    const again = await buy(t, { ticketType: 'event', eventId, ticketDate: SATURDAY }, DOOR_AUTH, key);
    expectStatus(again, 201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.text).toBe(first.text);
    expect(await ticketRows(t, 'event_id = ?', [eventId])).toBe(1);
    const event = await request(t.baseUrl).get(`/special-events/${eventId}`).set('Authorization', AUTH);
    expect(event.body).toMatchObject({ capacity: 5, ticketsAvailable: 4 });
    expectProblem(await buy(t, { ticketType: 'general', ticketDate: SATURDAY }, DOOR_AUTH, key), 422, '/tickets');
  });

  it("a bought ticket's QR code, decoded, checks it in at the door on its day", async () => {
    const eventId = await createEvent(t);
    const bought = await buy(t, { ticketType: 'event', eventId, ticketDate: TODAY });
    expectStatus(bought, 201);
    const png = await request(t.baseUrl)
      .get(`/tickets/${bought.body.ticketId}/qr`)
      .set('Authorization', DOOR_AUTH)
      .buffer(true)
      .parse((response, callback) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => callback(null, Buffer.concat(chunks)));
      });
    expect(png.status).toBe(200);
    const code = decodeQr(png.body as Buffer);
    expect(code).toBe(bought.body.confirmationCode);
    const checkedIn = await request(t.baseUrl).post('/check-ins').set('Authorization', DOOR_AUTH).send({ code });
    expectStatus(checkedIn, 200);
    expect(checkedIn.body).toMatchObject({ ticketId: bought.body.ticketId, status: 'checked-in' });
  });
});

describe('POST /tickets under contention: 500 concurrent purchases for 100 places', () => {
  const t = useTestApp();

  beforeAll(async () => {
    await t.app.get(UsersService).add(DOOR.user, DOOR.password, 'box-office');
  }, 60_000);

  afterEach(() => {
    vi.useRealTimers();
  });

  /**
   * Sends all at once and counts the final answers by status. A 503 (with Retry-After: the
   * database was not reached in time, which 500 requests queueing for a pool of 10 may meet) is
   * retried as a client does; the retries are printed, and capacity must hold through them too.
   */
  async function race(body: Record<string, unknown>): Promise<Record<number, number>> {
    let retried = 0;
    const purchase = async (): Promise<number> => {
      for (;;) {
        const res = await fetch(`${t.baseUrl}/tickets`, {
          method: 'POST',
          headers: { Authorization: DOOR_AUTH, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        });
        await res.arrayBuffer();
        if (res.status !== 503) return res.status;
        expect(res.headers.get('retry-after')).not.toBeNull();
        retried += 1;
      }
    };
    const answers = await Promise.all(Array.from({ length: 500 }, purchase));
    process.stdout.write(
      `[tickets] 500 concurrent purchases (${String(body.ticketType)}): ${retried} retried after a 503\n`,
    );
    const counts: Record<number, number> = {};
    for (const status of answers) counts[status] = (counts[status] ?? 0) + 1;
    return counts;
  }

  it('an event of capacity 100: exactly 100 tickets, 400 sold out, and no seat without its ticket', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    const eventId = await createEvent(t, { capacity: 100 });
    expect(await race({ ticketType: 'event', eventId, ticketDate: SATURDAY })).toEqual({ 201: 100, 409: 400 });
    expect(await ticketRows(t, 'event_id = ? AND ticket_date = ?', [eventId, SATURDAY])).toBe(100);
    const event = await request(t.baseUrl).get(`/special-events/${eventId}`).set('Authorization', AUTH);
    expect(event.body).toMatchObject({ capacity: 100, ticketsAvailable: 0 });
  }, 120_000);

  it('a day of general admission with capacity 100: exactly 100 tickets', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    await openOn(t, SATURDAY, 100);
    expect(await race({ ticketType: 'general', ticketDate: SATURDAY })).toEqual({ 201: 100, 409: 400 });
    expect(await ticketRows(t, "ticket_type = 'general' AND ticket_date = ?", [SATURDAY])).toBe(100);
  }, 120_000);
});

describe("POST /tickets: the past is the museum's (MUSEUM_TIME_ZONE), on a fake clock", () => {
  // At 11:30 UTC on 1 December it is already 00:30 on the 2nd in Auckland (UTC+13).
  const t = useTestApp({ MUSEUM_TIME_ZONE: 'Pacific/Auckland' });

  beforeAll(async () => {
    await t.app.get(UsersService).add(DOOR.user, DOOR.password, 'box-office');
  }, 60_000);

  afterEach(() => {
    vi.useRealTimers();
  });

  it("refuses the UTC date once it is yesterday in the museum, and sells the museum's today", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-01T11:30:00.000Z'));
    const eventId = await createEvent(t, { dates: ['2026-12-01', '2026-12-02'] });
    const past = expectProblem(
      await buy(t, { ticketType: 'event', eventId, ticketDate: '2026-12-01' }),
      400,
      '/tickets',
      true,
    );
    expect(past.errors).toEqual([
      {
        field: 'ticketDate',
        message: "ticketDate must not be in the past: today is 2026-12-02 in the museum's time zone (Pacific/Auckland)",
      },
    ]);
    expectStatus(await buy(t, { ticketType: 'event', eventId, ticketDate: '2026-12-02' }), 201);
    // A minute before midnight in Auckland the 1st is still today there.
    vi.setSystemTime(new Date('2026-12-01T10:59:00.000Z'));
    expectStatus(await buy(t, { ticketType: 'event', eventId, ticketDate: '2026-12-01' }), 201);
  });
});
