import { Column, Entity, PrimaryColumn } from 'typeorm';

const epochMs = { to: (v: number) => v, from: (v: string | number) => Number(v) };

/**
 * An order: several tickets bought together (their `order_id` names it), in one transaction.
 * Its tickets say what became of it (cancelled, checked in), so the row holds only what the sale
 * decided: who bought, what the tickets cost together, and when. Its migrations build exactly this
 * (src/database/database-options.spec.ts compares them).
 */
@Entity({ name: 'orders', withoutRowid: true })
export class Order {
  /** Lowercase hyphenated UUIDv7. */
  @PrimaryColumn({ name: 'order_id', type: 'varchar', length: 36 })
  orderId: string;

  @Column({ type: 'varchar', length: 254 })
  email: string;

  /** What the order's tickets cost together when sold: an 8-byte double, as a ticket's price. */
  @Column({ type: 'double' })
  total: number;

  @Column({ name: 'created_at', type: 'bigint', transformer: epochMs })
  createdAt: number;
}
