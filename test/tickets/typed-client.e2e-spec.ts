import { suiteDate, useMuseumClock } from '../helpers/clock.js';
import { randomUUID } from 'node:crypto';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { NewSpecialEvent, Problem, Ticket, TicketConfirmation } from '../../client/index.js';
import { decodeQr } from '../helpers/tickets.js';
import { useTypedClient } from '../helpers/typed-client.js';

/** The typed client (client/index.ts) on tickets: buy, read, QR code, check-in. */

const { t, client } = useTypedClient();
useMuseumClock(t);

const newEvent = (): NewSpecialEvent & { eventId: string } => ({
  eventId: randomUUID(),
  name: 'Pirates of the Permanent Collection',
  location: 'Hall 2 · الطابق الأول',
  eventDescription: 'Treasure maps, explained.',
  dates: ['2026-09-05', '2026-09-08'],
  price: 19.99,
});

describe('createMuseumClient: tickets', () => {
  it('buys an event ticket, reads it, fetches its QR code and checks it in by the scanned code: typed', async () => {
    const { museum } = client;
    // A month after the museum clock's day: within the sales' horizon (366 days), and not today.
    const saleDate = suiteDate(30);
    const event = { ...newEvent(), dates: [saleDate], capacity: 10 };
    expect((await museum.POST('/special-events', { body: event })).response.status).toBe(201);
    const bought = await museum.POST('/tickets', {
      body: { ticketType: 'event', eventId: event.eventId, ticketDate: saleDate, email: 'todd@example.com' },
    });
    expectTypeOf(bought.data).toEqualTypeOf<TicketConfirmation | undefined>();
    expect(bought.response.status).toBe(201);
    const ticketId = bought.data?.ticketId as string;
    expect(bought.response.headers.get('Location')).toBe(`/tickets/${ticketId}`);

    const read = await museum.GET('/tickets/{ticketId}', { params: { path: { ticketId } } });
    expectTypeOf(read.data).toEqualTypeOf<Ticket | undefined>();
    expect(read.data).toMatchObject({ ticketId, status: 'active', price: 19.99, email: 'todd@example.com' });

    const code = await museum.GET('/tickets/{ticketId}/qr', { params: { path: { ticketId } }, parseAs: 'arrayBuffer' });
    expect(code.response.headers.get('Content-Type')).toBe('image/png');
    const scanned = decodeQr(Buffer.from(code.data as ArrayBuffer));
    expect(scanned).toBe(bought.data?.confirmationCode);

    // 409: the ticket is for a month ahead, not today; the typed problem says why.
    const early = await museum.POST('/check-ins', { body: { code: scanned } });
    expect(early.response.status).toBe(409);
    expectTypeOf(early.error).toMatchTypeOf<Problem | undefined>();
    expect(early.error?.type).toBe('urn:museum:problem:ticket-not-for-today');
  });
});
