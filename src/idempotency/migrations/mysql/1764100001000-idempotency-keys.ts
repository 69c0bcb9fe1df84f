import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Idempotency keys, per user and key: the primary key decides which of two concurrent first
 * requests wins. `status` is null while the first request is in flight. `expires_at` is indexed
 * so that expired keys are found and removed in index order, never by a table scan.
 */
export class IdempotencyKeys1764100001000 implements MigrationInterface {
  name = 'IdempotencyKeys1764100001000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE \`idempotency_keys\` (
        \`username\` varchar(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
        \`idempotency_key\` varchar(255) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        \`fingerprint\` varchar(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        \`claim\` varchar(32) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        \`status\` int NULL,
        \`headers\` text CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL,
        \`body\` mediumtext CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL,
        \`expires_at\` bigint NOT NULL,
        PRIMARY KEY (\`username\`, \`idempotency_key\`),
        KEY \`idempotency_keys_expires_at\` (\`expires_at\`)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE `idempotency_keys`');
  }
}
