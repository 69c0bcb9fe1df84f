import { Injectable, Optional } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { describePasswordProblem, describeUsernameProblem } from './user.rules.js';
import { isUniqueViolation } from '../database/database-errors.js';
import { CredentialCache } from './credential-cache.js';
import { PasswordHasher } from './password-hasher.js';
import { User } from './user.entity.js';

/** A user operation that cannot be done as asked; the message is for the operator. */
export class UserManagementError extends Error {
  constructor(
    message: string,
    readonly reason: 'invalid' | 'exists' | 'not-found',
  ) {
    super(message);
    this.name = 'UserManagementError';
  }
}

export interface UserSummary {
  readonly username: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/**
 * Issues, changes and removes credentials. Used by the service (bootstrap user) and by the users
 * CLI, which builds it by hand without a credential cache: changes made there reach running
 * instances within the cache's time bound.
 */
@Injectable()
export class UsersService {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly hasher: PasswordHasher,
    @Optional() private readonly cache?: CredentialCache,
  ) {}

  find(username: string): Promise<User | null> {
    return this.users.findOneBy({ username });
  }

  count(): Promise<number> {
    return this.users.count();
  }

  async list(): Promise<UserSummary[]> {
    const users = await this.users.find({ order: { username: 'ASC' } });
    return users.map(({ username, createdAt, updatedAt }) => ({
      username,
      createdAt: new Date(createdAt),
      updatedAt: new Date(updatedAt),
    }));
  }

  async add(username: string, password: string): Promise<void> {
    this.check(username, password);
    const now = Date.now();
    const passwordHash = await this.hasher.hash(password);
    try {
      await this.users.insert({ username, passwordHash, createdAt: now, updatedAt: now });
    } catch (error) {
      if (isUniqueViolation(error)) throw new UserManagementError(`User "${username}" already exists.`, 'exists');
      throw error;
    }
    this.cache?.invalidateUser(username);
  }

  async setPassword(username: string, password: string): Promise<void> {
    this.check(username, password);
    const passwordHash = await this.hasher.hash(password);
    const result = await this.users.update({ username }, { passwordHash, updatedAt: Date.now() });
    this.cache?.invalidateUser(username);
    if (!result.affected) throw new UserManagementError(`No user "${username}".`, 'not-found');
  }

  async remove(username: string): Promise<void> {
    const result = await this.users.delete({ username });
    this.cache?.invalidateUser(username);
    if (!result.affected) throw new UserManagementError(`No user "${username}".`, 'not-found');
  }

  /**
   * Makes `username` exist with `password`. Idempotent: when the stored hash already matches,
   * nothing is written, so restarting with the same ADMIN_PASSWORD changes nothing.
   * Returns whether anything changed.
   */
  async ensure(username: string, password: string): Promise<boolean> {
    this.check(username, password);
    const existing = await this.find(username);
    if (existing) {
      if (!this.hasher.needsRehash(existing.passwordHash) && (await this.hasher.verify(password, existing.passwordHash))) {
        return false;
      }
      await this.setPassword(username, password);
      return true;
    }
    try {
      await this.add(username, password);
    } catch (error) {
      // Another instance starting at the same moment created it first: set ours.
      if (error instanceof UserManagementError && error.reason === 'exists') {
        await this.setPassword(username, password);
      } else {
        throw error;
      }
    }
    return true;
  }

  private check(username: string, password: string): void {
    const usernameProblem = describeUsernameProblem(username);
    if (usernameProblem) throw new UserManagementError(`The user name ${usernameProblem}.`, 'invalid');
    const passwordProblem = describePasswordProblem(password);
    if (passwordProblem) throw new UserManagementError(`The password ${passwordProblem}.`, 'invalid');
  }
}
