import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

export interface ScryptParameters {
  /** log2 of the CPU/memory cost N. */
  readonly logN: number;
  readonly r: number;
  readonly p: number;
}

/**
 * One of the OWASP Password Storage Cheat Sheet's equally strong scrypt settings: N=2^16, r=8,
 * p=2 costs the CPU of its first choice (N=2^17, r=8, p=1) in half the memory (64 MiB rather than
 * 128 MiB per hash: scrypt's memory is 128 * N * r bytes, and Node computes the p lanes one after
 * the other), so that the hashes the service runs at once fit its memory budget.
 */
export const OWASP_SCRYPT: ScryptParameters = { logN: 16, r: 8, p: 2 };

const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
const FORMAT = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

/**
 * Salted scrypt hashes in a self-describing string (`$scrypt$ln=17,r=8,p=1$<salt>$<hash>`), so the
 * parameters can change later without breaking stored hashes. One hash costs about 0.3 s of one
 * core and 64 MiB here: callers must cache results (see CredentialCache) and bound how many run
 * at once (see HashGate).
 */
export class PasswordHasher {
  private dummyHash?: Promise<string>;

  constructor(private readonly parameters: ScryptParameters = OWASP_SCRYPT) {}

  async hash(password: string): Promise<string> {
    const { logN, r, p } = this.parameters;
    const salt = randomBytes(SALT_LENGTH);
    const key = await derive(password, salt, logN, r, p);
    return `$scrypt$ln=${logN},r=${r},p=${p}$${salt.toString('base64').replace(/=+$/, '')}$${key.toString('base64').replace(/=+$/, '')}`;
  }

  /** Constant-time check; false for a malformed stored hash. */
  async verify(password: string, stored: string): Promise<boolean> {
    const match = FORMAT.exec(stored);
    if (!match) return false;
    const [, logN, r, p, salt, expected] = match;
    const expectedKey = Buffer.from(expected, 'base64');
    // scrypt's output for a shorter length is a prefix of the full key: a cut hash would match
    // many passwords. Parameters scrypt refuses make the hash malformed, not the request a 500.
    if (expectedKey.length !== KEY_LENGTH || !supported(Number(logN), Number(r), Number(p))) return false;
    const key = await derive(
      password,
      Buffer.from(salt, 'base64'),
      Number(logN),
      Number(r),
      Number(p),
      expectedKey.length,
    );
    return key.length === expectedKey.length && timingSafeEqual(key, expectedKey);
  }

  /** Spends the time of one verification and fails: the answer for a user who does not exist. */
  async verifyUnknownUser(password: string): Promise<false> {
    // Verifying against a real hash costs what a wrong password costs, so response time does
    // not tell which user names exist. The dummy hash is made once, on first use.
    this.dummyHash ??= this.hash(randomBytes(18).toString('base64'));
    await this.verify(password, await this.dummyHash);
    return false;
  }

  /**
   * True when a stored hash was made with other parameters than the current ones: OWASP's
   * settings trade memory for passes, so "other" is not "weaker", and the current ones are the
   * policy.
   */
  needsRehash(stored: string): boolean {
    const match = FORMAT.exec(stored);
    if (!match) return true;
    const { logN, r, p } = this.parameters;
    return Number(match[1]) !== logN || Number(match[2]) !== r || Number(match[3]) !== p;
  }
}

function derive(
  password: string,
  salt: Buffer,
  logN: number,
  r: number,
  p: number,
  length = KEY_LENGTH,
): Promise<Buffer> {
  if (!supported(logN, r, p)) return Promise.reject(new Error('unsupported scrypt parameters'));
  const N = 2 ** logN;
  // Node's default maxmem (32 MiB) is below what N=2^15 and up need: 128 * N * r bytes.
  const maxmem = 128 * N * r * p + 16 * 1024 * 1024;
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, length, { N, r, p, maxmem }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

function supported(logN: number, r: number, p: number): boolean {
  return logN >= 1 && logN <= 24 && r >= 1 && p >= 1;
}
