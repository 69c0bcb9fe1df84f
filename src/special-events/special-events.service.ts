import { Injectable } from '@nestjs/common';
import { v7 as uuidv7 } from 'uuid';
import { ProblemException } from '../common/problem/problem.js';
import { WriteHealth } from '../database/write-health.js';
import type { CreateSpecialEventDto } from './dto/create-special-event.dto.js';
import { SpecialEvent } from './special-event.entity.js';
import { SpecialEventsStore } from './special-events.store.js';

@Injectable()
export class SpecialEventsService {
  constructor(
    private readonly store: SpecialEventsStore,
    private readonly writeHealth: WriteHealth,
  ) {}

  /**
   * Stores the event and returns it as stored, once durable. A duplicate id is decided by the
   * primary key, so of concurrent creates with one id exactly one succeeds.
   */
  async create(dto: CreateSpecialEventDto): Promise<SpecialEvent> {
    const event: SpecialEvent = {
      eventId: dto.eventId ?? uuidv7(),
      name: dto.name,
      location: dto.location,
      eventDescription: dto.eventDescription,
      dates: dto.dates,
      price: dto.price,
    };
    if (!(await this.writeHealth.track(this.store.insert(event)))) {
      throw new ProblemException(409, `A special event with eventId ${event.eventId} already exists.`);
    }
    return event;
  }

  async delete(eventId: string): Promise<void> {
    if (!(await this.writeHealth.track(this.store.delete(eventId))))
      throw new ProblemException(404, `No special event with eventId ${eventId}.`);
  }
}
