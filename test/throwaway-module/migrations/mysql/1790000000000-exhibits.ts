import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The exhibits module's table: one row per exhibit (utf8mb4, binary collation, as every table). */
export class Exhibits1790000000000 implements MigrationInterface {
  name = 'Exhibits1790000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE \`exhibits\` (
        \`exhibit_id\` varchar(100) NOT NULL,
        \`title\` varchar(400) NOT NULL,
        \`room\` int NOT NULL,
        PRIMARY KEY (\`exhibit_id\`)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE `exhibits`');
  }
}
