/** User name and password as sent in an HTTP Basic `Authorization` header (RFC 7617). */
export interface BasicCredentials {
  readonly username: string;
  readonly password: string;
}

/**
 * The scheme, case-insensitive, then spaces, then a token of base64 digits and its padding. The
 * token starts with a digit (one of padding alone encodes nothing, so no credentials): with
 * nothing but spaces able to follow the scheme's, the match stays linear in the header's length.
 */
const BASIC = /^[Bb][Aa][Ss][Ii][Cc] +([A-Za-z0-9+/]+)(={0,2}) *$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The value of a base64 digit (the alphabet of BASIC: A–Z, a–z, 0–9, +, /). */
function digitValue(code: number): number {
  if (code >= 97) return code - 71; // a-z: 26..51
  if (code >= 65) return code - 65; // A-Z: 0..25
  if (code >= 48) return code + 4; // 0-9: 52..61
  return code === 43 ? 62 : 63; // + /
}

/**
 * True when the base64 `digits` (padding taken off) are the canonical encoding of what they
 * decode to, so that no digit is lost or changed: a last group of one digit encodes no byte, and
 * the bits of a last group of two or three digits beyond its bytes must be zero. The same answer
 * as decoding and encoding again, without doing either (this runs on every request).
 */
function isCanonical(digits: string): boolean {
  const rest = digits.length % 4;
  if (rest === 0) return true;
  if (rest === 1) return false;
  return (digitValue(digits.charCodeAt(digits.length - 1)) & (rest === 2 ? 0x0f : 0x03)) === 0;
}

/** A byte beyond ASCII, in the one-character-per-byte string `atob` answers. */
const HIGH_BYTE = /[\u0080-\u00ff]/;

/**
 * The UTF-8 text that canonical base64 `digits` encode, or null when the bytes are not UTF-8.
 * Nearly all credentials are ASCII, whose bytes are their text: `atob` gives it without a Buffer
 * or a decoder; any other bytes go through the strict decoder.
 */
function utf8Of(digits: string): string | null {
  const bytes = atob(digits);
  if (!HIGH_BYTE.test(bytes)) return bytes;
  try {
    return utf8.decode(Buffer.from(digits, 'base64'));
  } catch {
    return null;
  }
}

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
  const match = BASIC.exec(header);
  if (!match) return null;
  const digits = match[1] as string;
  const padding = match[2] as string;
  if ((digits.length + padding.length) % 4 === 1) return null;
  // Node skips characters it cannot decode; the token must be exactly the encoding of its bytes.
  if (!isCanonical(digits)) return null;
  const decoded = utf8Of(digits);
  if (decoded === null) return null;
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
