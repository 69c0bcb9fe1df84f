import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One row whose `epoch` every change to the users bumps (UsersService, the users CLI). Each
 * instance reads it twice a second and, when it moved, stops trusting its credential cache
 * (src/auth/credentials-epoch.ts): a revoked user is refused everywhere within a second.
 */
export class CredentialsEpoch1764200002000 implements MigrationInterface {
  name = 'CredentialsEpoch1764200002000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "credentials_epoch" (
        "id" integer NOT NULL,
        "epoch" bigint NOT NULL,
        PRIMARY KEY ("id")
      ) WITHOUT ROWID`);
    await queryRunner.query('INSERT INTO "credentials_epoch" ("id", "epoch") VALUES (1, 0)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "credentials_epoch"');
  }
}
