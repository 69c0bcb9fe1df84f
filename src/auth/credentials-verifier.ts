import { Injectable } from '@nestjs/common';
import { AuthMetrics } from '../metrics/auth.metrics.js';
import type { BasicCredentials } from './basic-credentials.js';
import { type CachedIdentity, CredentialCache } from './credential-cache.js';
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
   * The cached verdict for an Authorization header, without any work beyond one keyed hash: the user,
   * null when these exact credentials were refused, or undefined when they must be checked.
   */
  cached(authorizationHeader: string): CachedIdentity | undefined {
    return this.cache.peek(this.cache.keyOf(authorizationHeader));
  }

  /** The user the credentials belong to, or null. Rejects only when the database fails. */
  verify(authorizationHeader: string, credentials: BasicCredentials): Promise<CachedIdentity> {
    return this.cache.resolve(this.cache.keyOf(authorizationHeader), credentials.username, () =>
      this.check(credentials),
    );
  }

  private async check({ username, password }: BasicCredentials): Promise<CachedIdentity> {
    this.metrics.recordPasswordCheck();
    const user = await this.users.find(username);
    if (!user) return this.hasher.verifyUnknownUser(password).then(() => null);
    return (await this.hasher.verify(password, user.passwordHash)) ? { username: user.username } : null;
  }
}
