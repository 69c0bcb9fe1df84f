import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { ProblemException } from '../common/problem/problem.js';
import { isUniqueViolation } from '../database/database-errors.js';
import type { CreateSpecialEventDto } from './dto/create-special-event.dto.js';
import { SpecialEvent } from './special-event.entity.js';

@Injectable()
export class SpecialEventsService {
  constructor(@InjectRepository(SpecialEvent) private readonly events: Repository<SpecialEvent>) {}

  /**
   * Stores the event and returns it as stored. `insert()` rather than `save()`: save would first
   * SELECT the id and wrap both in a transaction. A duplicate id is decided by the primary key,
   * so of concurrent creates with one id exactly one succeeds.
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
    try {
      await this.events.insert(event);
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new ProblemException(409, `A special event with eventId ${event.eventId} already exists.`);
      }
      throw error;
    }
    return event;
  }

  async delete(eventId: string): Promise<void> {
    const result = await this.events.delete({ eventId });
    if (!result.affected) throw new ProblemException(404, `No special event with eventId ${eventId}.`);
  }
}
