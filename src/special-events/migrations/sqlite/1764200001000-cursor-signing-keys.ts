import { randomBytes } from 'node:crypto';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The keys that sign list cursors (src/special-events/cursor-signing-keys.ts): every instance
 * reads them from here, so cursors work across instances without configuration. The newest key
 * signs, every key verifies; the first is made here, at random.
 */
export class CursorSigningKeys1764200001000 implements MigrationInterface {
  name = 'CursorSigningKeys1764200001000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "cursor_signing_keys" (
        "key_id" varchar(16) NOT NULL,
        "secret" varchar(64) NOT NULL,
        "created_at" bigint NOT NULL,
        PRIMARY KEY ("key_id")
      ) WITHOUT ROWID`);
    await queryRunner.query('INSERT INTO "cursor_signing_keys" ("key_id", "secret", "created_at") VALUES (?, ?, ?)', [
      randomBytes(6).toString('base64url'),
      randomBytes(32).toString('base64url'),
      Date.now(),
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "cursor_signing_keys"');
  }
}
