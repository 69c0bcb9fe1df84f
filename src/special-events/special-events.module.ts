import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ProblemTranslators } from '../common/problem/problem-translators.js';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { Sql } from '../database/sql.js';
import { Capacity } from '../capacity/capacity.js';
import { CapacityModule } from '../capacity/capacity.module.js';
import { CursorSigningKeys } from './cursor-signing-keys.js';
import { PublicEntityTags } from './public-entity-tags.js';
import { EventSeatClaims } from './event-seat-claims.js';
import { EventAttendance } from './event-attendance.js';
import { EventSeats } from './event-seats.js';
import { EventWriteParticipants } from './event-write-participants.js';
import { SpecialEvent, SpecialEventDate, SpecialEventSession } from './special-event.entity.js';
import { SpecialEventsController } from './special-events.controller.js';
import { SpecialEventsService } from './special-events.service.js';
import { SpecialEventsRepository } from './special-events.repository.js';
import { createSpecialEventsRepository } from './special-events.repository.factory.js';
import { SPECIAL_EVENT_PROBLEMS } from './special-events.problems.js';
import { ResetRegistry } from '../database/reset-registry.js';

@Module({
  // The entities are registered for the tools and tests that read the tables through TypeORM;
  // the repository reads and writes through Sql.
  imports: [
    TypeOrmModule.forFeature([SpecialEvent, SpecialEventDate, SpecialEventSession]),
    IdempotencyModule,
    CapacityModule,
  ],
  controllers: [SpecialEventsController],
  providers: [
    SpecialEventsService,
    EventWriteParticipants,
    EventAttendance,
    CursorSigningKeys,
    PublicEntityTags,
    {
      provide: SpecialEventsRepository,
      inject: [Sql, EventWriteParticipants],
      useFactory: (sql: Sql, participants: EventWriteParticipants) => createSpecialEventsRepository(sql, participants),
    },
    {
      provide: EventSeats,
      inject: [Capacity, SpecialEventsRepository],
      useFactory: (capacity: Capacity, store: SpecialEventsRepository) => new EventSeats(capacity, store),
    },
    {
      provide: EventSeatClaims,
      inject: [SpecialEventsRepository],
      useFactory: (store: SpecialEventsRepository) => new EventSeatClaims(store),
    },
  ],
  // What modules built on special events may use: the service's methods, a place in its writes'
  // transactions (see EventWriteParticipants), the place of the counter of its dates' tickets
  // (EventAttendance), the keys that sign list cursors (a ticket search signs its cursors with
  // them too) and seats claimed several at a time for a sale of several places
  // (EventSeatClaims); never the repository or the tables.
  exports: [SpecialEventsService, EventWriteParticipants, EventAttendance, CursorSigningKeys, EventSeatClaims],
})
export class SpecialEventsModule {
  constructor(problems: ProblemTranslators, reset: ResetRegistry) {
    reset.empties('special-events', ['special_events', 'special_event_dates', 'special_event_sessions']);
    // The keys that sign list cursors are not data: a reset leaves them.
    reset.keeps('special-events', ['cursor_signing_keys']);
    problems.add(SPECIAL_EVENT_PROBLEMS.translate);
  }
}
