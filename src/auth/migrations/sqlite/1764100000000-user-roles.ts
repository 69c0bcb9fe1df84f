import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Users get a role; existing users become editors, so no one loses access on upgrade. */
export class UserRoles1764100000000 implements MigrationInterface {
  name = 'UserRoles1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" ADD COLUMN "role" varchar(16) NOT NULL DEFAULT 'editor'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "role"`);
  }
}
