import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** A new signing secret as Standard Webhooks writes them: `whsec_` and base64 of 24 random bytes. */
export function newSecret(): string {
  return SECRET_PREFIX + randomBytes(24).toString('base64');
}

/**
 * The Standard Webhooks headers of one delivery: `webhook-signature` is `v1,` and the base64
 * HMAC-SHA256, keyed with the secret's decoded bytes, of `id.timestamp.body`.
 */
export function signatureHeaders(
  secret: string,
  messageId: string,
  timestampSeconds: number,
  body: string,
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const mac = createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64');
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': `v1,${mac}`,
  };
}
