import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { UsersService } from '../../src/auth/users.service.js';
import { TicketsService } from '../../src/tickets/tickets.service.js';
import { expectProblem, expectStatus, validEvent } from '../helpers/problem-assertions.js';
import { countOverlap, sendTogether } from '../helpers/raw-http.js';
import { AUTH, basicHeader, useTestApp, type TestApp } from '../helpers/test-app.js';
import { decodeQr, seedTicket } from '../helpers/tickets.js';

/**
 * Tickets after their purchase (issue 28): GET /tickets/{ticketId}, the QR code (getTicketCode)
 * and its round trip through a decoder, the check-in by id and by the QR code's text (first scan
 * 200, every other 409 saying why; an unknown code counted by the failure limiter), "today" in the
 * museum's time zone on a fake clock, and an event's delete cancelling its tickets in the same
 * transaction. Purchases have their own file (ticket-purchases.e2e-spec.ts).
 */

const DOOR = { user: 'door', password: 'door-password-12345' };
const DOOR_AUTH = basicHeader(DOOR.user, DOOR.password);
const KIOSK_AUTH = basicHeader('kiosk', 'kiosk-password-1234');

/** 10:00 UTC on 1 December 2026: the museum's "today" in UTC is 2026-12-01. */
const NOW = new Date('2026-12-01T10:00:00.000Z');
const TODAY = '2026-12-01';

function fakeClock(at: Date): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(at);
}

async function addUsers(t: TestApp): Promise<void> {
  await t.app.get(UsersService).add(DOOR.user, DOOR.password, 'box-office');
  await t.app.get(UsersService).add('kiosk', 'kiosk-password-1234', 'viewer');
}

const get = (t: TestApp, path: string, auth = AUTH): request.Test =>
  request(t.baseUrl).get(path).set('Authorization', auth);
const checkIn = (t: TestApp, ticketId: string, auth = DOOR_AUTH): request.Test =>
  request(t.baseUrl).post(`/tickets/${ticketId}/check-in`).set('Authorization', auth);
const checkInCode = (t: TestApp, code: unknown, auth = DOOR_AUTH): request.Test =>
  request(t.baseUrl).post('/check-ins').set('Authorization', auth).send({ code });

