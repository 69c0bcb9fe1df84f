import type { MigrationInterface, QueryRunner } from 'typeorm';

/** General admission's price categories, as admission-price.entity.ts describes them. */
export class AdmissionPrices1795849357992 implements MigrationInterface {
  name = 'AdmissionPrices1795849357992';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "admission_prices" (
        "category" varchar(40) PRIMARY KEY NOT NULL,
        "price" double NOT NULL,
        "position" integer NOT NULL
      ) WITHOUT ROWID`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "admission_prices"');
  }
}
