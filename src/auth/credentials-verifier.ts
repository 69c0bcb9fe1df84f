import { Injectable } from '@nestjs/common';
import { AuthMetrics } from './auth.metrics.js';
import type { BasicCredentials } from './basic-credentials.js';
import { type CachedIdentity, CredentialCache, type Verdict } from './credential-cache.js';
import { PasswordHasher } from './password-hasher.js';
import { UsersService } from './users.service.js';

/** Checks Basic credentials against the stored users, through the credential cache. */
@Injectable()
export class CredentialsVerifier {
  constructor(
    private readonly users: UsersService,
    private readonly hasher: PasswordHasher,
    private readonly cache: CredentialCache,
    private readonly metrics: AuthMetrics,
  ) {}

  /**
   * The cached verdict for an Authorization header, without any work beyond one keyed hash: the
   * user, null when these exact credentials were refused, or undefined when they must be checked.
   */
  cached(authorizationHeader: string): CachedIdentity | undefined {
    return this.cache.peek(this.cache.keyOf(authorizationHeader));
  }

  /** The user the credentials belong to, or null. Rejects only when the database fails. */
  verify(authorizationHeader: string, credentials: BasicCredentials): Promise<CachedIdentity> {
    return this.cache.resolve(this.cache.keyOf(authorizationHeader), credentials.username, (expired) =>
      this.check(credentials, expired),
    );
  }

  /**
   * Reads the user; hashes the password only when there is no earlier verdict for these exact
   * credentials decided against what is stored now (the same password hash, or still no such
   * user). A password changed or a user removed elsewhere changes the stored hash, so those
   * credentials are checked again, against the new state. The role is always the one just read,
   * so a role changed elsewhere is in force once the cached verdict expires, without a new hash.
   */
  private async check({ username, password }: BasicCredentials, expired: Verdict | undefined): Promise<Verdict> {
    const user = await this.users.find(username);
    const basis = user ? this.cache.fingerprint(user.passwordHash) : null;
    if (expired !== undefined && expired.basis === basis) {
      return { identity: expired.identity && user ? { username: user.username, role: user.role } : null, basis };
    }
    this.metrics.recordPasswordCheck();
    if (!user) return this.hasher.verifyUnknownUser(password).then(() => ({ identity: null, basis }));
    const valid = await this.hasher.verify(password, user.passwordHash);
    return { identity: valid ? { username: user.username, role: user.role } : null, basis };
  }
}