describe('tickets: reads, QR codes and check-ins', () => {
  const t = useTestApp();

  beforeAll(async () => {
    await addUsers(t);
  }, 60_000);

  beforeEach(() => fakeClock(NOW));
  afterEach(() => {
    vi.useRealTimers();
  });

  it('GET /tickets/{ticketId}: 200 with the ticket as sold, any letter case; 400 for a malformed id; 404 unknown', async () => {
    const eventId = randomUUID();
    const { ticketId, confirmationCode } = await seedTicket(t, { ticketDate: TODAY, eventId, price: 19.99 });
    const res = await get(t, `/tickets/${ticketId.toUpperCase()}`, DOOR_AUTH);
    expectStatus(res, 200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      ticketId,
      ticketType: 'event',
      ticketDate: TODAY,
      eventId,
      email: null,
      price: 19.99,
      confirmationCode,
      status: 'active',
      createdAt: NOW.toISOString(),
      checkedInAt: null,
      cancelledAt: null,
      refundDue: null,
    });
    const general = await seedTicket(t, { ticketDate: TODAY });
    const generalRes = await get(t, `/tickets/${general.ticketId}`);
    expectStatus(generalRes, 200);
    expect(generalRes.body).not.toHaveProperty('eventId');
    expect(generalRes.body).toMatchObject({ ticketType: 'general', price: 25 });

    const malformed = expectProblem(await get(t, '/tickets/not-a-uuid'), 400, '/tickets/not-a-uuid', true);
    expect(malformed.errors).toEqual([
      { field: 'ticketId', message: expect.stringMatching(/^ticketId must be a UUID/) },
    ]);
    const unknown = randomUUID();
    const missing = expectProblem(await get(t, `/tickets/${unknown}`), 404, `/tickets/${unknown}`);
    expect(missing.detail).toBe(`No ticket has ticketId ${unknown}.`);
  });

  it('GET /tickets/{ticketId}/qr: a PNG whose QR code holds the confirmation code; checking in with what was scanned works', async () => {
    const { ticketId, confirmationCode } = await seedTicket(t, { ticketDate: TODAY });
    const res = await get(t, `/tickets/${ticketId}/qr`, DOOR_AUTH)
      .buffer(true)
      .parse((response, callback) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => callback(null, Buffer.concat(chunks)));
      });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toBe('no-store');
    const png = res.body as Buffer;
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const scanned = decodeQr(png);
    expect(scanned).toBe(confirmationCode);

    const checkedIn = await checkInCode(t, scanned);
    expectStatus(checkedIn, 200);
    expect(checkedIn.body).toMatchObject({ ticketId, status: 'checked-in', checkedInAt: NOW.toISOString() });

    expectProblem(await get(t, '/tickets/123/qr'), 400, '/tickets/123/qr', true);
    const unknown = randomUUID();
    expectProblem(await get(t, `/tickets/${unknown}/qr`), 404, `/tickets/${unknown}/qr`);
  });

  it("a viewer reads a ticket without its confirmation code and the buyer's email, and not its QR code", async () => {
    const { ticketId, confirmationCode } = await seedTicket(t, { ticketDate: TODAY, email: 'todd@example.com' });
    const viewed = await get(t, `/tickets/${ticketId}`, KIOSK_AUTH);
    expectStatus(viewed, 200);
    expect(viewed.headers['cache-control']).toBe('no-store');
    expect(viewed.body).toEqual({
      ticketId,
      ticketType: 'general',
      ticketDate: TODAY,
      price: 25,
      status: 'active',
      createdAt: NOW.toISOString(),
      checkedInAt: null,
      cancelledAt: null,
      refundDue: null,
    });
    expect(viewed.text).not.toContain(confirmationCode);
    expect(viewed.text).not.toContain('todd@example.com');
    const qr = expectProblem(await get(t, `/tickets/${ticketId}/qr`, KIOSK_AUTH), 403, `/tickets/${ticketId}/qr`);
    expect(qr.detail).toBe('This operation needs the box-office role; your role is viewer.');
    // Box office and up read both; a check-in answers with them too, and no cache keeps any of it.
    for (const auth of [DOOR_AUTH, AUTH]) {
      expect((await get(t, `/tickets/${ticketId}`, auth)).body).toMatchObject({
        confirmationCode,
        email: 'todd@example.com',
      });
    }
    const checkedIn = await checkInCode(t, confirmationCode);
    expectStatus(checkedIn, 200);
    expect(checkedIn.headers['cache-control']).toBe('no-store');
    expect(checkedIn.body).toMatchObject({ confirmationCode, email: 'todd@example.com' });
    const second = await seedTicket(t, { ticketDate: TODAY });
    const byId = await checkIn(t, second.ticketId);
    expectStatus(byId, 200);
    expect(byId.headers['cache-control']).toBe('no-store');
  });

  it('a purchase answers its confirmation code with Cache-Control: no-store, and so does its replay', async () => {
    const event = validEvent({ dates: ['2027-01-15'] });
    expectStatus(await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(event), 201);
    const buy = (): request.Test =>
      request(t.baseUrl)
        .post('/tickets')
        .set('Authorization', DOOR_AUTH)
        .set('Idempotency-Key', `buy-${event.eventId as string}`)
        .send({ ticketType: 'event', eventId: event.eventId, ticketDate: '2027-01-15' });
    const bought = await buy();
    expectStatus(bought, 201);
    expect(bought.headers['cache-control']).toBe('no-store');
    const replayed = await buy();
    expectStatus(replayed, 201);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.headers['cache-control']).toBe('no-store');
    expect(replayed.body).toEqual(bought.body);
  });

  it('check-in by id: the first scan today is 200, a second 409 saying when the first was', async () => {
    const { ticketId } = await seedTicket(t, { ticketDate: TODAY });
    const first = await checkIn(t, ticketId);
    expectStatus(first, 200);
    expect(first.body).toMatchObject({ ticketId, status: 'checked-in', checkedInAt: NOW.toISOString() });
    expect((await get(t, `/tickets/${ticketId}`)).body).toMatchObject({ status: 'checked-in' });

    vi.setSystemTime(new Date(NOW.getTime() + 60_000));
    const second = expectProblem(await checkIn(t, ticketId), 409, `/tickets/${ticketId}/check-in`);
    expect(second.type).toBe('urn:museum:problem:ticket-already-checked-in');
    expect(second.detail).toBe(`This ticket was already checked in: its first check-in was ${NOW.toISOString()}.`);
    // The same from the QR code's text.
    const { confirmationCode } = (await get(t, `/tickets/${ticketId}`)).body as { confirmationCode: string };
    const byCode = expectProblem(await checkInCode(t, confirmationCode), 409, '/check-ins');
    expect(byCode.detail).toBe(second.detail);
  });

  it('check-in of a ticket for another day is 409, by id and by code, and changes nothing', async () => {
    for (const ticketDate of ['2026-11-30', '2026-12-02']) {
      const { ticketId, confirmationCode } = await seedTicket(t, { ticketDate });
      const byId = expectProblem(await checkIn(t, ticketId), 409, `/tickets/${ticketId}/check-in`);
      expect(byId).toMatchObject({
        type: 'urn:museum:problem:ticket-not-for-today',
        detail: `This ticket is for ${ticketDate}; today is ${TODAY} in the museum's time zone (${t.config.museum.timeZone}).`,
      });
      expect(expectProblem(await checkInCode(t, confirmationCode), 409, '/check-ins').detail).toBe(byId.detail);
      expect((await get(t, `/tickets/${ticketId}`)).body).toMatchObject({ status: 'active', checkedInAt: null });
    }
  });

  it('check-in: 404 for an unknown ticket or code, 400 for a malformed id or code, 403 for a viewer', async () => {
    const unknown = randomUUID();
    expect(expectProblem(await checkIn(t, unknown), 404, `/tickets/${unknown}/check-in`).detail).toBe(
      `No ticket has ticketId ${unknown}.`,
    );
    const code = expectProblem(await checkInCode(t, `ticket-${'A'.repeat(22)}`), 404, '/check-ins');
    expect(code.detail).toBe('No ticket has this confirmation code.');
    expectProblem(await checkIn(t, 'nope'), 400, '/tickets/nope/check-in', true);
    for (const bad of ['', 'ticket-short', 42, null]) {
      const res = expectProblem(await checkInCode(t, bad), 400, '/check-ins', true);
      expect(res.errors).toEqual([{ field: 'code', message: expect.stringMatching(/^code /) }]);
    }
    const { ticketId } = await seedTicket(t, { ticketDate: TODAY });
    expectProblem(await checkIn(t, ticketId, KIOSK_AUTH), 403, `/tickets/${ticketId}/check-in`);
    expect((await get(t, `/tickets/${ticketId}`)).body).toMatchObject({ status: 'active' });
  });

  it('two scanners at once: of 20 concurrent check-ins of one ticket, by id and by code, exactly one is 200', async () => {
    // The door's credentials cached first, as after any earlier request: the overlap below must not
    // depend on the requests waiting together for a password hash.
    expectStatus(await checkIn(t, (await seedTicket(t, { ticketDate: TODAY })).ticketId), 200);
    const { ticketId, confirmationCode } = await seedTicket(t, { ticketDate: TODAY });
    const overlap = countOverlap(TicketsService.prototype, ['checkIn', 'checkInByCode']);
    const answers = await sendTogether(
      t,
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? { method: 'POST', path: `/tickets/${ticketId}/check-in`, authorization: DOOR_AUTH }
          : { method: 'POST', path: '/check-ins', authorization: DOOR_AUTH, body: { code: confirmationCode } },
      ),
    );
    // All 20 were inside the service at once: none had answered when the last one began.
    expect(overlap()).toBe(20);
    expect(answers.filter(({ status }) => status === 200)).toHaveLength(1);
    expect(answers.filter(({ status }) => status === 409)).toHaveLength(19);
    expect((await get(t, `/tickets/${ticketId}`)).body).toMatchObject({ status: 'checked-in' });
  });

  it("deleting an event cancels its tickets in the delete's transaction: 204, the tickets stay, cancelled, and check-in refuses them", async () => {
    const event = validEvent({ dates: [TODAY] });
    const eventId = event.eventId as string;
    expectStatus(await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(event), 201);
    const active = await seedTicket(t, { ticketDate: TODAY, eventId });
    const used = await seedTicket(t, { ticketDate: TODAY, eventId });
    expectStatus(await checkIn(t, used.ticketId), 200);
    const other = await seedTicket(t, { ticketDate: TODAY, eventId: randomUUID() });

    vi.setSystemTime(new Date(NOW.getTime() + 5_000));
    const deleted = await request(t.baseUrl).delete(`/special-events/${eventId}`).set('Authorization', AUTH);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    const cancelledAt = new Date(NOW.getTime() + 5_000).toISOString();
    expect((await get(t, `/tickets/${active.ticketId}`)).body).toMatchObject({
      status: 'cancelled',
      cancelledAt,
      checkedInAt: null,
    });
    // A ticket used before the delete is cancelled too, and keeps when it was used.
    expect((await get(t, `/tickets/${used.ticketId}`)).body).toMatchObject({
      status: 'cancelled',
      cancelledAt,
      checkedInAt: NOW.toISOString(),
    });
    expect((await get(t, `/tickets/${other.ticketId}`)).body).toMatchObject({ status: 'active', cancelledAt: null });

    const refused = expectProblem(await checkIn(t, active.ticketId), 409, `/tickets/${active.ticketId}/check-in`);
    expect(refused).toMatchObject({
      type: 'urn:museum:problem:ticket-cancelled',
      detail: `This ticket was cancelled on ${cancelledAt}.`,
    });
    expect(expectProblem(await checkInCode(t, active.confirmationCode), 409, '/check-ins').detail).toBe(refused.detail);
  });

  it("the tickets' cancellation is in the delete's transaction: when it fails, the event is not deleted either", async () => {
    const event = validEvent({ dates: [TODAY] });
    const eventId = event.eventId as string;
    expectStatus(await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(event), 201);
    const ticket = await seedTicket(t, { ticketDate: TODAY, eventId });
    // A trigger refuses any change to this event's tickets, so the cancellation's UPDATE fails.
    const dataSource = t.app.get(DataSource);
    const mysql = dataSource.options.type === 'mysql';
    await dataSource.query(
      mysql
        ? `CREATE TRIGGER refuse_cancel BEFORE UPDATE ON tickets FOR EACH ROW BEGIN IF NEW.event_id = '${eventId}' THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'refused by the test'; END IF; END`
        : `CREATE TRIGGER refuse_cancel BEFORE UPDATE ON tickets WHEN NEW.event_id = '${eventId}' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`,
    );
    let refused: request.Response;
    try {
      refused = await request(t.baseUrl).delete(`/special-events/${eventId}`).set('Authorization', AUTH);
    } finally {
      await dataSource.query('DROP TRIGGER refuse_cancel');
    }
    expect(refused.status).toBeGreaterThanOrEqual(500);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    // Rolled back whole: the event is still there and its ticket still active.
    expectStatus(await request(t.baseUrl).get(`/special-events/${eventId}`).set('Authorization', AUTH), 200);
    expect((await get(t, `/tickets/${ticket.ticketId}`)).body).toMatchObject({ status: 'active', cancelledAt: null });
    // Without the trigger the same delete goes through, cancelling the ticket.
    expectStatus(await request(t.baseUrl).delete(`/special-events/${eventId}`).set('Authorization', AUTH), 204);
    expect((await get(t, `/tickets/${ticket.ticketId}`)).body).toMatchObject({ status: 'cancelled' });
  });

  it('a second delete of the event (404) cancels nothing again: the cancellation runs only with a delete that took effect', async () => {
    const event = validEvent({ dates: [TODAY] });
    const eventId = event.eventId as string;
    expectStatus(await request(t.baseUrl).post('/special-events').set('Authorization', AUTH).send(event), 201);
    const ticket = await seedTicket(t, { ticketDate: TODAY, eventId });
    expectStatus(await request(t.baseUrl).delete(`/special-events/${eventId}`).set('Authorization', AUTH), 204);
    const after = (await get(t, `/tickets/${ticket.ticketId}`)).body as { cancelledAt: string };
    vi.setSystemTime(new Date(NOW.getTime() + 9_000));
    expectStatus(await request(t.baseUrl).delete(`/special-events/${eventId}`).set('Authorization', AUTH), 404);
    expect((await get(t, `/tickets/${ticket.ticketId}`)).body).toMatchObject({ cancelledAt: after.cancelledAt });
    const rows = (await t.app
      .get(DataSource)
      .query("SELECT COUNT(*) AS n FROM tickets WHERE event_id = ? AND status = 'cancelled'", [eventId])) as {
      n: unknown;
    }[];
    expect(Number(rows[0].n)).toBe(1);
  });
});

