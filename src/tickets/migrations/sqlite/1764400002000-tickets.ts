import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tickets (issue 28). A ticket names its event without a foreign key (the tickets module never
 * touches special-events' tables); the event index finds the tickets an event's delete cancels,
 * and the unique index on the confirmation code is what a door scanner looks a ticket up by.
 */
export class Tickets1764400002000 implements MigrationInterface {
  name = 'Tickets1764400002000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "tickets" (
        "ticket_id" varchar(36) PRIMARY KEY NOT NULL,
        "ticket_type" varchar(7) NOT NULL,
        "ticket_date" varchar(10) NOT NULL,
        "event_id" varchar(36),
        "email" varchar(254),
        "price_paid" double NOT NULL,
        "confirmation_code" varchar(40) NOT NULL,
        "status" varchar(10) NOT NULL DEFAULT ('active'),
        "created_at" bigint NOT NULL,
        "checked_in_at" bigint,
        "cancelled_at" bigint
      ) WITHOUT ROWID`);
    await queryRunner.query('CREATE UNIQUE INDEX "IDX_tickets_confirmation_code" ON "tickets" ("confirmation_code")');
    await queryRunner.query('CREATE INDEX "IDX_tickets_event" ON "tickets" ("event_id")');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "tickets"');
  }
}
