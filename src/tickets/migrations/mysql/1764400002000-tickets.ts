import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tickets (issue 28). A ticket names its event without a foreign key (the tickets module never
 * touches special-events' tables); the event index finds the tickets an event's delete cancels,
 * and the unique index on the confirmation code is what a door scanner looks a ticket up by.
 */
export class Tickets1764400002000 implements MigrationInterface {
  name = 'Tickets1764400002000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE \`tickets\` (
        \`ticket_id\` varchar(36) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        \`ticket_type\` varchar(7) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        \`ticket_date\` varchar(10) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        \`event_id\` varchar(36) CHARACTER SET ascii COLLATE ascii_bin NULL,
        \`email\` varchar(254) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL,
        \`price_paid\` double NOT NULL,
        \`confirmation_code\` varchar(40) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        \`status\` varchar(10) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT 'active',
        \`created_at\` bigint NOT NULL,
        \`checked_in_at\` bigint NULL,
        \`cancelled_at\` bigint NULL,
        PRIMARY KEY (\`ticket_id\`),
        UNIQUE KEY \`IDX_tickets_confirmation_code\` (\`confirmation_code\`),
        KEY \`IDX_tickets_event\` (\`event_id\`)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE `tickets`');
  }
}
