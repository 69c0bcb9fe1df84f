import { randomBytes } from 'node:crypto';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { v7 as uuidv7 } from 'uuid';
import { DataSource } from 'typeorm';
import type { TestApp } from './test-app.js';

/** jsqr is CommonJS whose typings declare an ES default export: under nodenext the import is the module. */
const jsQR = jsQRModule.default;

/** What a phone's camera does with the PNG of getTicketCode: the text of the QR code in it. */
export function decodeQr(png: Buffer): string {
  const image = PNG.sync.read(png);
  const found = jsQR(new Uint8ClampedArray(image.data), image.width, image.height);
  if (found === null) throw new Error('no QR code found in the image');
  return found.data;
}

export interface SeededTicket {
  readonly ticketId: string;
  readonly confirmationCode: string;
}

/**
 * A ticket written straight into the table, for tests of what happens after a purchase (reads,
 * check-ins, cancellation) that must not depend on the purchase's own rules.
 */
export async function seedTicket(
  t: TestApp,
  fields: {
    ticketDate: string;
    eventId?: string;
    status?: string;
    checkedInAt?: number;
    price?: number;
    email?: string;
  },
): Promise<SeededTicket> {
  const ticket = { ticketId: uuidv7(), confirmationCode: `ticket-${randomBytes(16).toString('base64url')}` };
  await t.app
    .get(DataSource)
    .query(
      'INSERT INTO tickets (ticket_id, ticket_type, ticket_date, event_id, email, price_paid, confirmation_code, status, ' +
        'created_at, checked_in_at, cancelled_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)',
      [
        ticket.ticketId,
        fields.eventId === undefined ? 'general' : 'event',
        fields.ticketDate,
        fields.eventId ?? null,
        fields.email ?? null,
        fields.price ?? 25,
        ticket.confirmationCode,
        fields.status ?? 'active',
        Date.now(),
        fields.checkedInAt ?? null,
      ],
    );
  return ticket;
}

/** What seedTickets writes for each ticket: its fields, as seedTicket takes them. */
export interface TicketSeed {
  readonly ticketDate: string;
  readonly eventId?: string;
  readonly status?: string;
  readonly email?: string;
  readonly price?: number;
}

/**
 * Many tickets written straight into the table, 500 to a statement (a search or an export of
 * thousands, without thousands of round trips): their ids, in the order of sale.
 */
export async function seedTickets(t: TestApp, seeds: readonly TicketSeed[]): Promise<string[]> {
  const ids: string[] = [];
  const dataSource = t.app.get(DataSource);
  for (let start = 0; start < seeds.length; start += 500) {
    const chunk = seeds.slice(start, start + 500);
    const parameters: unknown[] = [];
    for (const seed of chunk) {
      const ticketId = uuidv7();
      ids.push(ticketId);
      parameters.push(
        ticketId,
        seed.eventId === undefined ? 'general' : 'event',
        seed.ticketDate,
        seed.eventId ?? null,
        seed.email ?? null,
        seed.price ?? 25,
        `ticket-${randomBytes(16).toString('base64url')}`,
        seed.status ?? 'active',
        Date.now(),
      );
    }
    await dataSource.query(
      'INSERT INTO tickets (ticket_id, ticket_type, ticket_date, event_id, email, price_paid, confirmation_code, status, ' +
        `created_at) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
      parameters,
    );
  }
  return ids;
}
