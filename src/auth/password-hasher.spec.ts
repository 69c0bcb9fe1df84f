import { OWASP_SCRYPT, PasswordHasher } from './password-hasher.js';

/** Cheap parameters, so the suite stays fast; the format and the code path are the same. */
const FAST = { logN: 10, r: 8, p: 1 } as const;
const HASH_FORMAT = /^\$scrypt\$ln=10,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/;

describe('PasswordHasher', () => {
  const hasher = new PasswordHasher(FAST);

  it('hashes into $scrypt$ln=..,r=..,p=..$<salt>$<hash> and verifies the right password', async () => {
    const stored = await hasher.hash('correct horse battery staple');
    expect(stored).toMatch(HASH_FORMAT);
    expect(stored).not.toContain('correct horse');
    await expect(hasher.verify('correct horse battery staple', stored)).resolves.toBe(true);
  });

  it('refuses a wrong password, including near misses', async () => {
    const stored = await hasher.hash('correct horse battery staple');
    for (const wrong of [
      'correct horse battery stapl',
      'Correct horse battery staple',
      'correct horse battery staple ',
      '',
    ]) {
      await expect(hasher.verify(wrong, stored)).resolves.toBe(false);
    }
  });

  it('salts: two hashes of the same password differ, and both verify', async () => {
    const [one, two] = await Promise.all([hasher.hash('same password'), hasher.hash('same password')]);
    expect(one).not.toBe(two);
    expect(one.split('$')[3]).not.toBe(two.split('$')[3]);
    await expect(hasher.verify('same password', one)).resolves.toBe(true);
    await expect(hasher.verify('same password', two)).resolves.toBe(true);
  });

  it('normalizes Unicode passwords to NFC both ways', async () => {
    const nfc = 'caf\u00e9-пароль🔑';
    const nfd = 'cafe\u0301-пароль🔑';
    expect(nfc).not.toBe(nfd);
    await expect(hasher.verify(nfd, await hasher.hash(nfc))).resolves.toBe(true);
    await expect(hasher.verify(nfc, await hasher.hash(nfd))).resolves.toBe(true);
  });

  it('keeps passwords with colons and spaces whole', async () => {
    const stored = await hasher.hash('a:b:c d');
    await expect(hasher.verify('a:b:c d', stored)).resolves.toBe(true);
    await expect(hasher.verify('a', stored)).resolves.toBe(false);
  });

  it('verifies a hash made with other parameters from the parameters stored in it', async () => {
    const stored = await new PasswordHasher({ logN: 11, r: 4, p: 2 }).hash('secret password');
    expect(stored).toMatch(/^\$scrypt\$ln=11,r=4,p=2\$/);
    await expect(hasher.verify('secret password', stored)).resolves.toBe(true);
  });

  const SALT = 'c2FsdHNhbHRzYWx0c2FsdA'; // 16 bytes
  const KEY = 'A'.repeat(43); // 32 bytes

  it.each([
    ['empty', ''],
    ['plain text', 'correct horse battery staple'],
    ['another algorithm', `$argon2id$v=19$m=65536,t=3,p=4$${SALT}$${KEY}`],
    ['missing hash', `$scrypt$ln=10,r=8,p=1$${SALT}`],
    ['empty hash', `$scrypt$ln=10,r=8,p=1$${SALT}$`],
    ['missing parameters', `$scrypt$${SALT}$${KEY}`],
    ['non-base64 hash', `$scrypt$ln=10,r=8,p=1$${SALT}$!!!`],
    ['trailing newline', `$scrypt$ln=10,r=8,p=1$${SALT}$${KEY}\n`],
    ['ln=0', `$scrypt$ln=0,r=8,p=1$${SALT}$${KEY}`],
    ['ln=25', `$scrypt$ln=25,r=8,p=1$${SALT}$${KEY}`],
    ['ln=99', `$scrypt$ln=99,r=8,p=1$${SALT}$${KEY}`],
    ['r=0', `$scrypt$ln=10,r=0,p=1$${SALT}$${KEY}`],
    ['p=0', `$scrypt$ln=10,r=8,p=0$${SALT}$${KEY}`],
    ['a 1-byte key', `$scrypt$ln=10,r=8,p=1$${SALT}$AA`],
    ['a 64-byte key', `$scrypt$ln=10,r=8,p=1$${SALT}$${'A'.repeat(86)}`],
  ])('answers false (does not throw) for a malformed stored hash: %s', async (_label, stored) => {
    await expect(hasher.verify('correct horse battery staple', stored)).resolves.toBe(false);
  });

  it('answers false for a well-formed hash of another password', async () => {
    await expect(hasher.verify('correct horse battery staple', `$scrypt$ln=10,r=8,p=1$${SALT}$${KEY}`)).resolves.toBe(
      false,
    );
  });

  it('refuses a hash that was cut short, although it is a prefix of the right key', async () => {
    const stored = await hasher.hash('secret password');
    for (const cut of [10, 20, 40]) {
      await expect(hasher.verify('secret password', stored.slice(0, -cut))).resolves.toBe(false);
    }
  });

  it('answers false for an unknown user, whatever the password', async () => {
    await expect(hasher.verifyUnknownUser('correct horse battery staple')).resolves.toBe(false);
    await expect(hasher.verifyUnknownUser('')).resolves.toBe(false);
  });

  it('says when a stored hash needs a rehash', async () => {
    const stored = await hasher.hash('secret password');
    expect(hasher.needsRehash(stored)).toBe(false);
    expect(new PasswordHasher({ logN: 11, r: 8, p: 1 }).needsRehash(stored)).toBe(true);
    expect(new PasswordHasher({ logN: 10, r: 9, p: 1 }).needsRehash(stored)).toBe(true);
    expect(new PasswordHasher({ logN: 10, r: 8, p: 2 }).needsRehash(stored)).toBe(true);
    // Other parameters, not only weaker ones: OWASP's equal settings trade memory for passes.
    expect(new PasswordHasher({ logN: 9, r: 8, p: 1 }).needsRehash(stored)).toBe(true);
    expect(new PasswordHasher().needsRehash(stored)).toBe(true);
    expect(new PasswordHasher().needsRehash('$scrypt$ln=17,r=8,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaA')).toBe(true);
    expect(new PasswordHasher().needsRehash('$scrypt$ln=16,r=8,p=2$c2FsdHNhbHRzYWx0c2FsdA$aGFzaA')).toBe(false);
    expect(hasher.needsRehash('not a hash')).toBe(true);
  });

  it('uses OWASP parameters by default, N=2^16 r=8 p=2 (64 MiB: maxmem is raised)', async () => {
    expect(OWASP_SCRYPT).toEqual({ logN: 16, r: 8, p: 2 });
    const owasp = new PasswordHasher();
    const stored = await owasp.hash('correct horse battery staple');
    expect(stored).toMatch(/^\$scrypt\$ln=16,r=8,p=2\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    await expect(owasp.verify('correct horse battery staple', stored)).resolves.toBe(true);
    await expect(owasp.verify('correct horse battery stapl', stored)).resolves.toBe(false);
  });

  it('still verifies hashes made with the former default, N=2^17 r=8 p=1 (128 MiB)', async () => {
    const former = await new PasswordHasher({ logN: 17, r: 8, p: 1 }).hash('correct horse battery staple');
    const current = new PasswordHasher();
    await expect(current.verify('correct horse battery staple', former)).resolves.toBe(true);
    expect(current.needsRehash(former)).toBe(true);
  });
});
