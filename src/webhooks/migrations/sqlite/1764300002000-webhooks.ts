import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook subscriptions and their outbox. A delivery row is written in the same transaction as
 * the event's write it announces (one per enabled subscription) and removed once delivered; its
 * lease (`lease_owner`, `lease_until`) lets one instance at a time send it. The chain index finds
 * whether an earlier delivery of the same event to the same subscriber is still pending (order).
 */
export class Webhooks1764300002000 implements MigrationInterface {
  name = 'Webhooks1764300002000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "webhook_subscriptions" (
        "webhook_id" varchar(36) NOT NULL,
        "url" varchar(2048) NOT NULL,
        "description" varchar(200),
        "secret" varchar(64) NOT NULL,
        "created_at" bigint NOT NULL,
        "enabled" integer NOT NULL DEFAULT 1,
        "disabled_reason" varchar(600),
        "last_success_at" bigint,
        "last_failure_at" bigint,
        "last_failure_reason" varchar(600),
        PRIMARY KEY ("webhook_id")
      ) WITHOUT ROWID`);
    // A rowid without AUTOINCREMENT (which costs a write to sqlite_sequence per row): a new row's
    // id is above every stored one, which is all the order of a chain compares.
    await queryRunner.query(`
      CREATE TABLE "webhook_deliveries" (
        "delivery_id" integer PRIMARY KEY,
        "message_id" varchar(40) NOT NULL,
        "webhook_id" varchar(36) NOT NULL,
        "event_id" varchar(36) NOT NULL,
        "kind" varchar(10) NOT NULL,
        "payload" text NOT NULL,
        "created_at" bigint NOT NULL,
        "attempts" integer NOT NULL DEFAULT 0,
        "first_failed_at" bigint,
        "next_attempt_at" bigint NOT NULL,
        "lease_owner" varchar(36),
        "lease_until" bigint NOT NULL DEFAULT 0
      )`);
    await queryRunner.query(
      'CREATE INDEX "IDX_webhook_deliveries_chain" ON "webhook_deliveries" ("webhook_id", "event_id", "delivery_id")',
    );
    await queryRunner.query('CREATE INDEX "IDX_webhook_deliveries_due" ON "webhook_deliveries" ("next_attempt_at")');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "webhook_deliveries"');
    await queryRunner.query('DROP TABLE "webhook_subscriptions"');
  }
}
