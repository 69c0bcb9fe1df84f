import { Module, type OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuthModule } from '../auth/auth.module.js';
import { SqlStatements } from '../database/sql-statements.js';
import { EventWriteParticipants } from '../special-events/event-write-participants.js';
import { SpecialEventsModule } from '../special-events/special-events.module.js';
import { Ticket } from './ticket.entity.js';
import { CheckInsController, TicketsController } from './tickets.controller.js';
import { cancelEventTicketsStatement, TicketsService } from './tickets.service.js';

/**
 * Tickets (issue 28): bought for general admission or a special event, drawn as a QR code, checked
 * in at the door. It uses special-events only through what that module exports (a seat taken by
 * SpecialEventsService, and a place in the events' transactions: an event's delete cancels its
 * tickets in the same transaction), never its tables; special-events knows nothing of tickets.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Ticket]), SpecialEventsModule, AuthModule],
  controllers: [TicketsController, CheckInsController],
  providers: [
    TicketsService,
    {
      provide: SqlStatements,
      inject: [DataSource],
      useFactory: (dataSource: DataSource) => new SqlStatements(dataSource),
    },
  ],
})
export class TicketsModule implements OnModuleInit {
  constructor(private readonly participants: EventWriteParticipants) {}

  onModuleInit(): void {
    this.participants.join({
      statementsFor: (change) =>
        change.kind === 'deleted' ? [cancelEventTicketsStatement(change.eventId, Date.now())] : [],
    });
  }
}
