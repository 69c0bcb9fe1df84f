import type { MigrationInterface, QueryRunner } from 'typeorm';
import { indexedDates, sortDateOf } from '../frozen-event-dates.js';

/** Events read per step of the backfill: bounded memory on a database of any size. */
const BACKFILL_CHUNK = 1000;

/**
 * For list, get and update (issue 16): each event's ISO dates in their own table, keyed
 * (event_date, event_id), so that a date-range list walks an index in order; the event's earliest
 * ISO date for the unfiltered order; and a version for ETags and conditional updates. Existing
 * events are backfilled in place.
 */
export class EventDatesAndVersion1764000000000 implements MigrationInterface {
  name = 'EventDatesAndVersion1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "special_events" ADD COLUMN "version" bigint NOT NULL DEFAULT (1)`);
    await queryRunner.query(`ALTER TABLE "special_events" ADD COLUMN "sort_date" varchar(10) NOT NULL DEFAULT ('~')`);
    await queryRunner.query(`
      CREATE TABLE "special_event_dates" (
        "event_date" varchar(10) NOT NULL,
        "event_id" varchar(36) NOT NULL,
        PRIMARY KEY ("event_date", "event_id")
      ) WITHOUT ROWID`);
    await queryRunner.query(
      `CREATE INDEX "IDX_special_event_dates_event" ON "special_event_dates" ("event_id", "event_date")`,
    );
    await backfill(queryRunner);
    await queryRunner.query(`CREATE INDEX "IDX_special_events_sort" ON "special_events" ("sort_date", "event_id")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "IDX_special_events_sort"`);
    await queryRunner.query(`DROP TABLE "special_event_dates"`);
    await queryRunner.query(`ALTER TABLE "special_events" DROP COLUMN "sort_date"`);
    await queryRunner.query(`ALTER TABLE "special_events" DROP COLUMN "version"`);
  }
}

async function backfill(queryRunner: QueryRunner): Promise<void> {
  let after = '';
  for (;;) {
    const rows = (await queryRunner.query(
      `SELECT "event_id", "dates" FROM "special_events" WHERE "event_id" > ? ORDER BY "event_id" LIMIT ${BACKFILL_CHUNK}`,
      [after],
    )) as { event_id: string; dates: string }[];
    for (const row of rows) {
      const dates = indexedDates(JSON.parse(row.dates) as string[]);
      await queryRunner.query(`UPDATE "special_events" SET "sort_date" = ? WHERE "event_id" = ?`, [
        sortDateOf(dates),
        row.event_id,
      ]);
      for (const date of dates) {
        await queryRunner.query(`INSERT INTO "special_event_dates" ("event_date", "event_id") VALUES (?, ?)`, [
          date,
          row.event_id,
        ]);
      }
    }
    if (rows.length < BACKFILL_CHUNK) return;
    after = rows[rows.length - 1].event_id;
  }
}
