import type { SlotAdmissionOutcome } from '../museum-hours/time-slots.service.js';
import { TicketRefusal } from './tickets.refusals.js';

/**
 * Why a general ticket for `date` was not sold, from what TimeSlotsService.admit did (any outcome
 * but `admitted`): a time missing, unknown or asked of a day without slots is a 400 naming
 * `ticketTime`; a full slot a 409 naming the later slots with room.
 */
export function generalRefusal(
  date: string,
  admission: Exclude<SlotAdmissionOutcome, { outcome: 'admitted' }>,
): TicketRefusal {
  switch (admission.outcome) {
    case 'closed':
      return new TicketRefusal('museum-closed', { date });
    case 'sold-out':
      return new TicketRefusal('admission-sold-out', { date, capacity: admission.capacity });
    case 'no-slots':
      return new TicketRefusal('invalid-purchase', {
        errors: [
          {
            field: 'ticketTime',
            message: `ticketTime must be absent: general admission on ${date} has no time slots`,
          },
        ],
      });
    case 'unknown-time':
      return new TicketRefusal('invalid-purchase', {
        errors: [
          {
            field: 'ticketTime',
            message: `ticketTime must be one of the slots of ${date}: ${admission.times.join(', ')}`,
          },
        ],
      });
    case 'slot-full':
      return new TicketRefusal('slot-sold-out', {
        date,
        time: admission.time,
        capacity: admission.capacity,
        next: admission.next,
      });
  }
}
