import type { MigrationInterface, QueryRunner } from 'typeorm';
import { indexedDates, sortDateOf } from '../frozen-event-dates.js';

/** Events read per step of the backfill: bounded memory on a database of any size. */
const BACKFILL_CHUNK = 1000;

/**
 * For list, get and update (issue 16): each event's ISO dates in their own table, keyed
 * (event_date, event_id), so that a date-range list walks an index in order; the event's earliest
 * ISO date for the unfiltered order; and a version for ETags and conditional updates. Existing
 * events are backfilled in place. ASCII with binary collation, like event_id: dates compare
 * byte by byte, so `~` sorts after every date as on SQLite. InnoDB with a primary key (Galera).
 */
export class EventDatesAndVersion1764000000000 implements MigrationInterface {
  name = 'EventDatesAndVersion1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE \`special_events\`
        ADD COLUMN \`version\` bigint NOT NULL DEFAULT 1,
        ADD COLUMN \`sort_date\` varchar(10) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT '~'`);
    await queryRunner.query(`
      CREATE TABLE \`special_event_dates\` (
        \`event_date\` varchar(10) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        \`event_id\` varchar(36) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        PRIMARY KEY (\`event_date\`, \`event_id\`),
        INDEX \`IDX_special_event_dates_event\` (\`event_id\`, \`event_date\`)
      ) ENGINE=InnoDB DEFAULT CHARSET=ascii COLLATE=ascii_bin`);
    await backfill(queryRunner);
    await queryRunner.query('CREATE INDEX `IDX_special_events_sort` ON `special_events` (`sort_date`, `event_id`)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE `special_event_dates`');
    await queryRunner.query(
      'ALTER TABLE `special_events` DROP INDEX `IDX_special_events_sort`, DROP COLUMN `sort_date`, DROP COLUMN `version`',
    );
  }
}

async function backfill(queryRunner: QueryRunner): Promise<void> {
  let after = '';
  for (;;) {
    const rows = (await queryRunner.query(
      `SELECT \`event_id\`, \`dates\` FROM \`special_events\` WHERE \`event_id\` > ? ORDER BY \`event_id\` LIMIT ${BACKFILL_CHUNK}`,
      [after],
    )) as { event_id: string; dates: string | string[] }[];
    for (const row of rows) {
      // MariaDB's JSON is text; MySQL 8 hands back the parsed value.
      const dates = indexedDates(typeof row.dates === 'string' ? (JSON.parse(row.dates) as string[]) : row.dates);
      await queryRunner.query('UPDATE `special_events` SET `sort_date` = ? WHERE `event_id` = ?', [
        sortDateOf(dates),
        row.event_id,
      ]);
      if (dates.length > 0) {
        await queryRunner.query(
          `INSERT INTO \`special_event_dates\` (\`event_date\`, \`event_id\`) VALUES ${dates.map(() => '(?, ?)').join(', ')}`,
          dates.flatMap((date) => [date, row.event_id]),
        );
      }
    }
    if (rows.length < BACKFILL_CHUNK) return;
    after = rows[rows.length - 1].event_id;
  }
}
