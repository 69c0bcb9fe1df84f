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
      CREATE TABLE "idempotency_keys" (
        "username" varchar(64) NOT NULL,
        "idempotency_key" varchar(255) NOT NULL,
        "fingerprint" varchar(64) NOT NULL,
        "claim" varchar(32) NOT NULL,
        "status" integer NULL,
        "headers" text NULL,
        "body" text NULL,
        "expires_at" bigint NOT NULL,
        PRIMARY KEY ("username", "idempotency_key")
      ) WITHOUT ROWID`);
    await queryRunner.query(`CREATE INDEX "idempotency_keys_expires_at" ON "idempotency_keys" ("expires_at")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "idempotency_keys"`);
  }
}
