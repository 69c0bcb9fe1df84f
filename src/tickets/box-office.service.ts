import { Injectable } from '@nestjs/common';
import { MuseumClock } from '../domain/museum-clock.js';
import type { FieldRule } from '../domain/refusal.js';
import { MuseumHoursService } from '../museum-hours/museum-hours.service.js';
import { CursorSigningKeys } from '../special-events/cursor-signing-keys.js';
import { SpecialEventsService } from '../special-events/special-events.service.js';
import { decodeTicketCursor, encodeTicketCursor, type TicketFilters, ticketCursorKeyId } from './ticket-cursor.js';
import type { Ticket } from './ticket.entity.js';
import { TicketRefusal } from './tickets.refusals.js';
import { type ExportRow, type TicketPageRow, TicketsRepository } from './tickets.repository.js';
import { SEARCH_LIMIT, type TicketSearch } from './tickets.types.js';

/**
 * Tickets an export reads per query: large enough that a query's fixed cost is small beside its
 * rows, small enough that one batch (about 300 bytes a ticket) is far below the export's memory
 * bound however many tickets match.
 */
export const EXPORT_BATCH = 250;

/** One page of a ticket search (its rows as read), and the cursor of the next page when there is one. */
export interface TicketPage {
  readonly tickets: readonly TicketPageRow[];
  readonly filters: TicketFilters;
  readonly limit: number;
  readonly nextCursor?: string;
}

/**
 * The filters of a query, without the parameters that are not filters, in this order (the next
 * page's link names them in it). Member by member: no entries arrays on every search.
 */
function filtersOf(query: TicketSearch): TicketFilters {
  const filters: { -readonly [name in keyof TicketFilters]: TicketFilters[name] } = {};
  if (query.eventId !== undefined) filters.eventId = query.eventId;
  if (query.ticketDate !== undefined) filters.ticketDate = query.ticketDate;
  if (query.status !== undefined) filters.status = query.status;
  if (query.email !== undefined) filters.email = query.email;
  if (query.orderId !== undefined) filters.orderId = query.orderId;
  return filters;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/**
 * What the box office does with tickets once sold: finds them (a page, or every match for a CSV
 * export) and cancels them, giving their place back.
 */
@Injectable()
export class BoxOfficeService {
  constructor(
    private readonly tickets: TicketsRepository,
    private readonly events: SpecialEventsService,
    private readonly hours: MuseumHoursService,
    private readonly cursorKeys: CursorSigningKeys,
    private readonly clock: MuseumClock,
  ) {}

  /**
   * One page of the tickets matching every filter, in the order of sale, with the next page's
   * cursor when there is one. A reader who does not see tickets' secrets (`seesSecrets` false: a
   * viewer) may not search by email: that would tell them who bought.
   */
  async search(query: TicketSearch, seesSecrets: boolean): Promise<TicketPage> {
    const filters = this.allowedFilters(query, seesSecrets);
    const limit = query.limit ?? SEARCH_LIMIT.default;
    let after: string | undefined;
    if (query.cursor !== undefined) {
      const keyId = ticketCursorKeyId(query.cursor);
      const key = keyId === null ? undefined : await this.cursorKeys.verifying(keyId);
      const decoded = decodeTicketCursor(query.cursor, filters, key);
      if (decoded === null) {
        throw invalidSearch({
          field: 'cursor',
          message: 'cursor is not one this service issued for these filters: follow the Link header as given',
        });
      }
      after = decoded;
    }
    // One row more than the page: whether there is a next page. The rows are this search's own
    // array, so the extra row is cut off in place rather than the page copied.
    const rows = await this.tickets.search(filters, after, limit + 1);
    const more = rows.length > limit;
    if (more) rows.length = limit;
    const last = rows.at(-1);
    return {
      tickets: rows,
      filters,
      limit,
      nextCursor: more && last ? encodeTicketCursor(last[0], filters, this.cursorKeys.signing()) : undefined,
    };
  }

  /**
   * Every ticket matching the filters, in the order of sale, in batches of EXPORT_BATCH read one
   * at a time by keyset (the next batch is read only when the caller asks for it), so an export's
   * memory is one batch whatever it matches. Checked before the first batch is read: a refusal
   * comes before any row. `limit` and `cursor` are for pages, not for an export.
   */
  exportBatches(query: TicketSearch, seesSecrets: boolean): AsyncGenerator<readonly ExportRow[]> {
    const errors: FieldRule[] = [];
    for (const field of ['limit', 'cursor'] as const) {
      if (query[field] !== undefined) {
        errors.push({ field, message: `${field} is for pages: a CSV export streams every matching ticket` });
      }
    }
    if (errors.length > 0) throw new TicketRefusal('invalid-search', { errors });
    const filters = this.allowedFilters(query, seesSecrets);
    const tickets = this.tickets;
    return (async function* () {
      let after: string | undefined;
      for (;;) {
        const batch = await tickets.exportRows(filters, after, EXPORT_BATCH);
        if (batch.length > 0) yield batch;
        if (batch.length < EXPORT_BATCH) return;
        after = batch[batch.length - 1][0];
      }
    })();
  }

  private allowedFilters(query: TicketSearch, seesSecrets: boolean): TicketFilters {
    const filters = filtersOf(query);
    if (filters.email !== undefined && !seesSecrets) {
      throw new TicketRefusal('search-by-email', {});
    }
    return filters;
  }

  /**
   * Cancels an active ticket and gives its seat (SpecialEventsService.returnTicket) or its day's
   * admission (MuseumHoursService.returnGeneral) back in the same transaction, recording what the
   * buyer is owed (`refundDue`: what was paid). The ticket's conditional UPDATE is the guard: of
   * two cancels, or a cancel and a check-in, at the same moment the database lets exactly one
   * through, so a place comes back once. A cancelled ticket answers as it is (a second cancel
   * changes nothing, refundDue included); a checked-in one is refused.
   */
  async cancel(ticketId: string): Promise<Ticket> {
    const ticket = await this.find(ticketId);
    if (ticket.status === 'active') {
      const cancel = this.tickets.cancelStatement(ticketId, this.clock.now());
      // The guard changes nothing only when the ticket left `active` since the read (a rival
      // cancel, or a check-in): the row read again below says which, for good.
      if (ticket.eventId === null) await this.hours.returnGeneral(ticket.ticketDate, cancel, ticket.ticketTime);
      else await this.events.returnTicket(ticket.eventId, cancel, ticket.ticketDate, ticket.ticketTime);
    }
    const now = ticket.status === 'active' ? await this.find(ticketId) : ticket;
    if (now.status === 'checked-in') {
      throw new TicketRefusal('cancel-checked-in', { checkedInAt: iso(now.checkedInAt) });
    }
    return now;
  }

  private async find(ticketId: string): Promise<Ticket> {
    const ticket = await this.tickets.byId(ticketId);
    if (ticket === null) throw new TicketRefusal('no-ticket', { ticketId });
    return ticket;
  }
}

function invalidSearch(...errors: FieldRule[]): TicketRefusal {
  return new TicketRefusal('invalid-search', { errors });
}