describe("tickets: today is the museum's date (MUSEUM_TIME_ZONE), on a fake clock", () => {
  // Auckland is UTC+13 in December: at 11:30 UTC on 1 December it is already 00:30 on the 2nd there.
  const t = useTestApp({ MUSEUM_TIME_ZONE: 'Pacific/Auckland' });

  beforeAll(async () => {
    await addUsers(t);
  }, 60_000);

  afterEach(() => {
    vi.useRealTimers();
  });

  it("checks in a ticket for the museum's today, not the UTC date, and refuses yesterday's", async () => {
    fakeClock(new Date('2026-12-01T11:30:00.000Z'));
    const utcToday = await seedTicket(t, { ticketDate: '2026-12-01' });
    const museumToday = await seedTicket(t, { ticketDate: '2026-12-02' });
    expectStatus(await checkIn(t, museumToday.ticketId), 200);
    const refused = expectProblem(await checkIn(t, utcToday.ticketId), 409, `/tickets/${utcToday.ticketId}/check-in`);
    expect(refused.detail).toBe(
      "This ticket is for 2026-12-01; today is 2026-12-02 in the museum's time zone (Pacific/Auckland).",
    );
    // A minute before midnight in Auckland it is still the 1st there.
    vi.setSystemTime(new Date('2026-12-01T10:59:00.000Z'));
    expectStatus(await checkIn(t, utcToday.ticketId), 200);
  });
});

