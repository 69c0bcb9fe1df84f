import { freshText, reachableHeapBytes } from '../../test/helpers/retained-heap.js';
import { type CachedIdentity, CredentialCache, type Verdict } from './credential-cache.js';

const ALICE = { username: 'alice', role: 'editor' } as const;
const BOB = { username: 'bob', role: 'viewer' } as const;
const TTL = 60_000;

/** A verdict decided against the stored hash fingerprinted 'basis-1'. */
function verdict(identity: CachedIdentity, basis: string | null = 'basis-1'): Verdict {
  return { identity, basis };
}

/** A settable clock. */
function clock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let time = start;
  return { now: () => time, advance: (ms) => (time += ms) };
}

/** A compute function that counts its calls and returns `identity`. */
function counting(identity: CachedIdentity): { compute: () => Promise<Verdict>; calls: () => number } {
  let calls = 0;
  return {
    compute: () => {
      calls++;
      return Promise.resolve(verdict(identity));
    },
    calls: () => calls,
  };
}

/** A promise settled from outside. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: Error) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('CredentialCache', () => {
  it('answers a hit within the TTL without computing again', async () => {
    const time = clock();
    const cache = new CredentialCache({ ttlMs: TTL, maxEntries: 10, now: time.now });
    const alice = counting(ALICE);
    await expect(cache.resolve('k1', 'alice', alice.compute)).resolves.toEqual(ALICE);
    time.advance(TTL - 1);
    await expect(cache.resolve('k1', 'alice', alice.compute)).resolves.toEqual(ALICE);
    expect(alice.calls()).toBe(1);
    expect(cache.size).toBe(1);
  });

  it('peek: the cached verdict synchronously (identity or null), undefined when unknown, expired or in flight', async () => {
    const time = clock();
    const cache = new CredentialCache({ ttlMs: TTL, maxEntries: 10, now: time.now });
    expect(cache.peek('k1')).toBeUndefined();
    const pending = deferred<Verdict>();
    const inFlight = cache.resolve('k1', 'alice', () => pending.promise);
    expect(cache.peek('k1')).toBeUndefined();
    pending.resolve(verdict(ALICE));
    await inFlight;
    await cache.resolve('wrong', 'alice', () => Promise.resolve(verdict(null)));
    expect(cache.peek('k1')).toEqual(ALICE);
    expect(cache.peek('wrong')).toBeNull();
    time.advance(TTL);
    expect(cache.peek('k1')).toBeUndefined();
    expect(cache.peek('wrong')).toBeUndefined();
    // Kept, unused, for the next computation to confirm (resolve), until evicted.
    expect(cache.size).toBe(2);
  });

  it('hands the expired verdict to the next computation, and keeps what that returns for another TTL', async () => {
    const time = clock();
    const cache = new CredentialCache({ ttlMs: TTL, maxEntries: 10, now: time.now });
    const seen: (Verdict | undefined)[] = [];
    const first = verdict(ALICE, 'hash-1');
    await cache.resolve('k1', 'alice', (expired) => {
      seen.push(expired);
      return Promise.resolve(first);
    });
    time.advance(TTL);
    const second = verdict(null, 'hash-2');
    await expect(
      cache.resolve('k1', 'alice', (expired) => {
        seen.push(expired);
        return Promise.resolve(second);
      }),
    ).resolves.toBeNull();
    expect(seen).toEqual([undefined, first]);
    time.advance(TTL - 1);
    expect(cache.peek('k1')).toBeNull();
    time.advance(1);
    expect(cache.peek('k1')).toBeUndefined();
  });

  it('hands no expired verdict over once the user was invalidated', async () => {
    const time = clock();
    const cache = new CredentialCache({ ttlMs: TTL, maxEntries: 10, now: time.now });
    await cache.resolve('k1', 'alice', () => Promise.resolve(verdict(ALICE)));
    time.advance(TTL);
    cache.invalidateUser('alice');
    let handed: Verdict | undefined = verdict(null);
    await cache.resolve('k1', 'alice', (expired) => {
      handed = expired;
      return Promise.resolve(verdict(ALICE));
    });
    expect(handed).toBeUndefined();
  });

  it('expireAll: nothing is trusted any more, but expired verdicts are handed over, and a check in flight is not cached', async () => {
    const cache = new CredentialCache({ ttlMs: TTL, maxEntries: 10 });
    await cache.resolve('k1', 'alice', () => Promise.resolve(verdict(ALICE)));
    await cache.resolve('k2', 'bob', () => Promise.resolve(verdict(BOB)));
    const slow = deferred<Verdict>();
    const inFlight = cache.resolve('k3', 'carol', () => slow.promise);
    cache.expireAll();
    expect(cache.peek('k1')).toBeUndefined();
    expect(cache.peek('k2')).toBeUndefined();
    let handed: Verdict | undefined;
    await cache.resolve('k1', 'alice', (expired) => {
      handed = expired;
      return Promise.resolve(verdict(ALICE));
    });
    expect(handed).toEqual(verdict(ALICE));
    expect(cache.peek('k1')).toEqual(ALICE);
    // The check that started before expireAll may have read the old state: answered, not kept.
    slow.resolve(verdict({ username: 'carol', role: 'viewer' }));
    expect(await inFlight).toEqual({ username: 'carol', role: 'viewer' });
    expect(cache.peek('k3')).toBeUndefined();
  });

  it('peek counts as a use: the entry peeked last is evicted last', async () => {
    const cache = new CredentialCache({ ttlMs: TTL, maxEntries: 2 });
    await cache.resolve('a', 'alice', () => Promise.resolve(verdict(ALICE)));
    await cache.resolve('b', 'bob', () => Promise.resolve(verdict(BOB)));
    cache.peek('a');
    await cache.resolve('c', 'carol', () => Promise.resolve(verdict({ username: 'carol', role: 'editor' })));
    expect(cache.peek('a')).toEqual(ALICE);
    expect(cache.peek('b')).toBeUndefined();
  });

  it('computes again once the TTL is over', async () => {
    const time = clock();
    const cache = new CredentialCache({ ttlMs: TTL, maxEntries: 10, now: time.now });
    const alice = counting(ALICE);
    await cache.resolve('k1', 'alice', alice.compute);
    time.advance(TTL);
    await expect(cache.resolve('k1', 'alice', alice.compute)).resolves.toEqual(ALICE);
    expect(alice.calls()).toBe(2);
    // The fresh result is cached for a new TTL.
    time.advance(TTL - 1);
    await cache.resolve('k1', 'alice', alice.compute);
    expect(alice.calls()).toBe(2);
  });

  it('caches refusals (null) too', async () => {
    const time = clock();
    const cache = new CredentialCache({ ttlMs: TTL, maxEntries: 10, now: time.now });
    const refused = counting(null);
    await expect(cache.resolve('wrong', 'alice', refused.compute)).resolves.toBeNull();
    await expect(cache.resolve('wrong', 'alice', refused.compute)).resolves.toBeNull();
    expect(refused.calls()).toBe(1);
    expect(cache.size).toBe(1);
  });

  it('keeps different keys apart', async () => {
    const cache = new CredentialCache({ ttlMs: TTL, maxEntries: 10, now: clock().now });
    await cache.resolve('right', 'alice', () => Promise.resolve(verdict(ALICE)));
    await cache.resolve('wrong', 'alice', () => Promise.resolve(verdict(null)));
    await expect(cache.resolve('right', 'alice', () => Promise.resolve(verdict(null)))).resolves.toEqual(ALICE);
    await expect(cache.resolve('wrong', 'alice', () => Promise.resolve(verdict(ALICE)))).resolves.toBeNull();
  });

  it('evicts the least recently used entry beyond maxEntries; a hit counts as a use', async () => {
    const cache = new CredentialCache({ ttlMs: TTL, maxEntries: 2, now: clock().now });
    const a = counting(ALICE);
    const b = counting(BOB);
    const c = counting(null);
    await cache.resolve('a', 'alice', a.compute);
    await cache.resolve('b', 'bob', b.compute);
    await cache.resolve('a', 'alice', a.compute); // touch: b is now the least recently used
    await cache.resolve('c', 'carol', c.compute);
    expect(cache.size).toBe(2);

    await cache.resolve('a', 'alice', a.compute);
    expect(a.calls()).toBe(1); // kept
    await cache.resolve('b', 'bob', b.compute);
    expect(b.calls()).toBe(2); // evicted, computed again (and c, now the oldest, goes)
    await cache.resolve('c', 'carol', c.compute);
    expect(c.calls()).toBe(2);
    expect(cache.size).toBe(2);
  });

  it('shares one computation among 50 concurrent callers for the same key', async () => {
    const cache = new CredentialCache({ ttlMs: TTL, maxEntries: 10, now: clock().now });
    const pending = deferred<Verdict>();
    let calls = 0;
    const compute = (): Promise<Verdict> => {
      calls++;
      return pending.promise;
    };
    const results = Array.from({ length: 50 }, () => cache.resolve('k1', 'alice', compute));
    expect(calls).toBe(1);
    const identity = { username: 'alice', role: 'editor' as const };
    pending.resolve(verdict(identity));
    const settled = await Promise.all(results);
    expect(settled).toHaveLength(50);
    for (const result of settled) expect(result).toBe(identity);
    expect(calls).toBe(1);
    // And the shared result is cached afterwards.
    await cache.resolve('k1', 'alice', compute);
    expect(calls).toBe(1);
  });

  it('does not share a computation between different keys', async () => {
    const cache = new CredentialCache({ ttlMs: TTL, maxEntries: 10, now: clock().now });
    const pending = deferred<Verdict>();
    let calls = 0;
    const compute = (): Promise<Verdict> => {
      calls++;
      return pending.promise;
    };
    const first = cache.resolve('k1', 'alice', compute);
    const second = cache.resolve('k2', 'alice', compute);
    expect(calls).toBe(2);
    pending.resolve(verdict(ALICE));
    await Promise.all([first, second]);
  });

  it('does not cache a rejected computation: every waiter sees the error, the next call computes again', async () => {
    const cache = new CredentialCache({ ttlMs: TTL, maxEntries: 10, now: clock().now });
    const pending = deferred<Verdict>();
    const failing = (): Promise<Verdict> => pending.promise;
    const waiters = Array.from({ length: 3 }, () => cache.resolve('k1', 'alice', failing));
    pending.reject(new Error('database down'));
    for (const waiter of waiters) await expect(waiter).rejects.toThrow('database down');
    expect(cache.size).toBe(0);

    const alice = counting(ALICE);
    await expect(cache.resolve('k1', 'alice', alice.compute)).resolves.toEqual(ALICE);
    expect(alice.calls()).toBe(1);
  });

  it("invalidateUser drops that user's positive and negative entries, and only that user's", async () => {
    const cache = new CredentialCache({ ttlMs: TTL, maxEntries: 10, now: clock().now });
    await cache.resolve('alice-right', 'alice', () => Promise.resolve(verdict(ALICE)));
    await cache.resolve('alice-wrong', 'alice', () => Promise.resolve(verdict(null)));
    await cache.resolve('bob-right', 'bob', () => Promise.resolve(verdict(BOB)));
    expect(cache.size).toBe(3);

    cache.invalidateUser('alice');
    expect(cache.size).toBe(1);

    const aliceRight = counting(null);
    const aliceWrong = counting(ALICE);
    const bob = counting(null);
    await expect(cache.resolve('alice-right', 'alice', aliceRight.compute)).resolves.toBeNull();
    await expect(cache.resolve('alice-wrong', 'alice', aliceWrong.compute)).resolves.toEqual(ALICE);
    await expect(cache.resolve('bob-right', 'bob', bob.compute)).resolves.toEqual(BOB);
    expect([aliceRight.calls(), aliceWrong.calls(), bob.calls()]).toEqual([1, 1, 0]);
  });

  it('does not store a computation that was in flight when its user was invalidated', async () => {
    const cache = new CredentialCache({ ttlMs: TTL, maxEntries: 10, now: clock().now });
    const stale = deferred<Verdict>();
    const before = cache.resolve('k1', 'alice', () => stale.promise);

    cache.invalidateUser('alice');

    // A caller arriving after the change must not join the check that read the old password.
    const fresh = counting(null);
    const after = cache.resolve('k1', 'alice', fresh.compute);
    expect(fresh.calls()).toBe(1);
    await expect(after).resolves.toBeNull();

    stale.resolve(verdict(ALICE));
    await expect(before).resolves.toEqual(ALICE); // its own caller still gets its answer
    // The stale result did not overwrite the fresh one.
    const probe = counting(ALICE);
    await expect(cache.resolve('k1', 'alice', probe.compute)).resolves.toBeNull();
    expect(probe.calls()).toBe(0);
  });

  it('does not store an in-flight result of an invalidated user even with nothing cached since', async () => {
    const cache = new CredentialCache({ ttlMs: TTL, maxEntries: 10, now: clock().now });
    const stale = deferred<Verdict>();
    const before = cache.resolve('k1', 'alice', () => stale.promise);
    cache.invalidateUser('alice');
    stale.resolve(verdict(ALICE));
    await before;
    expect(cache.size).toBe(0);
    const probe = counting(null);
    await expect(cache.resolve('k1', 'alice', probe.compute)).resolves.toBeNull();
    expect(probe.calls()).toBe(1);
  });

  it('keeps storing computations of other users during an invalidation', async () => {
    const cache = new CredentialCache({ ttlMs: TTL, maxEntries: 10, now: clock().now });
    const bobCheck = deferred<Verdict>();
    const pending = cache.resolve('k-bob', 'bob', () => bobCheck.promise);
    cache.invalidateUser('alice');
    bobCheck.resolve(verdict(BOB));
    await pending;
    expect(cache.size).toBe(1);
  });

  it('caches nothing with ttlMs 0', async () => {
    const cache = new CredentialCache({ ttlMs: 0, maxEntries: 10, now: clock().now });
    const alice = counting(ALICE);
    await cache.resolve('k1', 'alice', alice.compute);
    await cache.resolve('k1', 'alice', alice.compute);
    expect(alice.calls()).toBe(2);
    expect(cache.size).toBe(0);
  });

  describe('keyOf', () => {
    const credentials = { username: 'user', password: 's3cret-Pass' };

    it('is deterministic within one instance, and tells user and password apart', () => {
      const cache = new CredentialCache({ ttlMs: TTL, maxEntries: 10 });
      expect(cache.keyOf(credentials)).toBe(cache.keyOf({ ...credentials }));
      expect(cache.keyOf(credentials)).not.toBe(cache.keyOf({ username: 'user', password: 's3cret-Pasx' }));
      expect(cache.keyOf(credentials)).not.toBe(cache.keyOf({ username: 'user:s3cret', password: '-Pass' }));
    });

    it('differs between instances (a random secret each)', () => {
      const one = new CredentialCache({ ttlMs: TTL, maxEntries: 10 });
      const two = new CredentialCache({ ttlMs: TTL, maxEntries: 10 });
      expect(one.keyOf(credentials)).not.toBe(two.keyOf(credentials));
    });

    it('never contains the credentials', () => {
      const cache = new CredentialCache({ ttlMs: TTL, maxEntries: 10 });
      const key = cache.keyOf(credentials);
      expect(key).toMatch(/^[A-Za-z0-9+/]{43}=$/); // a SHA-256 digest in base64
      for (const part of ['dXNlcjpzM2NyZXQtUGFzcw', 'user', 's3cret']) {
        expect(key).not.toContain(part);
      }
    });
  });
});

describe('CredentialCache memory', () => {
  it('keeps no user name: refusals of long names pin none of their bytes', async () => {
    const cache = new CredentialCache({ ttlMs: TTL, maxEntries: 4_000 });
    const before = reachableHeapBytes();
    // 4,000 refused credentials, each with its own 12,000-character name, as requests parse them.
    for (let i = 0; i < 4_000; i++) {
      const username = freshText(12_000, i);
      await cache.resolve(cache.keyOf({ username, password: 'wrong' }), username, () =>
        Promise.resolve(verdict(null, null)),
      );
    }
    const kept = reachableHeapBytes() - before;
    expect(cache.size).toBe(4_000);
    // The names alone are 48 MB; 4,000 entries of two digests each are well under 4 MB.
    expect(kept).toBeLessThan(4 * 2 ** 20);
  });

  it('still forgets a refused name once that user is created', async () => {
    const cache = new CredentialCache({ ttlMs: TTL, maxEntries: 10 });
    const key = cache.keyOf({ username: 'dana', password: 'pw' });
    await cache.resolve(key, 'dana', () => Promise.resolve(verdict(null, null)));
    expect(cache.peek(key)).toBeNull();
    cache.invalidateUser('dana');
    expect(cache.peek(key)).toBeUndefined();
  });
});
