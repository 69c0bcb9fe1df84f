import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SpecialEvent } from './special-event.entity.js';
import { SpecialEventsController } from './special-events.controller.js';
import { SpecialEventsService } from './special-events.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([SpecialEvent])],
  controllers: [SpecialEventsController],
  providers: [SpecialEventsService],
})
export class SpecialEventsModule {}
