import { suiteDate } from '../helpers/clock.js';
import { DataSource } from 'typeorm';
import { expect } from 'vitest';
import {
  type MuseumClient,
  type MuseumClientKit,
  type MuseumClientRows,
  museumEvent,
  museumSchemaProblems,
} from '../helpers/museum-client.js';
import { decodeQr } from '../helpers/tickets.js';
import { setHoursOn } from '../museum-hours/api.js';

/** buyMuseumTickets and getTicketCode with the client generated from the Museum API (test/helpers/museum-client.ts). */
function tests(kit: MuseumClientKit): ReturnType<MuseumClientRows['tests']> {
  return [
    {
      title:
        'buys both kinds of ticket (buyMuseumTickets) and fetches a QR code (getTicketCode) that holds the confirmation code',
      run: async () => {
        const { museum } = kit;
        // A week and eight days after the museum clock's day (useMuseumClock): within the horizon, not today.
        const [eventDay, openDay] = [suiteDate(7), suiteDate(8)];
        const event = await kit.create(museumEvent(2099, { dates: [eventDay] }));
        // The opening hours are this service's addition (the Museum API has no write side): set without the client.
        const opened = await setHoursOn(kit.t.baseUrl, openDay, { timeOpen: '09:00', timeClose: '18:00' });
        expect(opened.status).toBe(200);

        const general = await museum.POST('/tickets', {
          body: { ticketType: 'general', ticketDate: openDay, email: 'todd@example.com' },
        });
        expect({ status: general.response.status, error: general.error }).toStrictEqual({
          status: 201,
          error: undefined,
        });
        expect(museumSchemaProblems('MuseumTicketsConfirmation', general.data)).toStrictEqual([]);
        expect(general.data).toStrictEqual({
          message: 'Museum general entry ticket purchased',
          ticketId: expect.any(String) as unknown,
          ticketType: 'general',
          ticketDate: openDay,
          confirmationCode: expect.stringMatching(/^ticket-/) as unknown,
        });

        const special = await museum.POST('/tickets', {
          body: { ticketType: 'event', eventId: event.eventId, ticketDate: eventDay, email: 'todd@example.com' },
        });
        expect({ status: special.response.status, error: special.error }).toStrictEqual({
          status: 201,
          error: undefined,
        });
        expect(museumSchemaProblems('MuseumTicketsConfirmation', special.data)).toStrictEqual([]);
        expect(special.data).toMatchObject({
          message: 'Museum special event ticket purchased',
          ticketType: 'event',
          ticketDate: eventDay,
          eventId: event.eventId,
        });

        for (const bought of [general.data, special.data]) {
          const code = await museum.GET('/tickets/{ticketId}/qr', {
            params: { path: { ticketId: bought?.ticketId as string } },
            parseAs: 'arrayBuffer',
          });
          expect(code.response.status).toBe(200);
          expect(code.response.headers.get('content-type')).toBe('image/png');
          expect(decodeQr(Buffer.from(code.data as ArrayBuffer))).toBe(bought?.confirmationCode);
        }

        const missing = await museum.GET('/tickets/{ticketId}/qr', {
          params: { path: { ticketId: '0196a8f4-6e2b-7c3d-9e4f-5a6b7c8d9e0f' } },
        });
        expect(missing.response.status).toBe(404);
        expect(museumSchemaProblems('Error', missing.error)).toStrictEqual([]);
      },
    },
  ];
}

async function intruderStatuses(
  kit: MuseumClientKit,
  intruder: MuseumClient,
  { eventId, eventDay }: { eventId: string; eventDay: string },
): ReturnType<MuseumClientRows['intruderStatuses']> {
  const bought = await kit.museum.POST('/tickets', { body: { ticketType: 'event', eventId, ticketDate: eventDay } });
  expect(bought.response.status).toBe(201);
  const ticketId = bought.data?.ticketId as string;
  const statuses = [
    [
      'buyMuseumTickets',
      (await intruder.POST('/tickets', { body: { ticketType: 'event', eventId, ticketDate: eventDay } })).response
        .status,
    ],
    [
      'getTicketCode',
      (await intruder.GET('/tickets/{ticketId}/qr', { params: { path: { ticketId } }, parseAs: 'arrayBuffer' }))
        .response.status,
    ],
  ] as const;
  // The intruder's purchase sold nothing: only the one ticket bought with the right password.
  const sold = (await kit.t.app
    .get(DataSource)
    .query('SELECT COUNT(*) AS n FROM tickets WHERE event_id = ?', [eventId])) as { n: unknown }[];
  expect(Number(sold[0].n)).toBe(1);
  return statuses;
}

export default { tests, intruderStatuses } satisfies MuseumClientRows;
