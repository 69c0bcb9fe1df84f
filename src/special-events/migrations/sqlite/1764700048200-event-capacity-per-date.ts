import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Seats per date: a special event's optional `capacity_per_date` (null: no limit per date), and
 * the tickets sold of each of its dates, on the date's row of the date index, so that a sale
 * takes its date's seat with one conditional UPDATE of that row in the sale's transaction.
 * Existing events get no limit per date and 0 sold on every date.
 */
export class EventCapacityPerDate1764700048200 implements MigrationInterface {
  name = 'EventCapacityPerDate1764700048200';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "special_events" ADD COLUMN "capacity_per_date" integer`);
    await queryRunner.query(`ALTER TABLE "special_event_dates" ADD COLUMN "tickets_sold" integer NOT NULL DEFAULT (0)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "special_event_dates" DROP COLUMN "tickets_sold"`);
    await queryRunner.query(`ALTER TABLE "special_events" DROP COLUMN "capacity_per_date"`);
  }
}
