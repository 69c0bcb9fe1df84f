import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A `HH:MM` column as minutes after midnight. */
const minutes = (column: string): string => `(SUBSTR(${column}, 1, 2) * 60 + SUBSTR(${column}, 4, 2))`;
const EXCEPTION = 'museum_hours_exceptions e WHERE e.day = museum_general_admissions.day';
const WEEKDAY = 'museum_weekly_hours w WHERE w.weekday = museum_general_admissions.weekday';

/** The SET list that copies the hours of `from` (alias `alias`) onto an admissions row. */
const copy = (from: string, alias: 'e' | 'w', open: string): string =>
  [
    `hours_open = ${open}`,
    `hours_opens_at = (SELECT ${minutes(`${alias}.time_open`)} FROM ${from})`,
    `hours_closes_at = (SELECT ${minutes(`${alias}.time_close`)} FROM ${from})`,
    `hours_capacity = (SELECT ${alias}.capacity FROM ${from})`,
    `hours_slot_minutes = (SELECT ${alias}.slot_minutes FROM ${from})`,
    `hours_slot_capacity = (SELECT ${alias}.slot_capacity FROM ${from})`,
  ].join(', ');

/** The columns added to museum_general_admissions, in order, with their types. */
const COLUMNS = [
  ['weekday', 'smallint NOT NULL DEFAULT 0'],
  ['hours_open', 'smallint NOT NULL DEFAULT 0'],
  ['hours_opens_at', 'smallint'],
  ['hours_closes_at', 'smallint'],
  ['hours_capacity', 'integer'],
  ['hours_slot_minutes', 'smallint'],
  ['hours_slot_capacity', 'integer'],
] as const;

/**
 * Each date's admissions row carries its ISO weekday and a copy of the hours the date has (its
 * exception's, else its weekday's), as on MySQL, whose slotted sale reads them there; the schema is
 * the same on both. `museum_hours_revision` is one row every change of the hours, and every
 * admissions row made, writes first in its transaction. Existing rows get their weekday and their
 * copy here.
 */
export class HoursOnAdmissions1795849500000 implements MigrationInterface {
  name = 'HoursOnAdmissions1795849500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const [column, type] of COLUMNS) {
      await queryRunner.query(`ALTER TABLE "museum_general_admissions" ADD COLUMN "${column}" ${type}`);
    }
    await queryRunner.query(`
      CREATE TABLE "museum_hours_revision" (
        "id" smallint NOT NULL,
        "revision" bigint NOT NULL,
        PRIMARY KEY ("id")
      )`);
    await queryRunner.query('INSERT INTO "museum_hours_revision" ("id", "revision") VALUES (1, 0)');
    // strftime's %w counts from Sunday (0); ISO weekdays from Monday (1) to Sunday (7).
    await queryRunner.query(
      `UPDATE "museum_general_admissions" SET "weekday" = (CAST(strftime('%w', "day") AS INTEGER) + 6) % 7 + 1`,
    );
    await queryRunner.query(
      `UPDATE museum_general_admissions SET ${copy(WEEKDAY, 'w', `EXISTS (SELECT 1 FROM ${WEEKDAY})`)} ` +
        `WHERE NOT EXISTS (SELECT 1 FROM ${EXCEPTION})`,
    );
    await queryRunner.query(
      `UPDATE museum_general_admissions SET ${copy(EXCEPTION, 'e', `EXISTS (SELECT 1 FROM ${EXCEPTION} AND e.closed = 0)`)} ` +
        `WHERE EXISTS (SELECT 1 FROM ${EXCEPTION})`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "museum_hours_revision"');
    for (const [column] of [...COLUMNS].reverse()) {
      await queryRunner.query(`ALTER TABLE "museum_general_admissions" DROP COLUMN "${column}"`);
    }
  }
}
