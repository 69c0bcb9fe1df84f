import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ProblemTranslators } from '../common/problem/problem-translators.js';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { Sql } from '../database/sql.js';
import { CursorSigningKeys } from './cursor-signing-keys.js';
import { EventSeats } from './event-seats.js';
import { EventWriteParticipants } from './event-write-participants.js';
import { SpecialEvent, SpecialEventDate } from './special-event.entity.js';
import { SpecialEventsController } from './special-events.controller.js';
import { SpecialEventsService } from './special-events.service.js';
import { createSpecialEventsStore, SpecialEventsStore } from './special-events.store.js';
import { SPECIAL_EVENT_PROBLEMS } from './special-events.problems.js';

@Module({
  imports: [TypeOrmModule.forFeature([SpecialEvent, SpecialEventDate]), IdempotencyModule],
  controllers: [SpecialEventsController],
  providers: [
    SpecialEventsService,
    EventWriteParticipants,
    CursorSigningKeys,
    {
      provide: SpecialEventsStore,
      inject: [DataSource, APP_CONFIG, EventWriteParticipants],
      useFactory: (dataSource: DataSource, config: AppConfig, participants: EventWriteParticipants) =>
        createSpecialEventsStore(dataSource, config.databasePool, participants),
    },
    {
      provide: EventSeats,
      inject: [Sql],
      useFactory: (sql: Sql) => new EventSeats(sql),
    },
  ],
  // What modules built on special events may use: the service's methods and a place in its writes'
  // transactions (see EventWriteParticipants); never the store or the tables.
  exports: [SpecialEventsService, EventWriteParticipants],
})
export class SpecialEventsModule {
  constructor(problems: ProblemTranslators) {
    problems.add(SPECIAL_EVENT_PROBLEMS.translate);
  }
}
