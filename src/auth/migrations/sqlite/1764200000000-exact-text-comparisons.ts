import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The MySQL migration of this name makes user names and idempotency keys compare exactly (NO PAD).
 * SQLite's BINARY collation already does (`'victim ' = 'victim'` is false), so there is nothing
 * to change here; the class exists so both drivers list the same migrations.
 */
export class ExactTextComparisons1764200000000 implements MigrationInterface {
  name = 'ExactTextComparisons1764200000000';

  async up(_queryRunner: QueryRunner): Promise<void> {}

  async down(_queryRunner: QueryRunner): Promise<void> {}
}
