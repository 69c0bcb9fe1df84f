import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * User names are stored in NFC and a login looks up the NFC form of the name sent (user.rules.ts).
 * A name stored before in another form (NFD "café") is renamed to its NFC form, so that it keeps
 * working under that form; when the NFC form is taken already, it is left as it is (it no longer
 * logs in) for the operator to remove by its exact spelling (`users remove`). Names with format or
 * control characters are left too: no login matches them any more.
 */
export class NormalizedUserNames1764500003700 implements MigrationInterface {
  name = 'NormalizedUserNames1764500003700';

  async up(queryRunner: QueryRunner): Promise<void> {
    const rows = (await queryRunner.query('SELECT username FROM users')) as { username: string }[];
    const taken = new Set(rows.map(({ username }) => username));
    for (const { username } of rows) {
      const normalized = username.normalize('NFC');
      if (normalized === username || taken.has(normalized)) continue;
      await queryRunner.query('UPDATE users SET username = ? WHERE username = ?', [normalized, username]);
      taken.add(normalized);
    }
  }

  async down(): Promise<void> {
    // Nothing to undo: an NFC name is as valid as it ever was.
  }
}
