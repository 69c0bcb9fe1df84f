import { Injectable } from '@nestjs/common';
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { CalendarRefusal } from './calendar.refusals.js';
import { CalendarTokens, type StoredCalendarToken } from './calendar.repository.js';

/** 32 random bytes, base64url without padding: 43 characters. */
const TOKEN_BYTES = 32;
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;

function sha256Hex(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * Feed tokens (`calendar_tokens`): a calendar application that cannot send Basic credentials
 * reads the feed at a URL holding one. Only the token's SHA-256 is kept, so the table gives no
 * one a working URL; the token is shown once, when made. Every check reads the table (no cache),
 * so a deleted token stops working at once on every instance.
 */
@Injectable()
export class CalendarTokensService {
  constructor(private readonly tokens: CalendarTokens) {}

  /** A new token and its row; the token itself is not kept anywhere. */
  async create(description: string): Promise<{ readonly token: string; readonly stored: StoredCalendarToken }> {
    const token = randomBytes(TOKEN_BYTES).toString('base64url');
    const stored: StoredCalendarToken = { tokenId: randomUUID(), description, createdAt: Date.now() };
    await this.tokens.insert(stored, sha256Hex(token));
    return { token, stored };
  }

  /** Every token, oldest first. */
  list(): Promise<StoredCalendarToken[]> {
    return this.tokens.list();
  }

  /** Revokes the token: its feed answers 404 from the next request on, on every instance. */
  async delete(tokenId: string): Promise<void> {
    if (!(await this.tokens.delete(tokenId))) throw new CalendarRefusal('no-token', { tokenId });
  }

  /**
   * True when `token` is one of the stored tokens. Found by its hash (an index lookup), then
   * compared in constant time as well, so that nothing about a near miss shows in the timing.
   */
  async isValid(token: string): Promise<boolean> {
    if (!TOKEN_FORMAT.test(token)) return false;
    const presented = sha256Hex(token);
    const stored = await this.tokens.storedHash(presented);
    if (stored === undefined || !SHA256_HEX.test(stored)) return false;
    return timingSafeEqual(Buffer.from(stored, 'hex'), Buffer.from(presented, 'hex'));
  }
}
