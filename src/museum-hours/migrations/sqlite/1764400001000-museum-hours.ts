import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The museum-hours module's own tables (src/museum-hours/). `museum_weekly_hours` holds one row per
 * open weekday (ISO numbering, 1 = Monday; no row: closed), `museum_hours_exceptions` one row per
 * date that differs from the week (`closed` 1, or its own hours), and `museum_general_admissions`
 * the general-admission tickets sold per date: the one row a sale updates, conditionally, so that
 * the database decides the capacity (a capacity change of a date writes it too, and so waits for
 * the sales of that date, or makes them wait). Nothing exists before: an upgrade only adds them,
 * and a museum without a week is closed every day.
 */
export class MuseumHours1764400001000 implements MigrationInterface {
  name = 'MuseumHours1764400001000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "museum_weekly_hours" (
        "weekday" smallint NOT NULL,
        "time_open" char(5) NOT NULL,
        "time_close" char(5) NOT NULL,
        "capacity" integer,
        PRIMARY KEY ("weekday")
      ) WITHOUT ROWID`);
    await queryRunner.query(`
      CREATE TABLE "museum_hours_exceptions" (
        "day" char(10) NOT NULL,
        "closed" smallint NOT NULL,
        "time_open" char(5),
        "time_close" char(5),
        "capacity" integer,
        PRIMARY KEY ("day")
      ) WITHOUT ROWID`);
    await queryRunner.query(`
      CREATE TABLE "museum_general_admissions" (
        "day" char(10) NOT NULL,
        "sold" integer NOT NULL,
        "revision" integer NOT NULL,
        PRIMARY KEY ("day")
      ) WITHOUT ROWID`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "museum_general_admissions"');
    await queryRunner.query('DROP TABLE "museum_hours_exceptions"');
    await queryRunner.query('DROP TABLE "museum_weekly_hours"');
  }
}
