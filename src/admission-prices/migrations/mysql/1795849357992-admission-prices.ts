import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * General admission's price categories, as admission-price.entity.ts describes them (utf8mb4,
 * binary collation: categories compare exactly, letter case included).
 */
export class AdmissionPrices1795849357992 implements MigrationInterface {
  name = 'AdmissionPrices1795849357992';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE \`admission_prices\` (
        \`category\` varchar(40) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
        \`price\` double NOT NULL,
        \`position\` int NOT NULL,
        PRIMARY KEY (\`category\`)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE `admission_prices`');
  }
}
