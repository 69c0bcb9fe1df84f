import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Price categories: a special event's optional `prices`, a JSON array of {category, price}
 * (null: none; the event's `price` is then the only price). Existing events get none.
 */
export class EventPrices1795849311301 implements MigrationInterface {
  name = 'EventPrices1795849311301';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "special_events" ADD COLUMN "prices" json`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "special_events" DROP COLUMN "prices"`);
  }
}
