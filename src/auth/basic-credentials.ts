/** User name and password as sent in an HTTP Basic `Authorization` header (RFC 7617). */
export interface BasicCredentials {
  readonly username: string;
  readonly password: string;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Parses `Basic <base64(user:password)>`. The scheme is case-insensitive, the credentials are
 * UTF-8, and only the FIRST colon separates user from password, so a password may contain ":"
 * (passport-http splits on every colon and cuts such passwords: jaredhanson/passport-http#20).
 *
 * Returns null for anything that is not well-formed Basic credentials: another scheme, base64
 * that does not decode exactly, bytes that are not UTF-8, no colon, or an empty user name.
 */
export function parseBasicAuthorization(header: string | undefined): BasicCredentials | null {
  if (header === undefined) return null;
  const match = /^[Bb][Aa][Ss][Ii][Cc] +([^ ]+) *$/.exec(header);
  if (!match) return null;
  const token = match[1];
  if (!BASE64.test(token) || token.length % 4 === 1) return null;
  const bytes = Buffer.from(token, 'base64');
  // Node skips characters it cannot decode; re-encoding proves every character was used.
  if (bytes.toString('base64').replace(/=+$/, '') !== token.replace(/=+$/, '')) return null;
  let decoded: string;
  try {
    decoded = utf8.decode(bytes);
  } catch {
    return null;
  }
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
