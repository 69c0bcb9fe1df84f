import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The {{plural}} module's table, as {{singular}}.entity.ts describes it (utf8mb4, binary collation). */
export class {{Plural}}{{timestamp}} implements MigrationInterface {
  name = '{{Plural}}{{timestamp}}';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE \`{{table}}\` (
        \`{{singular_snake}}_id\` varchar(36) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        \`name\` varchar(200) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
        \`updated_at\` bigint NOT NULL,
        PRIMARY KEY (\`{{singular_snake}}_id\`)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE `{{table}}`');
  }
}
