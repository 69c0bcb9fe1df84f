import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * MySQL's and MariaDB's `_bin` collations are PAD SPACE: `'victim ' = 'victim'` is true, so a
 * login as `victim ` found the user `victim` (SQLite compares exactly). The text columns that
 * credentials and idempotency keys are looked up by become NO PAD: MariaDB names that collation
 * `utf8mb4_nopad_bin`/`ascii_nopad_bin`; MySQL 8 has `utf8mb4_0900_bin` and no ASCII one, so the
 * key column becomes utf8mb4 there (its values are ASCII, checked before they get here). Event ids
 * and dates are validated to a fixed shape without spaces, so their PAD SPACE collation is harmless.
 */
export class ExactTextComparisons1764200000000 implements MigrationInterface {
  name = 'ExactTextComparisons1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const mariadb = await hasCollation(queryRunner, 'utf8mb4_nopad_bin');
    const text = mariadb
      ? 'CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin'
      : 'CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_bin';
    const ascii = mariadb ? 'CHARACTER SET ascii COLLATE ascii_nopad_bin' : text;
    await queryRunner.query(`ALTER TABLE \`users\` MODIFY \`username\` varchar(64) ${text} NOT NULL`);
    await queryRunner.query(`
      ALTER TABLE \`idempotency_keys\`
        MODIFY \`username\` varchar(64) ${text} NOT NULL,
        MODIFY \`idempotency_key\` varchar(255) ${ascii} NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE `users` MODIFY `username` varchar(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL',
    );
    await queryRunner.query(`
      ALTER TABLE \`idempotency_keys\`
        MODIFY \`username\` varchar(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
        MODIFY \`idempotency_key\` varchar(255) CHARACTER SET ascii COLLATE ascii_bin NOT NULL`);
  }
}

async function hasCollation(queryRunner: QueryRunner, name: string): Promise<boolean> {
  const rows = (await queryRunner.query('SHOW COLLATION WHERE Collation = ?', [name])) as unknown[];
  return rows.length > 0;
}
