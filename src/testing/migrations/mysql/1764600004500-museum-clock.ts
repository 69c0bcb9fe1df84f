import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Test mode's museum clock, shared by every instance on the database: no row, the real clock; one
 * row (id 1), the museum's `now_ms` at the real instant `set_at`, frozen there or running on. The
 * table exists whether test mode is on or not, so that the migration history is one.
 */
export class MuseumClock1764600004500 implements MigrationInterface {
  name = 'MuseumClock1764600004500';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE \`museum_clock\` (
        \`id\` integer NOT NULL,
        \`now_ms\` bigint NOT NULL,
        \`frozen\` smallint NOT NULL,
        \`set_at\` bigint NOT NULL,
        PRIMARY KEY (\`id\`)
      ) ENGINE=InnoDB`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE `museum_clock`');
  }
}
