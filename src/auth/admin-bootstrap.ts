import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { AppConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/config.module.js';
import { UserManagementError, UsersService } from './users.service.js';

export const GENERATED_ADMIN = 'admin';

/**
 * At start: ADMIN_USERNAME + ADMIN_PASSWORD create or update that user. With neither set and no
 * users at all, creates `admin` with a random password and prints it once, to the terminal and
 * never to the log. When several instances start at once, only the one whose insert wins prints.
 */
@Injectable()
export class AdminBootstrap implements OnApplicationBootstrap {
  private readonly logger = new Logger(AdminBootstrap.name);

  constructor(
    private readonly users: UsersService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const admin = this.config.admin;
    if (admin) {
      const changed = await this.users.ensure(admin.username, admin.password);
      this.logger.log(`User "${admin.username}" from ADMIN_USERNAME ${changed ? 'created or updated' : 'is up to date'}.`);
      return;
    }
    if ((await this.users.count()) > 0) return;

    const password = randomBytes(18).toString('base64url');
    try {
      await this.users.add(GENERATED_ADMIN, password);
    } catch (error) {
      if (error instanceof UserManagementError && error.reason === 'exists') return;
      throw error;
    }
    process.stdout.write(
      [
        '',
        '================================================================',
        '  No users existed, so one was created. This is shown only once:',
        `    user:     ${GENERATED_ADMIN}`,
        `    password: ${password}`,
        '  Change it with: npm run users -- passwd admin',
        '================================================================',
        '',
        '',
      ].join('\n'),
    );
  }
}
