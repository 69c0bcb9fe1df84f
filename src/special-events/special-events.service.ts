import { Injectable } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { ProblemException } from '../common/problem/problem.js';
import type { CreateSpecialEventDto } from './dto/create-special-event.dto.js';
import type { SpecialEventResponse } from './dto/special-event.response.js';
import { indexedDates, sortDateOf } from './event-dates.js';
import { SpecialEvent } from './special-event.entity.js';
import { SpecialEventsStore } from './special-events.store.js';

/** The fields a client sees, in the order it sees them (the stored version travels as the ETag). */
export function toResponse(event: SpecialEvent): SpecialEventResponse {
  return {
    eventId: event.eventId,
    name: event.name,
    location: event.location,
    eventDescription: event.eventDescription,
    dates: event.dates,
    price: event.price,
  };
}

/** The strong ETag of a stored event's representation. */
export function etagOf(event: SpecialEvent): string {
  return `"${event.version.toString(36)}"`;
}

/**
 * The first version of a new event: random, so that an event deleted and created again under the
 * same eventId never repeats a tag a client may still hold (2^47 values; updates add one).
 */
function firstVersion(): number {
  return randomInt(1, 2 ** 47);
}

/** An event with its derived columns (list order key) computed from its fields. */
export function withDerivedColumns(fields: Omit<SpecialEvent, 'version' | 'sortDate'>, version: number): SpecialEvent {
  return { ...fields, version, sortDate: sortDateOf(indexedDates(fields.dates)) };
}

@Injectable()
export class SpecialEventsService {
  constructor(private readonly store: SpecialEventsStore) {}

  /**
   * Stores the event and returns it as stored, once durable. A duplicate id is decided by the
   * primary key, so of concurrent creates with one id exactly one succeeds.
   */
  async create(dto: CreateSpecialEventDto): Promise<SpecialEvent> {
    const event = withDerivedColumns(
      {
        eventId: dto.eventId ?? uuidv7(),
        name: dto.name,
        location: dto.location,
        eventDescription: dto.eventDescription,
        dates: dto.dates,
        price: dto.price,
      },
      firstVersion(),
    );
    if (!(await this.store.insert(event))) {
      throw new ProblemException(409, `A special event with eventId ${event.eventId} already exists.`);
    }
    return event;
  }

  async delete(eventId: string): Promise<void> {
    if (!(await this.store.delete(eventId)))
      throw new ProblemException(404, `No special event with eventId ${eventId}.`);
  }
}
