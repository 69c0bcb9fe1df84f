import { Column, Entity, PrimaryColumn } from 'typeorm';

const epochMs = { to: (v: number | null) => v, from: (v: string | number | null) => (v === null ? null : Number(v)) };

/**
 * A webhook subscriber. The secret is kept as given (it signs every delivery, so it cannot be
 * hashed) and is never listed. The last success and failure are the delivery health an admin sees.
 */
@Entity({ name: 'webhook_subscriptions', withoutRowid: true })
export class WebhookSubscription {
  @PrimaryColumn({ name: 'webhook_id', type: 'varchar', length: 36 })
  webhookId: string;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 64 })
  secret: string;

  @Column({ name: 'created_at', type: 'bigint', transformer: epochMs })
  createdAt: number;

  @Column({
    type: 'integer',
    default: 1,
    transformer: { to: (v: boolean) => (v ? 1 : 0), from: (v: number) => v === 1 },
  })
  enabled: boolean;

  @Column({ name: 'disabled_reason', type: 'varchar', length: 600, nullable: true })
  disabledReason: string | null;

  @Column({ name: 'last_success_at', type: 'bigint', nullable: true, transformer: epochMs })
  lastSuccessAt: number | null;

  @Column({ name: 'last_failure_at', type: 'bigint', nullable: true, transformer: epochMs })
  lastFailureAt: number | null;

  @Column({ name: 'last_failure_reason', type: 'varchar', length: 600, nullable: true })
  lastFailureReason: string | null;
}
