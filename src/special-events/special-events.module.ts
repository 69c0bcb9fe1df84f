import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { SpecialEvent, SpecialEventDate } from './special-event.entity.js';
import { SpecialEventsController } from './special-events.controller.js';
import { SpecialEventsService } from './special-events.service.js';
import { createSpecialEventsStore, SpecialEventsStore } from './special-events.store.js';

@Module({
  imports: [TypeOrmModule.forFeature([SpecialEvent, SpecialEventDate]), IdempotencyModule],
  controllers: [SpecialEventsController],
  providers: [
    SpecialEventsService,
    {
      provide: SpecialEventsStore,
      inject: [DataSource, APP_CONFIG],
      useFactory: (dataSource: DataSource, config: AppConfig) =>
        createSpecialEventsStore(dataSource, config.databasePool),
    },
  ],
})
export class SpecialEventsModule {}
