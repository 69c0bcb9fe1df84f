import { Injectable } from '@nestjs/common';
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CalendarRefusal } from './calendar.refusals.js';

/** A feed token as stored: never the token itself, only its SHA-256. */
export interface StoredCalendarToken {
  readonly tokenId: string;
  readonly description: string;
  /** Epoch milliseconds. */
  readonly createdAt: number;
}

/** 32 random bytes, base64url without padding: 43 characters. */
const TOKEN_BYTES = 32;
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;

interface TokenRow {
  token_id: string;
  description: string;
  created_at: number | string;
}

function sha256Hex(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

function toStored(row: TokenRow): StoredCalendarToken {
  // MySQL returns BIGINT as a string.
  return { tokenId: row.token_id, description: row.description, createdAt: Number(row.created_at) };
}

/**
 * Feed tokens (`calendar_tokens`): a calendar application that cannot send Basic credentials
 * reads the feed at a URL holding one. Only the token's SHA-256 is kept, so the table gives no
 * one a working URL; the token is shown once, when made. Every check reads the table (no cache),
 * so a deleted token stops working at once on every instance.
 */
@Injectable()
export class CalendarTokensService {
  constructor(private readonly dataSource: DataSource) {}

  /** A new token and its row; the token itself is not kept anywhere. */
  async create(description: string): Promise<{ readonly token: string; readonly stored: StoredCalendarToken }> {
    const token = randomBytes(TOKEN_BYTES).toString('base64url');
    const stored: StoredCalendarToken = { tokenId: randomUUID(), description, createdAt: Date.now() };
    await this.dataSource.query(
      'INSERT INTO calendar_tokens (token_id, token_hash, description, created_at) VALUES (?, ?, ?, ?)',
      [stored.tokenId, sha256Hex(token), stored.description, stored.createdAt],
    );
    return { token, stored };
  }

  /** Every token, oldest first. */
  async list(): Promise<StoredCalendarToken[]> {
    const rows = (await this.dataSource.query(
      'SELECT token_id, description, created_at FROM calendar_tokens ORDER BY created_at, token_id',
    )) as TokenRow[];
    return rows.map(toStored);
  }

  /** Revokes the token: its feed answers 404 from the next request on, on every instance. */
  async delete(tokenId: string): Promise<void> {
    const { affected } = await this.dataSource
      .createQueryBuilder()
      .delete()
      .from('calendar_tokens')
      .where('token_id = :tokenId', { tokenId })
      .execute();
    if (!affected) throw new CalendarRefusal('no-token', { tokenId });
  }

  /**
   * True when `token` is one of the stored tokens. Found by its hash (an index lookup), then
   * compared in constant time as well, so that nothing about a near miss shows in the timing.
   */
  async isValid(token: string): Promise<boolean> {
    if (!TOKEN_FORMAT.test(token)) return false;
    const presented = sha256Hex(token);
    const rows = (await this.dataSource.query('SELECT token_hash FROM calendar_tokens WHERE token_hash = ?', [
      presented,
    ])) as { token_hash: string }[];
    const stored = rows[0]?.token_hash;
    if (stored === undefined || !SHA256_HEX.test(stored)) return false;
    return timingSafeEqual(Buffer.from(stored, 'hex'), Buffer.from(presented, 'hex'));
  }
}
