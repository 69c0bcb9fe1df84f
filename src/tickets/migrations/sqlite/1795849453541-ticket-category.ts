import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A ticket's price category (`category`, the event's or general admission's, as named when it was
 * bought); NULL for a ticket bought with none, which every existing ticket is. What it was sold at
 * is already kept (`price_paid`). A nullable column added in place (no rebuild of the table).
 */
export class TicketCategory1795849453541 implements MigrationInterface {
  name = 'TicketCategory1795849453541';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "tickets" ADD COLUMN "category" varchar(40)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "tickets" DROP COLUMN "category"`);
  }
}
