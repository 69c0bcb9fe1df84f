import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Special events and users. WITHOUT ROWID: both tables are looked up by their text key only. */
export class InitialSchema1763800000000 implements MigrationInterface {
  name = 'InitialSchema1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "special_events" (
        "event_id" varchar(36) PRIMARY KEY NOT NULL,
        "name" varchar(200) NOT NULL,
        "location" varchar(200) NOT NULL,
        "event_description" varchar(5000) NOT NULL,
        "dates" json NOT NULL,
        "price" double NOT NULL
      ) WITHOUT ROWID`);
    await queryRunner.query(`
      CREATE TABLE "users" (
        "username" varchar(64) PRIMARY KEY NOT NULL,
        "password_hash" varchar(255) NOT NULL,
        "created_at" bigint NOT NULL,
        "updated_at" bigint NOT NULL
      ) WITHOUT ROWID`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "users"`);
    await queryRunner.query(`DROP TABLE "special_events"`);
  }
}
