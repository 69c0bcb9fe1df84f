import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { type AppConfig, ConfigError } from '../config/app-config.js';
import { InjectConfig } from '../config/config.module.js';
import { describePasswordProblem, describeUsernameProblem } from './user.rules.js';
import { UserManagementError, UsersService } from './users.service.js';

export const GENERATED_ADMIN = 'admin';

/**
 * ADMIN_USERNAME and ADMIN_PASSWORD against the users' own rules, with a ConfigError naming the
 * variable: serve.ts calls it right after loadConfig, so that a bad value stops the process before
 * anything starts, as every other invalid variable does.
 */
export function checkAdminConfig(admin: AppConfig['admin']): void {
  if (admin === null) return;
  const usernameProblem = describeUsernameProblem(admin.username);
  if (usernameProblem) throw new ConfigError('ADMIN_USERNAME', usernameProblem);
  const passwordProblem = describePasswordProblem(admin.password);
  if (passwordProblem) throw new ConfigError('ADMIN_PASSWORD', passwordProblem);
}

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
      this.logger.log(
        `User "${admin.username}" from ADMIN_USERNAME ${changed ? 'created or updated' : 'is up to date'}.`,
      );
      return;
    }
    if ((await this.users.count()) > 0) return;

    const password = randomBytes(18).toString('base64url');
    try {
      await this.users.add(GENERATED_ADMIN, password, 'admin');
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
