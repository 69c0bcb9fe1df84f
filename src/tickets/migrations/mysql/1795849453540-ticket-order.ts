import type { MigrationInterface, QueryRunner } from 'typeorm';

export class TicketOrder1795849453540 implements MigrationInterface {
  name = 'TicketOrder1795849453540';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE \`tickets\` ADD \`order_id\` varchar(36) NULL`);
    await queryRunner.query(`CREATE INDEX \`IDX_tickets_order\` ON \`tickets\` (\`order_id\`)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX \`IDX_tickets_order\` ON \`tickets\``);
    await queryRunner.query(`ALTER TABLE \`tickets\` DROP COLUMN \`order_id\``);
  }
}
