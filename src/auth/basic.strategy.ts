import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { clientAddress } from '../common/http/client-address.js';
import { BasicStrategy as HttpBasicStrategy } from 'passport-http';
import { CredentialsVerifier } from './credentials-verifier.js';
import type { Role } from './roles.js';

export const BASIC_REALM = 'museum';
/** RFC 7617 challenge; charset tells clients to send UTF-8 credentials. */
export const BASIC_CHALLENGE = `Basic realm="${BASIC_REALM}", charset="UTF-8"`;

/** The client as every limit counts it: see common/http/client-address.ts. */
export { clientAddress };

/** The authenticated caller, as `request.user`. */
export interface AuthenticatedUser {
  readonly username: string;
  readonly role: Role;
}

type VerifyDone = (error: unknown, user?: AuthenticatedUser | false) => void;

/** The parts of passport-http's strategy that its typings leave out. */
interface PassportHttpInternals {
  _verify(request: Request, username: string, password: string, done: VerifyDone): void;
  fail(challenge: string, status: number): void;
  success(user: AuthenticatedUser): void;
  error(error: unknown): void;
}

/**
 * passport-http's BasicStrategy with its header parsing replaced: the original splits the
 * credentials on every ":" (cutting passwords that contain one), answers some malformed headers
 * with a bare 400 instead of a challenge, and decodes with the deprecated `new Buffer()`.
 * Verification still goes through the strategy's verify callback, i.e. `validate()`.
 */
@Injectable()
export class BasicStrategy extends PassportStrategy(HttpBasicStrategy, 'basic') {
  constructor(private readonly verifier: CredentialsVerifier) {
    super({ realm: BASIC_REALM, passReqToCallback: true });
  }

  override authenticate(request: Request): void {
    const strategy = this as unknown as PassportHttpInternals;
    // The guard has already presented them: the same object, hashed and parsed once.
    const credentials = this.verifier.present(request)?.credentials;
    if (!credentials) return strategy.fail(BASIC_CHALLENGE, 401);
    strategy._verify(request, credentials.username, credentials.password, (error, user) => {
      if (error) return strategy.error(error);
      if (!user) return strategy.fail(BASIC_CHALLENGE, 401);
      strategy.success(user);
    });
  }

  async validate(request: Request, username: string, password: string): Promise<AuthenticatedUser | false> {
    const presented = this.verifier.present(request);
    if (presented === null) return false;
    const identity = await this.verifier.verify(presented, { username, password }, clientAddress(request));
    return identity ?? false;
  }
}
