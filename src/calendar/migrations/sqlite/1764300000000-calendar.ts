import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The calendar feed's own tables (src/calendar/). `calendar_event_stamps` holds when each event's
 * current version was written (the feed's LAST-MODIFIED and DTSTAMP; special_events has no such
 * column): the calendar module writes it in the events' own transactions, and here every event
 * that exists already is stamped with the time of the upgrade. `calendar_tokens` holds the feed
 * tokens as SHA-256 hashes only, looked up by hash (unique).
 */
export class Calendar1764300000000 implements MigrationInterface {
  name = 'Calendar1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "calendar_event_stamps" (
        "event_id" varchar(36) NOT NULL,
        "modified_at" bigint NOT NULL,
        PRIMARY KEY ("event_id")
      ) WITHOUT ROWID`);
    await queryRunner.query(`
      CREATE TABLE "calendar_tokens" (
        "token_id" varchar(36) NOT NULL,
        "token_hash" char(64) NOT NULL,
        "description" varchar(200) NOT NULL,
        "created_at" bigint NOT NULL,
        PRIMARY KEY ("token_id"),
        CONSTRAINT "calendar_tokens_token_hash" UNIQUE ("token_hash")
      ) WITHOUT ROWID`);
    await queryRunner.query(
      'INSERT INTO "calendar_event_stamps" ("event_id", "modified_at") SELECT "event_id", ? FROM "special_events"',
      [Date.now()],
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "calendar_tokens"');
    await queryRunner.query('DROP TABLE "calendar_event_stamps"');
  }
}
