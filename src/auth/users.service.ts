import { Injectable, Optional } from '@nestjs/common';
import { CredentialsEpoch } from './credentials-epoch.js';
import { describePasswordProblem, describeUsernameProblem, normalizeUsername } from './user.rules.js';
import { isUniqueViolation } from '../database/database-errors.js';
import { CredentialCache } from './credential-cache.js';
import { PasswordHasher } from './password-hasher.js';
import { isRole, type Role, ROLES } from './roles.js';
import type { User } from './user.entity.js';
import { UsersRepository } from './users.repository.js';

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
  readonly role: Role;
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
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
    @Optional() private readonly cache?: CredentialCache,
    @Optional() private readonly epoch?: CredentialsEpoch,
  ) {}

  /**
   * The user with this name, in its normalized form (NFC). The database compares exactly too (no trailing-space padding
   * on MySQL since ExactTextComparisons1764200000000); checking here as well keeps a login exact on
   * a database whose collation was changed by hand.
   */
  async find(presented: string): Promise<User | null> {
    // Any spelling of a name finds its NFC form; a name no user could have never matches a row
    // stored before the rules refused it (a look-alike with U+200B in it).
    const username = normalizeUsername(presented);
    if (describeUsernameProblem(username) !== null) return null;
    const user = await this.users.find(username);
    return user !== null && user.username === username ? user : null;
  }

  count(): Promise<number> {
    return this.users.count();
  }

  async list(): Promise<UserSummary[]> {
    const users = await this.users.list();
    return users.map(({ username, role, createdAt, updatedAt }) => ({
      username,
      role,
      createdAt: new Date(createdAt),
      updatedAt: new Date(updatedAt),
    }));
  }

  /** Adds a user; an editor unless told otherwise, as every user was before roles existed. */
  async add(name: string, password: string, role: Role = 'editor'): Promise<void> {
    const username = normalizeUsername(name);
    this.check(username, password);
    checkRole(role);
    const now = Date.now();
    const passwordHash = await this.hasher.hash(password);
    try {
      await this.users.insert({ username, passwordHash, role, createdAt: now, updatedAt: now });
    } catch (error) {
      if (isUniqueViolation(error)) throw new UserManagementError(`User "${username}" already exists.`, 'exists');
      throw error;
    }
    await this.changed(username);
  }

  async setPassword(name: string, password: string): Promise<void> {
    const username = normalizeUsername(name);
    this.check(username, password);
    const passwordHash = await this.hasher.hash(password);
    const updated = await this.users.setPassword(username, passwordHash, Date.now());
    await this.changed(username);
    if (!updated) throw new UserManagementError(`No user "${username}".`, 'not-found');
  }

  /**
   * Stores `renewed` (the same password hashed with the current parameters) in place of
   * `current`, unless the password changed meanwhile. The credential cache is left alone: the
   * password it verified is the same. Returns whether the hash was replaced.
   */
  async replaceHash(username: string, current: string, renewed: string): Promise<boolean> {
    return this.users.replaceHash(username, current, renewed);
  }

  /** Takes effect at once in this process, on other instances within a second (CredentialsEpoch). */
  async setRole(name: string, role: Role): Promise<void> {
    const username = normalizeUsername(name);
    checkRole(role);
    const updated = await this.users.setRole(username, role, Date.now());
    await this.changed(username);
    if (!updated) throw new UserManagementError(`No user "${username}".`, 'not-found');
  }

  /**
   * Removes the user stored under exactly `name` if there is one, else under its NFC form: a name
   * stored before names were normalized (a look-alike, or an NFD spelling whose NFC form was
   * taken) cannot log in, and is removed by its exact spelling.
   */
  async remove(name: string): Promise<void> {
    const exact = await this.users.find(name);
    const username = exact !== null && exact.username === name ? name : normalizeUsername(name);
    const removed = await this.users.delete(username);
    await this.changed(username);
    if (!removed) throw new UserManagementError(`No user "${username}".`, 'not-found');
  }

  /**
   * After a change to `username`: this process forgets what it cached about that user at once,
   * and the credentials epoch tells every other instance (and this one) within a second.
   */
  private async changed(username: string): Promise<void> {
    this.cache?.invalidateUser(username);
    if (this.epoch) await this.epoch.bump();
    else await this.users.bumpEpoch();
  }

  /**
   * Makes `username` exist with `password` as an admin (the bootstrap user must be able to do
   * everything). Idempotent: when the stored hash already matches and the user is an admin,
   * nothing is written, so restarting with the same ADMIN_PASSWORD changes nothing.
   * Returns whether anything changed.
   */
  async ensure(name: string, password: string): Promise<boolean> {
    const username = normalizeUsername(name);
    this.check(username, password);
    const existing = await this.find(username);
    if (existing) {
      let changed = false;
      if (
        this.hasher.needsRehash(existing.passwordHash) ||
        !(await this.hasher.verify(password, existing.passwordHash))
      ) {
        await this.setPassword(username, password);
        changed = true;
      }
      if (existing.role !== 'admin') {
        await this.setRole(username, 'admin');
        changed = true;
      }
      return changed;
    }
    try {
      await this.add(username, password, 'admin');
    } catch (error) {
      // Another instance starting at the same moment created it first: set ours.
      if (error instanceof UserManagementError && error.reason === 'exists') {
        await this.setPassword(username, password);
        await this.setRole(username, 'admin');
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

function checkRole(role: string): void {
  if (!isRole(role)) throw new UserManagementError(`The role must be one of: ${ROLES.join(', ')}.`, 'invalid');
}
