import { Module, type OnModuleInit } from '@nestjs/common';
import { MuseumClock } from '../domain/museum-clock.js';
import { ProblemTranslators } from '../common/problem/problem-translators.js';
import { AuthModule } from '../auth/auth.module.js';
import { CapacityModule } from '../capacity/capacity.module.js';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { AdmissionPricesModule } from '../admission-prices/admission-prices.module.js';
import { MuseumHoursModule } from '../museum-hours/museum-hours.module.js';
import { EventWriteParticipants } from '../special-events/event-write-participants.js';
import { SpecialEventsModule } from '../special-events/special-events.module.js';
import { BoxOfficeService } from './box-office.service.js';
import { TicketBatchService } from './ticket-batch.service.js';
import { CheckInsController, TicketsController } from './tickets.controller.js';
import { TicketPrices } from './ticket-prices.js';
import { TicketAttendance } from './ticket-attendance.js';
import { TicketsRepository } from './tickets.repository.js';
import { TicketsService } from './tickets.service.js';
import { TICKET_PROBLEMS } from './tickets.problems.js';
import { TimedEntry } from './timed-entry.js';
import { ResetRegistry } from '../database/reset-registry.js';

/**
 * Tickets (issue 28): bought for general admission or a special event, drawn as a QR code, checked
 * in at the door, cancelled at the box office (BoxOfficeService). It uses special-events and museum-hours only through what they export (a seat
 * taken by SpecialEventsService.reserveTicket, a day's admission by MuseumHoursService.admitGeneral,
 * and a place in the events' transactions: an event's delete cancels its tickets in the same
 * transaction), never their tables; neither knows anything of tickets.
 */
@Module({
  imports: [
    SpecialEventsModule,
    MuseumHoursModule,
    AdmissionPricesModule,
    AuthModule,
    IdempotencyModule,
    CapacityModule,
  ],
  controllers: [TicketsController, CheckInsController],
  // TicketAttendance counts tickets for the attendance routes of special events and museum hours.
  providers: [
    TicketsService,
    BoxOfficeService,
    TicketsRepository,
    TicketAttendance,
    TimedEntry,
    TicketBatchService,
    TicketPrices,
  ],
  // What modules built on tickets may use (orders): sales, reads and cancels of several tickets in
  // one transaction, and the price of a ticket in a category; never the repository or the table.
  exports: [TicketBatchService, TicketPrices],
})
export class TicketsModule implements OnModuleInit {
  constructor(
    private readonly participants: EventWriteParticipants,
    private readonly tickets: TicketsService,
    private readonly repository: TicketsRepository,
    private readonly clock: MuseumClock,
    problems: ProblemTranslators,
    reset: ResetRegistry,
  ) {
    reset.empties('tickets', ['tickets']);
    problems.add(TICKET_PROBLEMS.translate);
  }

  onModuleInit(): void {
    this.participants.join({
      statementsFor: (change) =>
        change.kind === 'deleted'
          ? [this.repository.cancelEventTicketsStatement(change.eventId, this.clock.now())]
          : [],
      // A batch of deletes cancels the tickets of all its events in one statement.
      statementsForAll: (changes) => {
        const deleted = changes.flatMap((change) => (change.kind === 'deleted' ? [change.eventId] : []));
        return deleted.length === 0 ? [] : [this.repository.cancelEventsTicketsStatement(deleted, this.clock.now())];
      },
      // An event's update may not take away a date its active tickets admit on.
      datesInUse: (eventId, dates) => this.tickets.activeDates(eventId, dates),
      // Nor move or remove a session its active tickets are for.
      sessionsInUse: (eventId, sessions) => this.repository.activeSessions(eventId, sessions),
    });
  }
}
