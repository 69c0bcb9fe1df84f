import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The orders module's table, as order.entity.ts describes it. */
export class Orders1795849317266 implements MigrationInterface {
  name = 'Orders1795849317266';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "orders" (
        "order_id" varchar(36) PRIMARY KEY NOT NULL,
        "email" varchar(254) NOT NULL,
        "total" double NOT NULL,
        "created_at" bigint NOT NULL
      ) WITHOUT ROWID`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "orders"');
  }
}
