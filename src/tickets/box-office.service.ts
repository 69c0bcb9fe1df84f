import { Injectable } from '@nestjs/common';
import { MuseumHoursService } from '../museum-hours/museum-hours.service.js';
import { SpecialEventsService } from '../special-events/special-events.service.js';
import type { TicketResponse } from './dto/ticket-response.dto.js';
import type { Ticket } from './ticket.entity.js';
import { TicketRefusal } from './tickets.refusals.js';
import { TicketsRepository } from './tickets.repository.js';
import { toResponse } from './tickets.service.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/**
 * What the box office does with tickets once sold: cancels them, giving their place back.
 */
@Injectable()
export class BoxOfficeService {
  constructor(
    private readonly tickets: TicketsRepository,
    private readonly events: SpecialEventsService,
    private readonly hours: MuseumHoursService,
  ) {}

  /**
   * Cancels an active ticket and gives its seat (SpecialEventsService.returnTicket) or its day's
   * admission (MuseumHoursService.returnGeneral) back in the same transaction, recording what the
   * buyer is owed (`refundDue`: what was paid). The ticket's conditional UPDATE is the guard: of
   * two cancels, or a cancel and a check-in, at the same moment the database lets exactly one
   * through, so a place comes back once. A cancelled ticket answers as it is (a second cancel
   * changes nothing, refundDue included); a checked-in one is refused.
   */
  async cancel(ticketId: string): Promise<TicketResponse> {
    const ticket = await this.find(ticketId);
    if (ticket.status === 'active') {
      const cancel = this.tickets.cancelStatement(ticketId, Date.now());
      // The guard changes nothing only when the ticket left `active` since the read (a rival
      // cancel, or a check-in): the row read again below says which, for good.
      if (ticket.eventId === null) await this.hours.returnGeneral(ticket.ticketDate, cancel);
      else await this.events.returnTicket(ticket.eventId, cancel);
    }
    const now = ticket.status === 'active' ? await this.find(ticketId) : ticket;
    if (now.status === 'checked-in') {
      throw new TicketRefusal('cancel-checked-in', { checkedInAt: iso(now.checkedInAt) });
    }
    return toResponse(now);
  }

  private async find(ticketId: string): Promise<Ticket> {
    const ticket = await this.tickets.byId(ticketId);
    if (ticket === null) throw new TicketRefusal('no-ticket', { ticketId });
    return ticket;
  }
}
