import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The orders module's table, as order.entity.ts describes it (utf8mb4, binary collation). */
export class Orders1795849317266 implements MigrationInterface {
  name = 'Orders1795849317266';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE \`orders\` (
        \`order_id\` varchar(36) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        \`email\` varchar(254) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
        \`total\` double NOT NULL,
        \`created_at\` bigint NOT NULL,
        PRIMARY KEY (\`order_id\`)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE `orders`');
  }
}
