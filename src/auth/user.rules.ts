import { codePointLength } from '../common/validation/validators.js';

const USERNAME_MAX = 64;

/**
 * The one spelling of a user name, stored and looked up: Unicode NFC, as RFC 8265's
 * UsernameCasePreserved profile has it (case kept), so that "café" typed as e + U+0301 (NFD) is
 * the same user as "café" typed with U+00E9.
 */
export function normalizeUsername(username: string): string {
  return toNfc(username);
}

/** Any UTF-16 code unit beyond ASCII (surrogates included). */
const NON_ASCII = /[\u0080-\uffff]/;

/**
 * `text` in Unicode NFC. ASCII text is its own NFC (no ASCII character decomposes or combines),
 * and nearly all credentials are ASCII: a regular expression is cheaper than ICU's normalization,
 * which every authenticated request would otherwise pay for twice (user name and password).
 */
export function toNfc(text: string): string {
  return NON_ASCII.test(text) ? text.normalize('NFC') : text;
}

/**
 * User names appear in the Basic credentials before the first colon (RFC 7617). Checked on the
 * normalized name. Invisible characters are refused (controls, format characters such as U+200B,
 * U+00AD, U+2060 or U+202E, private-use and unassigned code points: Unicode category C), so that
 * no account looks like another.
 */
export function describeUsernameProblem(username: string): string | null {
  if (username.length === 0 || codePointLength(username) > USERNAME_MAX) {
    return `must be 1 to ${USERNAME_MAX} characters`;
  }
  if (username.includes(':')) return 'must not contain ":" (HTTP Basic separates user and password with it)';
  if (!username.isWellFormed()) return 'must be valid Unicode text';
  if (/[\p{C}\p{White_Space}]/u.test(username)) {
    return 'must not contain spaces, control or format characters (such as U+200B), or unassigned code points';
  }
  return null;
}

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 1024;

export function describePasswordProblem(password: string): string | null {
  const length = codePointLength(password);
  if (length < PASSWORD_MIN || length > PASSWORD_MAX) {
    return `must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`;
  }
  if (/\p{Cc}/u.test(password)) return 'must not contain control characters';
  if (!password.isWellFormed()) return 'must be valid Unicode text';
  return null;
}
