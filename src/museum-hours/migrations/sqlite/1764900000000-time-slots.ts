import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * General admission by time slot: a day's hours (the week's and an exception's) may carry a slot
 * grid (`slot_minutes`, `slot_capacity`, both NULL: no slots), and `museum_slot_admissions` counts
 * the general tickets sold per date and slot start: the row a slotted sale updates, conditionally,
 * after the date's row of `museum_general_admissions`, in the same transaction. Existing days get
 * no slots.
 */
export class TimeSlots1764900000000 implements MigrationInterface {
  name = 'TimeSlots1764900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "museum_weekly_hours" ADD COLUMN "slot_minutes" smallint');
    await queryRunner.query('ALTER TABLE "museum_weekly_hours" ADD COLUMN "slot_capacity" integer');
    await queryRunner.query('ALTER TABLE "museum_hours_exceptions" ADD COLUMN "slot_minutes" smallint');
    await queryRunner.query('ALTER TABLE "museum_hours_exceptions" ADD COLUMN "slot_capacity" integer');
    await queryRunner.query(`
      CREATE TABLE "museum_slot_admissions" (
        "day" char(10) NOT NULL,
        "slot_time" char(5) NOT NULL,
        "sold" integer NOT NULL,
        PRIMARY KEY ("day", "slot_time")
      ) WITHOUT ROWID`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "museum_slot_admissions"');
    await queryRunner.query('ALTER TABLE "museum_hours_exceptions" DROP COLUMN "slot_capacity"');
    await queryRunner.query('ALTER TABLE "museum_hours_exceptions" DROP COLUMN "slot_minutes"');
    await queryRunner.query('ALTER TABLE "museum_weekly_hours" DROP COLUMN "slot_capacity"');
    await queryRunner.query('ALTER TABLE "museum_weekly_hours" DROP COLUMN "slot_minutes"');
  }
}
