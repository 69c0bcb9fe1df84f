import { hash, randomBytes } from 'node:crypto';
import type { BasicCredentials } from './basic-credentials.js';
import type { Role } from './roles.js';

/** Who a verified credential belongs to and that user's role; null records a refused credential. */
export type CachedIdentity = { readonly username: string; readonly role: Role } | null;

/**
 * The outcome of one password check and what it was decided against: `basis` fingerprints the
 * stored password hash (`fingerprint`), or is null when the user did not exist. As long as the
 * stored hash is the same, so is the outcome.
 */
export interface Verdict {
  readonly identity: CachedIdentity;
  readonly basis: string | null;
}

interface Entry {
  readonly verdict: Verdict;
  /** `fingerprint` of the user name the credentials gave: fixed-size, whatever was sent. */
  readonly user: string;
  readonly expiresAt: number;
}

export interface CredentialCacheOptions {
  readonly ttlMs: number;
  readonly maxEntries: number;
  readonly now?: () => number;
}

/**
 * Remembers the outcome of password checks so that a request does not pay the scrypt cost
 * (about 0.3 s) every time.
 *
 * - Keys are a keyed SHA-256 of the parsed user name and password (a per-process random secret,
 *   then `user:password`), so every spelling of one Authorization header's credentials is one
 *   entry: the plain credentials are never kept, and a memory dump does not give a table of
 *   unkeyed hashes to attack. Not HMAC: a secret-prefix hash is open to length extension, which
 *   needs the digest, and these never leave the process; `crypto.hash` costs 0.5 µs where
 *   `createHmac` costs 2.3 µs, and it runs on every request (3% of a delete's CPU as HMAC).
 * - Bounded in size (least recently used goes first) and in time (`ttlMs`), and everything about
 *   a user is dropped when that user changes in this process (`invalidateUser`). A change made
 *   elsewhere (the users CLI, another instance) takes effect when CredentialsEpoch sees the
 *   users change (within a second, `expireAll`), and at the latest within `ttlMs`; that includes
 *   the user's role, which the cached identity carries.
 * - An expired verdict is not used, but handed to the next computation for the same credentials
 *   (`resolve`), which may confirm it by reading the user again instead of hashing again: with
 *   scrypt's 128 MiB and 0.3 s, a re-hash every `ttlMs` stalled every request with those
 *   credentials and doubled the process's RSS for a moment.
 * - Refusals are cached too, so repeating the same wrong credentials costs no new hash.
 * - Concurrent lookups of the same uncached credentials share one computation (single-flight).
 * - Nothing kept is as long as what was sent: entries and checks in flight know their user by a
 *   fingerprint of the name, so `maxEntries` bounds the bytes too, however long a refused name.
 */
export class CredentialCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inFlight = new Map<
    string,
    { readonly user: string; readonly computation: Promise<CachedIdentity> }
  >();
  /**
   * Bumped by every invalidation, by the user's fingerprint; a computation that started before it
   * is not cached. Only invalidateUser adds to it: users changed by an administrator.
   */
  private readonly generations = new Map<string, number>();
  /** As `generations`, for every user at once (expireAll). */
  private globalGeneration = 0;
  /** 256 random bits as text, so that `secret + header` is one string for one `crypto.hash`. */
  private readonly secret = randomBytes(32).toString('base64url');
  private readonly now: () => number;

  constructor(private readonly options: CredentialCacheOptions) {
    this.now = options.now ?? (() => Date.now());
  }

  /**
   * The cache key of parsed credentials. A user name never contains ":" (RFC 7617 splits at the
   * first one), so `user:password` names one pair unambiguously.
   */
  keyOf({ username, password }: BasicCredentials): string {
    return this.fingerprint(`${username}:${password}`);
  }

  /** A keyed SHA-256 of `text` under this cache's secret: comparable, not reversible offline. */
  fingerprint(text: string): string {
    return hash('sha256', this.secret + text, 'base64');
  }

  /**
   * The cached identity for `key`, or the result of `compute` (shared with every concurrent
   * caller for the same key), which gets the expired verdict for `key` when there is one. A
   * rejected computation is not cached.
   */
  resolve(
    key: string,
    username: string,
    compute: (expired: Verdict | undefined) => Promise<Verdict>,
  ): Promise<CachedIdentity> {
    const cached = this.peek(key);
    if (cached !== undefined) return Promise.resolve(cached);
    const pending = this.inFlight.get(key);
    if (pending) return pending.computation;

    const user = this.fingerprint(username);
    const generation = this.generations.get(user) ?? 0;
    const globalGeneration = this.globalGeneration;
    const computation = compute(this.entries.get(key)?.verdict)
      .then((verdict) => {
        if ((this.generations.get(user) ?? 0) === generation && this.globalGeneration === globalGeneration) {
          this.store(key, user, verdict);
        }
        return verdict.identity;
      })
      .finally(() => {
        if (this.inFlight.get(key)?.computation === computation) this.inFlight.delete(key);
      });
    this.inFlight.set(key, { user, computation });
    return computation;
  }

  /**
   * The live cached outcome for `key`, synchronously: an identity, null for a refusal, or
   * undefined when there is none or it expired (the credentials must be checked).
   */
  peek(key: string): CachedIdentity | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined || entry.expiresAt <= this.now()) return undefined;
    // Re-inserting keeps the Map in least-recently-used order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.verdict.identity;
  }

  /**
   * Stops trusting every cached outcome, because users changed somewhere else (CredentialsEpoch):
   * each is checked again on its next use. Verdicts are kept as expired, not dropped, so that a
   * credential whose user's stored hash did not change is confirmed by reading the user, without
   * a new password hash; checks in flight, which may have read the old state, are not cached.
   */
  expireAll(): void {
    this.globalGeneration++;
    for (const [key, entry] of this.entries) this.entries.set(key, { ...entry, expiresAt: 0 });
    this.inFlight.clear();
  }

  /** Forgets every outcome, positive or negative, for credentials naming `username`. */
  invalidateUser(username: string): void {
    const user = this.fingerprint(username);
    this.generations.set(user, (this.generations.get(user) ?? 0) + 1);
    for (const [key, entry] of this.entries) {
      if (entry.user === user) this.entries.delete(key);
    }
    // Later callers must not join a check that may have read the old password.
    for (const [key, pending] of this.inFlight) {
      if (pending.user === user) this.inFlight.delete(key);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  private store(key: string, user: string, verdict: Verdict): void {
    if (this.options.ttlMs <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { verdict, user, expiresAt: this.now() + this.options.ttlMs });
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }
}
