import type { TicketReservation } from '../special-events/special-events.service.js';
import { TicketRefusal } from './tickets.refusals.js';

/**
 * Why an event ticket for `date` was not sold, from what SpecialEventsService.reserveTicket did
 * (any outcome but `reserved`): a time missing on a date with several sessions, or naming none of
 * them, is a 400 naming `ticketTime` and the valid times.
 */
export function eventRefusal(
  eventId: string,
  date: string,
  reservation: Exclude<TicketReservation, { outcome: 'reserved' }>,
): TicketRefusal {
  switch (reservation.outcome) {
    case 'no-event':
      return new TicketRefusal('no-event', { eventId });
    case 'not-a-date':
      return new TicketRefusal('not-an-event-date', { date, dates: reservation.dates });
    case 'time-required':
      return ticketTimeRefusal(
        `ticketTime is required: the event has ${reservation.times.length} sessions on ${date}, at ${reservation.times.join(', ')}`,
      );
    case 'unknown-time':
      return ticketTimeRefusal(
        reservation.times.length === 0
          ? `ticketTime must be absent: the event has no session with a time on ${date}`
          : `ticketTime must be one of the event's sessions on ${date}: ${reservation.times.join(', ')}`,
      );
    case 'sold-out':
      return new TicketRefusal('event-sold-out', { capacity: reservation.capacity });
    case 'date-sold-out': {
      const { time, capacityPerDate } = reservation;
      return new TicketRefusal('event-date-sold-out', {
        date: time === null ? date : `${date} ${time}`,
        capacityPerDate,
      });
    }
  }
}

function ticketTimeRefusal(message: string): TicketRefusal {
  return new TicketRefusal('invalid-purchase', { errors: [{ field: 'ticketTime', message }] });
}
