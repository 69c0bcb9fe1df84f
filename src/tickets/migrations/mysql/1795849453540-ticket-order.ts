import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The order a ticket was sold in (orders module): an ascii id compared byte by byte, as event_id. */
export class TicketOrder1795849453540 implements MigrationInterface {
  name = 'TicketOrder1795849453540';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE \`tickets\` ADD \`order_id\` varchar(36) CHARACTER SET ascii COLLATE ascii_bin NULL`,
    );
    await queryRunner.query(`CREATE INDEX \`IDX_tickets_order\` ON \`tickets\` (\`order_id\`)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX \`IDX_tickets_order\` ON \`tickets\``);
    await queryRunner.query(`ALTER TABLE \`tickets\` DROP COLUMN \`order_id\``);
  }
}
