import { Injectable } from '@nestjs/common';
import { isUniqueViolation } from '../database/database-errors.js';
import { Sql } from '../database/sql.js';

/** A key's row as stored (`idempotency_keys`, no entity: its migration describes it). */
export interface StoredKey {
  readonly fingerprint: string;
  readonly claim: string;
  /** Null while the request that claimed the key is in flight. */
  readonly status: number | null;
  readonly headers: string | null;
  readonly body: string | null;
  readonly expiresAt: number;
}

interface Row {
  fingerprint: string;
  claim: string;
  status: number | string | null;
  headers: string | null;
  body: string | null;
  expires_at: number | string;
}

const INSERT_CLAIM =
  'INSERT INTO idempotency_keys (username, idempotency_key, fingerprint, claim, expires_at) VALUES (?, ?, ?, ?, ?)';
/** SQLite: a duplicate key changes no row instead of failing, so the group commit has no error to undo. */
const INSERT_CLAIM_SQLITE = `${INSERT_CLAIM} ON CONFLICT DO NOTHING`;
const SELECT_KEY =
  'SELECT fingerprint, claim, status, headers, body, expires_at FROM idempotency_keys WHERE username = ? AND idempotency_key = ?';
const DELETE_CLAIM = 'DELETE FROM idempotency_keys WHERE username = ? AND idempotency_key = ? AND claim = ?';
const COMPLETE_CLAIM =
  'UPDATE idempotency_keys SET status = ?, headers = ?, body = ?, expires_at = ? WHERE username = ? AND idempotency_key = ? AND claim = ?';
// MySQL has DELETE … ORDER BY … LIMIT; SQLite (as built by better-sqlite3) has no LIMIT on
// DELETE, so the oldest keys are chosen by a subquery on the same index.
const SWEEP_MYSQL = 'DELETE FROM idempotency_keys WHERE expires_at <= ? ORDER BY expires_at LIMIT ?';
const SWEEP_SQLITE =
  'DELETE FROM idempotency_keys WHERE (username, idempotency_key) IN ' +
  '(SELECT username, idempotency_key FROM idempotency_keys WHERE expires_at <= ? ORDER BY expires_at LIMIT ?)';

/** The idempotency keys of every user, by (user, key). */
@Injectable()
export class IdempotencyRepository {
  constructor(private readonly sql: Sql) {}

  /** INSERTs a claim row; false when the key already has one (the primary key decides). */
  async insertClaim(
    username: string,
    key: string,
    fingerprint: string,
    claim: string,
    expiresAt: number,
  ): Promise<boolean> {
    const parameters = [username, key, fingerprint, claim, expiresAt];
    if (!this.sql.isMysql) return (await this.sql.execute(INSERT_CLAIM_SQLITE, parameters)) === 1;
    try {
      await this.sql.execute(INSERT_CLAIM, parameters);
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async find(username: string, key: string): Promise<StoredKey | null> {
    const [row] = await this.sql.select<Row>(SELECT_KEY, [username, key]);
    if (row === undefined) return null;
    return {
      fingerprint: row.fingerprint,
      claim: row.claim,
      status: row.status === null ? null : Number(row.status),
      headers: row.headers,
      body: row.body,
      expiresAt: Number(row.expires_at),
    };
  }

  async deleteClaim(username: string, key: string, claim: string): Promise<void> {
    await this.sql.execute(DELETE_CLAIM, [username, key, claim]);
  }

  async complete(
    username: string,
    key: string,
    claim: string,
    response: { status: number; headers: string; body: string; expiresAt: number },
  ): Promise<void> {
    await this.sql.execute(COMPLETE_CLAIM, [
      response.status,
      response.headers,
      response.body,
      response.expiresAt,
      username,
      key,
      claim,
    ]);
  }

  /** Removes up to `batch` keys expired at `now`, oldest first; returns how many. */
  deleteExpired(now: number, batch: number): Promise<number> {
    return this.sql.execute(this.sql.isMysql ? SWEEP_MYSQL : SWEEP_SQLITE, [now, batch]);
  }
}
