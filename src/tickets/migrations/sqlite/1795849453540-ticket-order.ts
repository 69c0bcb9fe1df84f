import type { MigrationInterface, QueryRunner } from 'typeorm';

export class TicketOrder1795849453540 implements MigrationInterface {
  name = 'TicketOrder1795849453540';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_tickets_status"`);
    await queryRunner.query(`DROP INDEX "IDX_tickets_email"`);
    await queryRunner.query(`DROP INDEX "IDX_tickets_date"`);
    await queryRunner.query(`DROP INDEX "IDX_tickets_event"`);
    await queryRunner.query(`DROP INDEX "IDX_tickets_confirmation_code"`);
    await queryRunner.query(
      `CREATE TABLE "temporary_tickets" ("ticket_id" varchar(36) PRIMARY KEY NOT NULL, "ticket_type" varchar(7) NOT NULL, "ticket_date" varchar(10) NOT NULL, "event_id" varchar(36), "email" varchar(254), "price_paid" double NOT NULL, "confirmation_code" varchar(40) NOT NULL, "status" varchar(10) NOT NULL DEFAULT ('active'), "created_at" bigint NOT NULL, "checked_in_at" bigint, "cancelled_at" bigint, "refund_due" double, "ticket_time" varchar(5), "order_id" varchar(36)) WITHOUT ROWID`,
    );
    await queryRunner.query(
      `INSERT INTO "temporary_tickets"("ticket_id", "ticket_type", "ticket_date", "event_id", "email", "price_paid", "confirmation_code", "status", "created_at", "checked_in_at", "cancelled_at", "refund_due", "ticket_time") SELECT "ticket_id", "ticket_type", "ticket_date", "event_id", "email", "price_paid", "confirmation_code", "status", "created_at", "checked_in_at", "cancelled_at", "refund_due", "ticket_time" FROM "tickets"`,
    );
    await queryRunner.query(`DROP TABLE "tickets"`);
    await queryRunner.query(`ALTER TABLE "temporary_tickets" RENAME TO "tickets"`);
    await queryRunner.query(`CREATE INDEX "IDX_tickets_status" ON "tickets" ("status") `);
    await queryRunner.query(`CREATE INDEX "IDX_tickets_email" ON "tickets" ("email") `);
    await queryRunner.query(`CREATE INDEX "IDX_tickets_date" ON "tickets" ("ticket_date") `);
    await queryRunner.query(`CREATE INDEX "IDX_tickets_event" ON "tickets" ("event_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_tickets_confirmation_code" ON "tickets" ("confirmation_code") `);
    await queryRunner.query(`CREATE INDEX "IDX_tickets_order" ON "tickets" ("order_id") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_tickets_order"`);
    await queryRunner.query(`DROP INDEX "IDX_tickets_confirmation_code"`);
    await queryRunner.query(`DROP INDEX "IDX_tickets_event"`);
    await queryRunner.query(`DROP INDEX "IDX_tickets_date"`);
    await queryRunner.query(`DROP INDEX "IDX_tickets_email"`);
    await queryRunner.query(`DROP INDEX "IDX_tickets_status"`);
    await queryRunner.query(`ALTER TABLE "tickets" RENAME TO "temporary_tickets"`);
    await queryRunner.query(
      `CREATE TABLE "tickets" ("ticket_id" varchar(36) PRIMARY KEY NOT NULL, "ticket_type" varchar(7) NOT NULL, "ticket_date" varchar(10) NOT NULL, "event_id" varchar(36), "email" varchar(254), "price_paid" double NOT NULL, "confirmation_code" varchar(40) NOT NULL, "status" varchar(10) NOT NULL DEFAULT ('active'), "created_at" bigint NOT NULL, "checked_in_at" bigint, "cancelled_at" bigint, "refund_due" double, "ticket_time" varchar(5)) WITHOUT ROWID`,
    );
    await queryRunner.query(
      `INSERT INTO "tickets"("ticket_id", "ticket_type", "ticket_date", "event_id", "email", "price_paid", "confirmation_code", "status", "created_at", "checked_in_at", "cancelled_at", "refund_due", "ticket_time") SELECT "ticket_id", "ticket_type", "ticket_date", "event_id", "email", "price_paid", "confirmation_code", "status", "created_at", "checked_in_at", "cancelled_at", "refund_due", "ticket_time" FROM "temporary_tickets"`,
    );
    await queryRunner.query(`DROP TABLE "temporary_tickets"`);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_tickets_confirmation_code" ON "tickets" ("confirmation_code") `);
    await queryRunner.query(`CREATE INDEX "IDX_tickets_event" ON "tickets" ("event_id") `);
    await queryRunner.query(`CREATE INDEX "IDX_tickets_date" ON "tickets" ("ticket_date") `);
    await queryRunner.query(`CREATE INDEX "IDX_tickets_email" ON "tickets" ("email") `);
    await queryRunner.query(`CREATE INDEX "IDX_tickets_status" ON "tickets" ("status") `);
  }
}