describe('tickets: unknown codes are counted like wrong passwords', () => {
  const t = useTestApp({ AUTH_FAILURE_LIMIT: '3', AUTH_FAILURE_WINDOW_SECONDS: '60' });
  const SECOND_DOOR_AUTH = basicHeader('door-2', 'door-password-67890');

  beforeAll(async () => {
    await addUsers(t);
    await t.app.get(UsersService).add('door-2', 'door-password-67890', 'box-office');
  }, 60_000);

  afterEach(() => {
    vi.useRealTimers();
  });

  it('three unknown codes, then 429 with Retry-After for unknown ones, logged at warn; a real code is still admitted', async () => {
    fakeClock(NOW);
    const { ticketId, confirmationCode } = await seedTicket(t, { ticketDate: TODAY });
    const other = await seedTicket(t, { ticketDate: TODAY });
    for (let i = 0; i < 3; i++) {
      expectProblem(await checkInCode(t, `ticket-${String(i).repeat(22)}`), 404, '/check-ins');
    }
    const limited = await checkInCode(t, `ticket-${'7'.repeat(22)}`);
    const problem = expectProblem(limited, 429, '/check-ins');
    expect(problem.detail).toBe('Too many unknown ticket codes from this address; try again later.');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The door behind this address goes on admitting valid tickets: a code of 128 random bits is
    // not guessed, and a few misreads must not turn the visitors away.
    expectStatus(await checkInCode(t, confirmationCode), 200);
    expect((await get(t, `/tickets/${ticketId}`)).body).toMatchObject({ status: 'checked-in' });
    expectProblem(await checkInCode(t, confirmationCode), 409, '/check-ins');
    expectProblem(await checkInCode(t, `ticket-${'8'.repeat(22)}`), 429, '/check-ins');
    expectStatus(await checkInCode(t, other.confirmationCode), 200);
    // The moment the limit bit is a warning in the log, once, naming the client.
    const warnings = t.logs.filter((line) => line.context === 'GuessGate');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40, client: '127.0.0.1', retryAfterSeconds: expect.any(Number) });
    // Not locked out of the service, only of guessing: reads still work.
    expectStatus(await get(t, `/tickets/${ticketId}`, DOOR_AUTH), 200);
    // Another box-office user at the same address is not this guesser.
    const third = await seedTicket(t, { ticketDate: TODAY });
    expectProblem(await checkInCode(t, `ticket-${'9'.repeat(22)}`, SECOND_DOOR_AUTH), 404, '/check-ins');
    expectStatus(await checkInCode(t, third.confirmationCode, SECOND_DOOR_AUTH), 200);
    // Known codes are never counted: the second user's refusals are 409s, not steps towards a 429.
    for (let i = 0; i < 4; i++)
      expectProblem(await checkInCode(t, third.confirmationCode, SECOND_DOOR_AUTH), 409, '/check-ins');
  });
});

