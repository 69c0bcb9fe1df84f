import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The exhibits module's table: one row per exhibit. */
export class Exhibits1790000000000 implements MigrationInterface {
  name = 'Exhibits1790000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "exhibits" (
        "exhibit_id" varchar(100) NOT NULL,
        "title" varchar(400) NOT NULL,
        "room" integer NOT NULL,
        PRIMARY KEY ("exhibit_id")
      ) WITHOUT ROWID`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "exhibits"`);
  }
}
