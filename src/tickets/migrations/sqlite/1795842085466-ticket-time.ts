import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A ticket's time (`ticket_time`, `HH:MM`): the slot of a general ticket on a day with time slots,
 * or the session of an event ticket; NULL for a ticket of the whole day, which every existing
 * ticket is. A nullable column added in place (no rebuild of the table).
 */
export class TicketTime1795842085466 implements MigrationInterface {
  name = 'TicketTime1795842085466';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "tickets" ADD COLUMN "ticket_time" varchar(5)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "tickets" DROP COLUMN "ticket_time"`);
  }
}
