import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A special event's optional `duration_minutes` (null: none): every session of the event (a date
 * item `YYYY-MM-DDTHH:MM`) ends that many minutes after it starts. Existing events get none.
 */
export class EventDuration1764700048100 implements MigrationInterface {
  name = 'EventDuration1764700048100';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "special_events" ADD COLUMN "duration_minutes" integer`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "special_events" DROP COLUMN "duration_minutes"`);
  }
}
