import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AuthMetrics } from './auth.metrics.js';
import type { BasicCredentials } from './basic-credentials.js';
import { type CachedIdentity, CredentialCache, type Verdict } from './credential-cache.js';
import { HashGate } from './hash-gate.js';
import { PasswordHasher } from './password-hasher.js';
import { PresentedCredentials } from './presented-credentials.js';
import { UsersService } from './users.service.js';

/** Checks Basic credentials against the stored users, through the credential cache. */
@Injectable()
export class CredentialsVerifier {
  constructor(
    private readonly users: UsersService,
    private readonly hasher: PasswordHasher,
    private readonly cache: CredentialCache,
    private readonly metrics: AuthMetrics,
    private readonly gate: HashGate,
  ) {}

  /** The credentials `request` presents in its Authorization header, parsed and hashed once for the request. */
  present(request: Request): PresentedCredentials | null {
    return PresentedCredentials.of(request, this.cache);
  }

  /**
   * The cached verdict for presented credentials, without any work beyond their one keyed hash:
   * the user (null when these exact credentials were refused), or undefined when they must be
   * checked.
   */
  cached(presented: PresentedCredentials): CachedIdentity | undefined {
    return this.cache.peek(presented.key);
  }

  /**
   * The user the credentials belong to, or null. Rejects when the database fails, or with
   * HashGateBusyError when the password check could not start in time; `address` (the client's)
   * is whose turn in the hash gate the check takes.
   */
  verify(presented: PresentedCredentials, credentials: BasicCredentials, address: string): Promise<CachedIdentity> {
    return this.cache.resolve(presented.key, credentials.username, (expired) =>
      this.check(credentials, expired, address),
    );
  }

  /**
   * Reads the user; hashes the password only when there is no earlier verdict for these exact
   * credentials decided against what is stored now (the same password hash, or still no such
   * user). A password changed or a user removed elsewhere changes the stored hash, so those
   * credentials are checked again, against the new state. A right password whose stored hash has
   * other parameters than the current ones is hashed again with them (stored hashes carry their
   * parameters, so old ones keep working until then). The role is always the one just read, so a
   * role changed elsewhere is in force once the cached verdict expires, without a new hash.
   */
  private async check(
    { username, password }: BasicCredentials,
    expired: Verdict | undefined,
    address: string,
  ): Promise<Verdict> {
    const user = await this.users.find(username);
    const basis = user ? this.cache.fingerprint(user.passwordHash) : null;
    if (expired !== undefined && expired.basis === basis) {
      return { identity: expired.identity && user ? { username: user.username, role: user.role } : null, basis };
    }
    if (!user) {
      await this.gate.run(address, () => this.hasher.verifyUnknownUser(password));
      this.metrics.recordPasswordCheck();
      return { identity: null, basis };
    }
    const valid = await this.gate.run(address, () => this.hasher.verify(password, user.passwordHash));
    this.metrics.recordPasswordCheck();
    if (!valid) return { identity: null, basis };
    const identity = { username: user.username, role: user.role };
    if (!this.hasher.needsRehash(user.passwordHash)) return { identity, basis };
    const renewed = await this.gate.run(address, () => this.hasher.hash(password));
    const replaced = await this.users.replaceHash(user.username, user.passwordHash, renewed);
    return { identity, basis: replaced ? this.cache.fingerprint(renewed) : basis };
  }
}
