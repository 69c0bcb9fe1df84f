import type { PublicReadRows } from '../helpers/public-read-rows.js';
import { ticketPath } from './api.js';

/** A ticket, and a ticket search, are read behind credentials only, public read or not (test/helpers/public-read-rows.ts). */
export default {
  privateReads: [ticketPath('01890a5d-ac96-774b-bcce-b302099a8057'), '/tickets'],
} satisfies PublicReadRows;
