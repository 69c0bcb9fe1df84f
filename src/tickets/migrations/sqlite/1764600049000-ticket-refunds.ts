import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a cancelled ticket's buyer is owed (`refund_due`, null while a ticket is not cancelled),
 * and the indexes a ticket search and its CSV export walk by (a date, an address, a status, each
 * in ticket_id order). Tickets cancelled before (their event deleted) are owed what was paid
 * unless they had been checked in.
 */
export class TicketRefunds1764600049000 implements MigrationInterface {
  name = 'TicketRefunds1764600049000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "tickets" ADD COLUMN "refund_due" double');
    await queryRunner.query(
      `UPDATE "tickets" SET "refund_due" = CASE WHEN "checked_in_at" IS NULL THEN "price_paid" ELSE 0 END WHERE "status" = 'cancelled'`,
    );
    await queryRunner.query('CREATE INDEX "IDX_tickets_date" ON "tickets" ("ticket_date")');
    await queryRunner.query('CREATE INDEX "IDX_tickets_email" ON "tickets" ("email")');
    await queryRunner.query('CREATE INDEX "IDX_tickets_status" ON "tickets" ("status")');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_tickets_status"');
    await queryRunner.query('DROP INDEX "IDX_tickets_email"');
    await queryRunner.query('DROP INDEX "IDX_tickets_date"');
    await queryRunner.query('ALTER TABLE "tickets" DROP COLUMN "refund_due"');
  }
}
