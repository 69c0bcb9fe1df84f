import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The {{plural}} module's table, as {{singular}}.entity.ts describes it. */
export class {{Plural}}{{timestamp}} implements MigrationInterface {
  name = '{{Plural}}{{timestamp}}';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "{{table}}" (
        "{{singular_snake}}_id" varchar(36) PRIMARY KEY NOT NULL,
        "name" varchar(200) NOT NULL,
        "updated_at" bigint NOT NULL
      ) WITHOUT ROWID`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "{{table}}"');
  }
}
