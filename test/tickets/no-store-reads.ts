import type { NoStoreReads } from '../helpers/no-store-read-rows.js';
import { seedTicket } from '../helpers/tickets.js';

/** A ticket's read and a ticket search say no-store (test/helpers/no-store-read-rows.ts). */
export default (async (t) => {
  const { ticketId } = await seedTicket(t, { ticketDate: '2026-12-01' });
  return [`/tickets/${ticketId}`, '/tickets?ticketDate=2026-12-01'];
}) satisfies NoStoreReads;
