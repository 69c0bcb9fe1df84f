import { Injectable } from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/config.module.js';
import { MuseumClock } from '../domain/museum-clock.js';
import { TimeSlotsService } from '../museum-hours/time-slots.service.js';
import { SpecialEventRefusal } from '../special-events/special-events.refusals.js';
import { SpecialEventsService } from '../special-events/special-events.service.js';
import { type EntryEnd, entryAt } from './entry-window.js';
import type { Ticket } from './ticket.entity.js';
import { TicketRefusal } from './tickets.refusals.js';

/**
 * The door's rule for a ticket with a time (a general-admission slot, an event session): it admits
 * from ENTRY_EARLY_MINUTES before its time until the day's close (general), or its session's end
 * (an event with durationMinutes), else until the day's end. A ticket without a time admits all
 * its day, as ever.
 */
@Injectable()
export class TimedEntry {
  private readonly earlyMinutes: number;

  constructor(
    private readonly clock: MuseumClock,
    private readonly events: SpecialEventsService,
    private readonly slots: TimeSlotsService,
    @InjectConfig() config: AppConfig,
  ) {
    this.earlyMinutes = config.museum.entryEarlyMinutes;
  }

  /** Why `ticket` (active, for today) does not admit now, or null when it does. */
  async refusal(ticket: Ticket): Promise<TicketRefusal | null> {
    if (ticket.ticketTime === null) return null;
    const end = await this.endOf(ticket);
    const check = entryAt(
      this.clock.now(),
      this.clock.timeZone,
      { date: ticket.ticketDate, time: ticket.ticketTime },
      this.earlyMinutes,
      end,
    );
    if (check.kind === 'too-early') return new TicketRefusal('too-early', { time: check.time, opensAt: check.opensAt });
    if (check.kind === 'closed')
      return new TicketRefusal('entry-closed', { time: check.time, closedAt: check.closedAt });
    return null;
  }

  /**
   * A session ends `durationMinutes` after it starts; a general slot's entry lasts until the day
   * closes (its hours as they are now: a day closed since the sale, or an event without a
   * duration, has no end but the day's).
   */
  private async endOf(ticket: Ticket): Promise<EntryEnd> {
    if (ticket.eventId === null) {
      const hours = await this.slots.hoursOn(ticket.ticketDate);
      return hours === null ? { kind: 'day' } : { kind: 'close', time: hours.timeClose };
    }
    try {
      const { durationMinutes } = await this.events.get(ticket.eventId);
      return durationMinutes === null ? { kind: 'day' } : { kind: 'duration', minutes: durationMinutes };
    } catch (error) {
      if (error instanceof SpecialEventRefusal && error.reason === 'not-found') return { kind: 'day' };
      throw error;
    }
  }
}
