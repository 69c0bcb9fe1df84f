import { parseBasicAuthorization } from './basic-credentials.js';

function b64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

function basic(userPass: string, scheme = 'Basic'): string {
  return `${scheme} ${b64(userPass)}`;
}

describe('parseBasicAuthorization', () => {
  it('parses user and password', () => {
    expect(parseBasicAuthorization(basic('curator:s3cret-Pass'))).toEqual({
      username: 'curator',
      password: 's3cret-Pass',
    });
  });

  it('parses the RFC 7617 example', () => {
    expect(parseBasicAuthorization('Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==')).toEqual({
      username: 'Aladdin',
      password: 'open sesame',
    });
  });

  it.each(['basic', 'BASIC', 'bAsIc'])('accepts the scheme spelled %s', (scheme) => {
    expect(parseBasicAuthorization(basic('user:pass', scheme))).toEqual({ username: 'user', password: 'pass' });
  });

  it('splits on the first colon only: the password keeps its colons', () => {
    expect(parseBasicAuthorization(basic('user:a:b:c'))).toEqual({ username: 'user', password: 'a:b:c' });
    expect(parseBasicAuthorization(basic('user::'))).toEqual({ username: 'user', password: ':' });
  });

  it('decodes UTF-8 user names and passwords', () => {
    expect(parseBasicAuthorization(basic('José:пароль🔑'))).toEqual({ username: 'José', password: 'пароль🔑' });
  });

  it('keeps white space inside the credentials', () => {
    expect(parseBasicAuthorization(basic('user: pass word '))).toEqual({ username: 'user', password: ' pass word ' });
  });

  it('allows an empty password', () => {
    expect(parseBasicAuthorization(basic('user:'))).toEqual({ username: 'user', password: '' });
  });

  it('accepts several spaces after the scheme and trailing spaces', () => {
    expect(parseBasicAuthorization(`Basic    ${b64('user:pass')}`)).toEqual({ username: 'user', password: 'pass' });
    expect(parseBasicAuthorization(`Basic ${b64('user:pass')}  `)).toEqual({ username: 'user', password: 'pass' });
  });

  it('rejects an empty user name', () => {
    expect(parseBasicAuthorization(basic(':pass'))).toBeNull();
    expect(parseBasicAuthorization(basic(':'))).toBeNull();
  });

  it('rejects credentials without a colon', () => {
    expect(parseBasicAuthorization(basic('userpass'))).toBeNull();
    expect(parseBasicAuthorization(basic(''))).toBeNull();
  });

  it.each([
    ['characters outside the alphabet', 'Basic !!!'],
    ['the URL-safe alphabet', 'Basic dXNlcjo_Pz8-Pj4='], // standard: dXNlcjo/Pz8+Pj4= (user:???>>>)
    ['an impossible length (5 characters)', 'Basic abcde'],
    ['padding after 3 characters', 'Basic abc=='],
    ['padding that does not fit', 'Basic ab='],
    ['too much padding', 'Basic dTpwYQ==='],
    ['padding in the middle', 'Basic dT==cGFzcw=='],
    ['non-zero trailing bits', 'Basic dTpwYR=='],
    ['an embedded space', `Basic ${b64('user:pass').slice(0, 4)} ${b64('user:pass').slice(4)}`],
    ['an embedded tab', `Basic ${b64('user:pass').slice(0, 4)}\t${b64('user:pass').slice(4)}`],
    ['no token', 'Basic'],
    ['an empty token', 'Basic '],
    ['no space after the scheme', `Basic${b64('user:pass')}`],
    ['a tab after the scheme', `Basic\t${b64('user:pass')}`],
  ])('rejects malformed base64: %s', (_label, header) => {
    expect(parseBasicAuthorization(header)).toBeNull();
  });

  it('checks the test vectors above are otherwise well-formed', () => {
    // The same bytes with correct base64 do parse, so the rejections above are about the encoding.
    expect(parseBasicAuthorization('Basic dTpwYQ==')).toEqual({ username: 'u', password: 'pa' });
    expect(parseBasicAuthorization('Basic dXNlcjo/Pz8+Pj4=')).toEqual({ username: 'user', password: '???>>>' });
  });

  it('rejects bytes that are not UTF-8', () => {
    const invalidPassword = Buffer.concat([Buffer.from('user:'), Buffer.from([0xff, 0xfe])]).toString('base64');
    expect(parseBasicAuthorization(`Basic ${invalidPassword}`)).toBeNull();
    const latin1User = Buffer.from('Jos\xe9:pass', 'latin1').toString('base64');
    expect(parseBasicAuthorization(`Basic ${latin1User}`)).toBeNull();
    const encodedSurrogate = Buffer.concat([Buffer.from('user:'), Buffer.from([0xed, 0xa0, 0x80])]).toString('base64');
    expect(parseBasicAuthorization(`Basic ${encodedSurrogate}`)).toBeNull();
  });

  it.each([
    ['Bearer', `Bearer ${b64('user:pass')}`],
    ['Digest', 'Digest username="user", realm="museum", nonce="abc", uri="/", response="def"'],
    ['a prefix of Basic', `Basi ${b64('user:pass')}`],
    ['a longer scheme', `Basicx ${b64('user:pass')}`],
    ['the credentials without a scheme', b64('user:pass')],
    ['a leading space', ` Basic ${b64('user:pass')}`],
  ])('rejects another scheme: %s', (_label, header) => {
    expect(parseBasicAuthorization(header)).toBeNull();
  });

  it('rejects a missing or empty header', () => {
    expect(parseBasicAuthorization(undefined)).toBeNull();
    expect(parseBasicAuthorization('')).toBeNull();
  });
});

describe('parseBasicAuthorization and base64 decoded then encoded again', () => {
  /** The rule it replaced: a token is well-formed when encoding its bytes again gives it back. */
  function reEncodes(token: string): boolean {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(token) || token.length % 4 === 1) return false;
    const bytes = Buffer.from(token, 'base64');
    return bytes.toString('base64').replace(/=+$/, '') === token.replace(/=+$/, '');
  }

  it('accept the same tokens: every digit and padding of up to 8 characters, at random', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=';
    // A colon first, so that every token that decodes exactly to UTF-8 is credentials.
    const prefix = Buffer.from('u:').toString('base64').slice(0, 3); // "dTo" holds "u:" and 2 bits
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    let accepted = 0;
    const disagreements: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      let token = `${prefix}${'A'}`; // "dToA": "u:" and a NUL byte's first bits, a whole group
      const length = random(9);
      for (let j = 0; j < length; j++) token += alphabet[random(alphabet.length)];
      const parsed = parseBasicAuthorization(`Basic ${token}`);
      let utf8 = true;
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(token, 'base64'));
      } catch {
        utf8 = false;
      }
      if ((parsed !== null) !== (reEncodes(token) && utf8)) disagreements.push(token);
      if (parsed !== null) accepted++;
    }
    expect(disagreements).toStrictEqual([]);
    // Both kinds were met.
    expect(accepted).toBeGreaterThan(1000);
    expect(accepted).toBeLessThan(19_000);
  });
});