describe('tickets: unknown codes from IPv6 clients are counted by /64', () => {
  const t = useTestApp({ AUTH_FAILURE_LIMIT: '3', AUTH_FAILURE_WINDOW_SECONDS: '60', TRUST_PROXY: '1' });

  beforeAll(async () => {
    await addUsers(t);
  }, 60_000);

  const scanFrom = (client: string, code: string) =>
    request(t.baseUrl).post('/check-ins').set('Authorization', DOOR_AUTH).set('X-Forwarded-For', client).send({ code });

  it('three unknown codes from three addresses of one /64, then 429 from a fourth; another /64 is not limited', async () => {
    for (let i = 1; i <= 3; i++) {
      expectProblem(await scanFrom(`2001:db8:9:9::${i}`, `ticket-${String(i).repeat(22)}`), 404, '/check-ins');
    }
    expectProblem(await scanFrom('2001:db8:9:9:ffff::4', `ticket-${'4'.repeat(22)}`), 429, '/check-ins');
    expectProblem(await scanFrom('2001:db8:9:a::1', `ticket-${'4'.repeat(22)}`), 404, '/check-ins');
  });
});

describe('tickets: a door scanning many known codes at once is never refused; unknown codes stay bounded', () => {
  const t = useTestApp({ AUTH_FAILURE_LIMIT: '5', AUTH_FAILURE_WINDOW_SECONDS: '60' });

  beforeAll(async () => {
    await addUsers(t);
  }, 60_000);

  beforeEach(() => fakeClock(NOW));
  afterEach(() => {
    vi.useRealTimers();
  });

  /**
   * Holds every check-in by code at the door of the service until `expected` of them are inside
   * it, so that they overlap for certain, and counts how many were inside at once.
   */
  function allTogether(expected: number): { readonly most: () => number } {
    const service = t.app.get(TicketsService);
    const checkInByCode = service.checkInByCode.bind(service);
    let inside = 0;
    let most = 0;
    let resolve = (): void => undefined;
    const everyoneIn = new Promise<void>((done) => (resolve = done));
    vi.spyOn(service, 'checkInByCode').mockImplementation(async (...args) => {
      inside++;
      most = Math.max(most, inside);
      if (inside === expected) resolve();
      // A safety bound only: the assertion on most() fails if they did not all arrive.
      await Promise.race([everyoneIn, new Promise((done) => setTimeout(done, 10_000))]);
      try {
        return await checkInByCode(...args);
      } finally {
        inside--;
      }
    });
    return { most: () => most };
  }

  it('40 concurrent scans of 40 valid codes by one user: 40 × 200, no 429 (the limit is 5)', async () => {
    const tickets = await Promise.all(Array.from({ length: 40 }, () => seedTicket(t, { ticketDate: TODAY })));
    const probe = allTogether(40);
    const answers = await Promise.all(tickets.map(({ confirmationCode }) => checkInCode(t, confirmationCode)));
    expect(answers.map(({ status }) => status)).toEqual(Array.from({ length: 40 }, () => 200));
    expect(probe.most()).toBe(40);
  });

  it('25 concurrent scans of one ticket: exactly one 200 and 24 × 409, no 429', async () => {
    const { confirmationCode } = await seedTicket(t, { ticketDate: TODAY });
    const probe = allTogether(25);
    const answers = await Promise.all(Array.from({ length: 25 }, () => checkInCode(t, confirmationCode)));
    const statuses = answers.map(({ status }) => status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(24);
    expect(probe.most()).toBe(25);
  });

  it('40 concurrent unknown codes from another door: exactly 5 are answered 404, 35 × 429; a real code is still admitted', async () => {
    await t.app.get(UsersService).add('door-3', 'door-password-33333', 'box-office');
    const auth = basicHeader('door-3', 'door-password-33333');
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => checkInCode(t, `ticket-${String(i).padStart(22, 'x')}`, auth)),
    );
    const statuses = answers.map(({ status }) => status);
    expect(statuses.filter((status) => status === 404)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(35);
    const { confirmationCode } = await seedTicket(t, { ticketDate: TODAY });
    expectStatus(await checkInCode(t, confirmationCode, auth), 200);
  });
});
