import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Seats per session: a row per session of each event (a date item `YYYY-MM-DDTHH:MM`), whose
 * tickets_sold a session's sale takes its seat from, so that capacityPerDate bounds each session
 * by itself. Existing events get a row, 0 sold, for each item in the session form: tickets sold
 * before have no time and stay counted on their date's row. An item of that form that names no
 * real date or time gets a row no sale reads; the event's next update of its dates removes it.
 */
export class EventSessions1795849324199 implements MigrationInterface {
  name = 'EventSessions1795849324199';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`special_event_sessions\` (\`event_id\` varchar(36) NOT NULL, \`session\` varchar(16) NOT NULL, \`tickets_sold\` int NOT NULL DEFAULT '0', PRIMARY KEY (\`event_id\`, \`session\`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    );
    await queryRunner.query(
      'INSERT INTO `special_event_sessions` (`event_id`, `session`) SELECT DISTINCT e.event_id, j.item FROM `special_events` e, ' +
        "JSON_TABLE(e.dates, '$[*]' COLUMNS (item varchar(500) PATH '$')) j " +
        "WHERE j.item REGEXP '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}$'",
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE \`special_event_sessions\``);
  }
}
