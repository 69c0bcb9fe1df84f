import type { Request } from 'express';
import { type BasicCredentials, parseBasicAuthorization } from './basic-credentials.js';
import { normalizeUsername, toNfc } from './user.rules.js';

const PRESENTED = Symbol('presented credentials');

type Carrier = Request & { [PRESENTED]?: PresentedCredentials | null };

/** What makes the cache key of credentials (CredentialCache.keyOf). */
export interface CredentialKeyer {
  keyOf(credentials: BasicCredentials): string;
}

/**
 * Whether a request sends an Authorization header at all, without reading it: what decides that
 * an anonymous public read is one (a request that sends credentials is authenticated as always).
 */
export function sendsCredentials(headers: { authorization?: unknown }): boolean {
  return headers.authorization !== undefined;
}

/**
 * The one door through which a request's Authorization header enters auth/. The header is read
 * from the request here and nowhere else, parsed once, and the credentials it carries are hashed
 * once (the credential cache's keyed hash, `key`, which is also all that in-memory maps keep of
 * them). The key is made from the parsed user name and password, not from the header's text, so
 * every spelling of the same credentials (`basic`, extra spaces, base64 without padding, another
 * Unicode normalization of the password) is the same cache entry and costs no new password hash.
 * The guard and the passport strategy both see the same object.
 */
export class PresentedCredentials {
  private constructor(
    readonly key: string,
    readonly credentials: BasicCredentials,
  ) {}

  /**
   * The credentials `request` presents, or null when it has no Authorization header or one that
   * is not well-formed Basic credentials; made on the first call for that request and kept on it.
   */
  static of(request: Request, keyer: CredentialKeyer): PresentedCredentials | null {
    const carrier = request as Carrier;
    let presented = carrier[PRESENTED];
    if (presented === undefined) {
      const parsed = parseBasicAuthorization(request.headers.authorization);
      presented = parsed === null ? null : PresentedCredentials.from(parsed, keyer);
      carrier[PRESENTED] = presented;
    }
    return presented;
  }

  private static from({ username, password }: BasicCredentials, keyer: CredentialKeyer): PresentedCredentials {
    // NFC, as user names are stored and passwords hashed (PasswordHasher): spellings that verify
    // alike share a cache entry and a failure count.
    const credentials = { username: normalizeUsername(username), password: toNfc(password) };
    return new PresentedCredentials(keyer.keyOf(credentials), credentials);
  }
}
