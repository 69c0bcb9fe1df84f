import type { Request } from 'express';
import { type BasicCredentials, parseBasicAuthorization } from './basic-credentials.js';

const PRESENTED = Symbol('presented credentials');

type Carrier = Request & { [PRESENTED]?: PresentedCredentials | null };

/**
 * The one door through which a request's Authorization header enters auth/. The header is read
 * from the request here and nowhere else, hashed once (the credential cache's keyed hash, `key`,
 * which is also all that in-memory maps keep of it), and parsed at most once, only when no cached
 * verdict answers. The guard and the passport strategy both see the same object.
 */
export class PresentedCredentials {
  private parsed: BasicCredentials | null | undefined;

  private constructor(
    readonly key: string,
    private readonly header: string,
  ) {}

  /**
   * The credentials `request` presents (null when it has no Authorization header), made on the
   * first call for that request and kept on it for the rest of it.
   */
  static of(request: Request, keyer: { keyOf(header: string): string }): PresentedCredentials | null {
    const carrier = request as Carrier;
    let presented = carrier[PRESENTED];
    if (presented === undefined) {
      const header = request.headers.authorization;
      presented = header === undefined ? null : new PresentedCredentials(keyer.keyOf(header), header);
      carrier[PRESENTED] = presented;
    }
    return presented;
  }

  /** User name and password, or null when the header is not well-formed Basic credentials. */
  get credentials(): BasicCredentials | null {
    if (this.parsed === undefined) this.parsed = parseBasicAuthorization(this.header);
    return this.parsed;
  }
}
