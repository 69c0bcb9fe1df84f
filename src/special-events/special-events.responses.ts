import { ifMatchSatisfied, ifNoneMatchFound } from '../common/http/entity-tags.js';
import type { SpecialEventResponse } from './dto/special-event-response.dto.js';
import type { SpecialEvent } from './special-event.entity.js';
import { ticketsAvailable } from './special-events.service.js';
import type { EventPrecondition, EventRevision } from './special-events.types.js';

/**
 * The fields everyone who may read an event sees, in the order they see them; `prices` and
 * `durationMinutes` only for an event with them.
 */
function sharedFields(event: SpecialEvent): SpecialEventResponse {
  const response: SpecialEventResponse = {
    eventId: event.eventId,
    name: event.name,
    location: event.location,
    eventDescription: event.eventDescription,
    dates: event.dates,
    price: event.price,
  };
  if (event.prices !== null) response.prices = event.prices;
  if (event.durationMinutes !== null) response.durationMinutes = event.durationMinutes;
  return response;
}

/**
 * The fields a client sees, in the order it sees them (the stored version travels as the ETag).
 * `capacity` and `ticketsAvailable` only for an event with a capacity: an event without one looks
 * exactly as the Museum API's SpecialEvent.
 */
export function toResponse(event: SpecialEvent): SpecialEventResponse {
  const response = sharedFields(event);
  if (event.capacity !== null) {
    response.capacity = event.capacity;
    response.ticketsAvailable = ticketsAvailable(event);
  }
  if (event.capacityPerDate !== null) response.capacityPerDate = event.capacityPerDate;
  return response;
}

/**
 * What a caller without credentials sees (public read): the event without its capacity, which
 * with ticketsAvailable would tell anyone the tickets sold. One object per event, as toResponse.
 */
export function toPublicResponse(event: SpecialEvent): SpecialEventResponse {
  const response = sharedFields(event);
  if (event.capacity !== null) response.ticketsAvailable = ticketsAvailable(event);
  return response;
}

/**
 * The strong ETag of a stored event's representation: its version, and for an event with a
 * capacity the tickets sold too (its body shows ticketsAvailable, which a sale changes without a
 * new version), so that no sale leaves a stale 304 behind.
 */
export function etagOf(event: EventRevision): string {
  const version = event.version.toString(36);
  return event.capacity === null ? `"${version}"` : `"${version}-${event.ticketsSold.toString(36)}"`;
}

/** A header's value, or undefined when absent or blank (an empty list of tags is no condition). */
function given(header: string | undefined): string | undefined {
  return header?.trim() ? header : undefined;
}

/**
 * The conditions of If-Match and If-None-Match as the service takes them. If-Match `*` is no
 * condition on a write: any existing event satisfies it, and a missing one is a 404 either way
 * (RFC 9110 §13.1.1).
 */
export function preconditionOf(ifMatchHeader?: string, ifNoneMatchHeader?: string): EventPrecondition {
  const ifMatch = given(ifMatchHeader);
  const ifNoneMatch = given(ifNoneMatchHeader);
  return {
    ...(ifMatch === undefined || ifMatch.trim() === '*'
      ? {}
      : { matches: (current: EventRevision) => ifMatchSatisfied(ifMatch, etagOf(current)) }),
    ...(ifNoneMatch === undefined
      ? {}
      : { excludes: (current: EventRevision) => ifNoneMatchFound(ifNoneMatch, etagOf(current)) }),
  };
}
