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
      CREATE TABLE \`webhook_subscriptions\` (
        \`webhook_id\` varchar(36) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        \`url\` varchar(2048) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        \`description\` varchar(200) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL,
        \`secret\` varchar(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        \`created_at\` bigint NOT NULL,
        \`enabled\` integer NOT NULL DEFAULT 1,
        \`disabled_reason\` varchar(600) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL,
        \`last_success_at\` bigint NULL,
        \`last_failure_at\` bigint NULL,
        \`last_failure_reason\` varchar(600) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL,
        PRIMARY KEY (\`webhook_id\`)
      ) ENGINE=InnoDB`);
    await queryRunner.query(`
      CREATE TABLE \`webhook_deliveries\` (
        \`delivery_id\` bigint NOT NULL AUTO_INCREMENT,
        \`message_id\` varchar(40) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        \`webhook_id\` varchar(36) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        \`event_id\` varchar(36) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        \`kind\` varchar(10) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        \`payload\` mediumtext CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
        \`created_at\` bigint NOT NULL,
        \`attempts\` integer NOT NULL DEFAULT 0,
        \`first_failed_at\` bigint NULL,
        \`next_attempt_at\` bigint NOT NULL,
        \`lease_owner\` varchar(36) CHARACTER SET ascii COLLATE ascii_bin NULL,
        \`lease_until\` bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (\`delivery_id\`),
        KEY \`IDX_webhook_deliveries_chain\` (\`webhook_id\`, \`event_id\`, \`delivery_id\`),
        KEY \`IDX_webhook_deliveries_due\` (\`next_attempt_at\`)
      ) ENGINE=InnoDB`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE `webhook_deliveries`');
    await queryRunner.query('DROP TABLE `webhook_subscriptions`');
  }
}
