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

/**
 * Each date's admissions row carries its ISO weekday and a copy of the hours the date has (its
 * exception's, else its weekday's): whether it is open, its opening and closing as minutes after
 * midnight, its capacity and its slot grid. A slotted sale on MySQL then reads only the two rows it
 * writes (the date's and the slot's) while it holds them, instead of joining the hours' rows under
 * the date's lock. `museum_hours_revision` is one row every change of the hours, and every
 * admissions row made, writes first in its transaction: one lock order, and on Galera a
 * certification conflict between any two of them, so no copy is made from hours being changed.
 * Existing rows get their weekday and their copy here.
 */
export class HoursOnAdmissions1795849500000 implements MigrationInterface {
  name = 'HoursOnAdmissions1795849500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE `museum_general_admissions` ADD COLUMN `weekday` smallint NOT NULL DEFAULT 0, ' +
        'ADD COLUMN `hours_open` smallint NOT NULL DEFAULT 0, ADD COLUMN `hours_opens_at` smallint NULL, ' +
        'ADD COLUMN `hours_closes_at` smallint NULL, ADD COLUMN `hours_capacity` int NULL, ' +
        'ADD COLUMN `hours_slot_minutes` smallint NULL, ADD COLUMN `hours_slot_capacity` int NULL',
    );
    await queryRunner.query(`
      CREATE TABLE \`museum_hours_revision\` (
        \`id\` smallint NOT NULL,
        \`revision\` bigint NOT NULL,
        PRIMARY KEY (\`id\`)
      ) ENGINE=InnoDB DEFAULT CHARSET=ascii COLLATE=ascii_bin`);
    await queryRunner.query('INSERT INTO `museum_hours_revision` (`id`, `revision`) VALUES (1, 0)');
    await queryRunner.query('UPDATE `museum_general_admissions` SET `weekday` = WEEKDAY(`day`) + 1');
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
    await queryRunner.query('DROP TABLE `museum_hours_revision`');
    await queryRunner.query(
      'ALTER TABLE `museum_general_admissions` DROP COLUMN `hours_slot_capacity`, DROP COLUMN `hours_slot_minutes`, ' +
        'DROP COLUMN `hours_capacity`, DROP COLUMN `hours_closes_at`, DROP COLUMN `hours_opens_at`, ' +
        'DROP COLUMN `hours_open`, DROP COLUMN `weekday`',
    );
  }
}
