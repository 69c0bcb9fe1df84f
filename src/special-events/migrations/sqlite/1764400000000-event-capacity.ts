import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A special event's optional `capacity` (null: no limit) and the count of tickets sold, kept in
 * special_events itself so that one conditional UPDATE decides a sale against the capacity, and an
 * update that lowers the capacity against the sales. Existing events get no capacity and 0 sold.
 */
export class EventCapacity1764400000000 implements MigrationInterface {
  name = 'EventCapacity1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "special_events" ADD COLUMN "capacity" integer`);
    await queryRunner.query(`ALTER TABLE "special_events" ADD COLUMN "tickets_sold" integer NOT NULL DEFAULT (0)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "special_events" DROP COLUMN "tickets_sold"`);
    await queryRunner.query(`ALTER TABLE "special_events" DROP COLUMN "capacity"`);
  }
}
