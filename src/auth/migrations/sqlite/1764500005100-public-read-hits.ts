import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The anonymous reads each client address made in each fixed window of the public read limit
 * (src/auth/public-read-hits.ts): one row per address and window, counted by one upsert per
 * read, so every instance on the database counts the same reads. Keyed by the window first, so
 * that the windows that ended are one range of the key to delete.
 */
export class PublicReadHits1764500005100 implements MigrationInterface {
  name = 'PublicReadHits1764500005100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "public_read_hits" (
        "window_start" integer NOT NULL,
        "address" varchar(64) NOT NULL,
        "hits" integer NOT NULL,
        PRIMARY KEY ("window_start", "address")
      ) WITHOUT ROWID`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "public_read_hits"');
  }
}
