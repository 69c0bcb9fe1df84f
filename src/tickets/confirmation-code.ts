import { randomBytes } from 'node:crypto';

/** `ticket-` and 128 random bits in base64url (22 characters): unguessable, and short enough for a small QR code. */
const CODE_PATTERN = /^ticket-[A-Za-z0-9_-]{22}$/;

/**
 * A new confirmation code. It is the only thing a door scanner reads and sends, so it is the
 * ticket's credential: 128 bits from the operating system's CSPRNG (the issue asks for at least
 * 64), never derived from the ticket id, which is a UUIDv7 and partly a timestamp.
 */
export function newConfirmationCode(): string {
  return `ticket-${randomBytes(16).toString('base64url')}`;
}

/** True when `value` has the shape of a confirmation code (so anything else is refused unread). */
export function isConfirmationCode(value: unknown): value is string {
  return typeof value === 'string' && CODE_PATTERN.test(value);
}
