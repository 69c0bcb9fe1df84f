import { codePointLength } from '../common/validation/validators.js';

const USERNAME_MAX = 64;

/** User names appear in the Basic credentials before the first colon (RFC 7617). */
export function describeUsernameProblem(username: string): string | null {
  if (username.length === 0 || codePointLength(username) > USERNAME_MAX) {
    return `must be 1 to ${USERNAME_MAX} characters`;
  }
  if (username.includes(':')) return 'must not contain ":" (HTTP Basic separates user and password with it)';
  if (/[\p{Cc}\p{White_Space}]/u.test(username)) return 'must not contain spaces or control characters';
  if (!username.isWellFormed()) return 'must be valid Unicode text';
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
