import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Special events and users, utf8mb4 on every text column whatever the database's default
 * charset, with binary collation so that comparisons are exact as on SQLite ("Alice" and
 * "alice" are two users on both databases).
 */
export class InitialSchema1763800000000 implements MigrationInterface {
  name = 'InitialSchema1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE \`special_events\` (
        \`event_id\` varchar(36) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        \`name\` varchar(200) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
        \`location\` varchar(200) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
        \`event_description\` varchar(5000) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
        \`dates\` json NOT NULL,
        \`price\` double NOT NULL,
        PRIMARY KEY (\`event_id\`)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`);
    await queryRunner.query(`
      CREATE TABLE \`users\` (
        \`username\` varchar(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
        \`password_hash\` varchar(255) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
        \`created_at\` bigint NOT NULL,
        \`updated_at\` bigint NOT NULL,
        PRIMARY KEY (\`username\`)
      ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE `users`');
    await queryRunner.query('DROP TABLE `special_events`');
  }
}
