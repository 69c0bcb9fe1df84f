import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

const epochMs = { to: (v: number | null) => v, from: (v: string | number | null) => (v === null ? null : Number(v)) };

export const TICKET_TYPES = ['general', 'event'] as const;
export type TicketType = (typeof TICKET_TYPES)[number];

export const TICKET_STATUSES = ['active', 'checked-in', 'cancelled'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/**
 * A ticket sold. It keeps its price category, if any, and what was paid (the price of the event,
 * or of its category, at the moment of purchase; for general admission GENERAL_ADMISSION_PRICE, or
 * its category's), and its status changes only by conditional UPDATEs the database decides:
 * `active` → `checked-in` at the door, `active` → `cancelled` at the box office (its seat or
 * admission given back), `active` or `checked-in` → `cancelled` when its event is deleted.
 * Nothing ever deletes a ticket. `event_id` names an event of special-events without a foreign
 * key: this module never touches that module's tables.
 */
@Entity({ name: 'tickets', withoutRowid: true })
@Index('IDX_tickets_event', ['eventId'])
@Index('IDX_tickets_confirmation_code', ['confirmationCode'], { unique: true })
@Index('IDX_tickets_date', ['ticketDate'])
@Index('IDX_tickets_email', ['email'])
@Index('IDX_tickets_status', ['status'])
@Index('IDX_tickets_order', ['orderId'])
export class Ticket {
  /** Lowercase hyphenated UUIDv7. */
  @PrimaryColumn({ name: 'ticket_id', type: 'varchar', length: 36 })
  ticketId: string;

  @Column({ name: 'ticket_type', type: 'varchar', length: 7 })
  ticketType: TicketType;

  /** YYYY-MM-DD: the museum day the ticket admits on. */
  @Column({ name: 'ticket_date', type: 'varchar', length: 10 })
  ticketDate: string;

  /**
   * `HH:MM`: the time the ticket admits from, local to the museum (a general ticket's slot, or an
   * event ticket's session); null for a ticket of the whole day.
   */
  @Column({ name: 'ticket_time', type: 'varchar', length: 5, nullable: true })
  ticketTime: string | null;

  @Column({ name: 'event_id', type: 'varchar', length: 36, nullable: true })
  eventId: string | null;

  @Column({ type: 'varchar', length: 254, nullable: true })
  email: string | null;

  /**
   * The price category it was bought in (an event's, or general admission's), as named then; null
   * for a ticket bought with none. `pricePaid` is that category's price at the moment of purchase.
   */
  @Column({ type: 'varchar', length: 40, nullable: true })
  category: string | null;

  /** What was paid: an 8-byte double, as special events keep their price. */
  @Column({ name: 'price_paid', type: 'double' })
  pricePaid: number;

  /** What the QR code holds and a scanner sends: `ticket-` and 128 random bits (confirmation-code.ts). */
  @Column({ name: 'confirmation_code', type: 'varchar', length: 40 })
  confirmationCode: string;

  @Column({ type: 'varchar', length: 10, default: 'active' })
  status: TicketStatus;

  @Column({ name: 'created_at', type: 'bigint', transformer: epochMs })
  createdAt: number;

  @Column({ name: 'checked_in_at', type: 'bigint', nullable: true, transformer: epochMs })
  checkedInAt: number | null;

  @Column({ name: 'cancelled_at', type: 'bigint', nullable: true, transformer: epochMs })
  cancelledAt: number | null;

  /**
   * What the buyer is owed for the cancellation, set with it: what was paid for a ticket cancelled
   * while active, 0 for one its event's delete cancelled after check-in; null while not cancelled.
   * The service takes no payment: this records what someone must pay back.
   */
  @Column({ name: 'refund_due', type: 'double', nullable: true })
  refundDue: number | null;

  /**
   * The order the ticket was sold in (the orders module's), without a foreign key; null for a
   * ticket bought alone (POST /tickets).
   */
  @Column({ name: 'order_id', type: 'varchar', length: 36, nullable: true })
  orderId: string | null;
}
