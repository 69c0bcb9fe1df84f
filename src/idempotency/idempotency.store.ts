import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/config.module.js';
import { isUniqueViolation } from '../database/database-errors.js';
import { sqliteConnectionOf } from '../database/driver-handles.js';
import { SqliteGroupCommit } from '../database/sqlite-group-commit.js';

/** A completed response as it was first sent: what a replay sends again. */
export interface StoredResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** What became of an attempt to claim a key for a request. */
export type Claim =
  | { readonly outcome: 'claimed'; readonly claim: string }
  | { readonly outcome: 'replay'; readonly response: StoredResponse }
  | { readonly outcome: 'in-flight' }
  | { readonly outcome: 'mismatch' };

interface Row {
  fingerprint: string;
  claim: string;
  status: number | string | null;
  headers: string | null;
  body: string | null;
  expires_at: number | string;
}

/** Expired keys removed per statement, so that a sweep never holds locks for long. */
export const SWEEP_BATCH = 1000;
const SWEEP_INTERVAL_MS = 60_000;

const INSERT_CLAIM =
  'INSERT INTO idempotency_keys (username, idempotency_key, fingerprint, claim, expires_at) VALUES (?, ?, ?, ?, ?)';
const DELETE_CLAIM = 'DELETE FROM idempotency_keys WHERE username = ? AND idempotency_key = ? AND claim = ?';
const COMPLETE_CLAIM =
  'UPDATE idempotency_keys SET status = ?, headers = ?, body = ?, expires_at = ? WHERE username = ? AND idempotency_key = ? AND claim = ?';

/**
 * Idempotency keys in the database, so that they hold across restarts and instances.
 *
 * - A key is claimed by INSERTing its row: of two concurrent first requests the primary key
 *   (user, key) lets exactly one win; nothing is checked first in code.
 * - While its request is in flight a row has no status and expires after IDEMPOTENCY_IN_FLIGHT_SECONDS:
 *   a request that died with its process leaves a row that a retry may take over after that.
 *   Completion and release name the claim, so a request that outlived its lease cannot overwrite
 *   the row of the one that took over.
 * - An expired row met on the request path is deleted by its primary key and the claim retried;
 *   everything else expired is removed every minute in batches along the `expires_at` index, so
 *   the table holds at most the keys of the last IDEMPOTENCY_TTL_SECONDS and no request pays a scan.
 * - On SQLite the writes of the request path join the connection's group commit, as the events'
 *   writes do: each on its own in autocommit paid an fsync, and a keyed create, which makes
 *   three writes, did a quarter of the creates per second of one without a key.
 */
@Injectable()
export class IdempotencyStore implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Idempotency');
  private timer?: NodeJS.Timeout;
  private readonly mysql: boolean;
  /** SQLite: the statements of the request path, prepared once per connection. */
  private prepared?: { readonly db: Database.Database; readonly statements: Map<string, Database.Statement> };

  constructor(
    private readonly dataSource: DataSource,
    @InjectConfig() private readonly config: AppConfig,
  ) {
    this.mysql = dataSource.options.type === 'mysql';
  }

  onModuleInit(): void {
    this.timer = setInterval(
      () => void this.sweepQuietly(),
      Math.min(SWEEP_INTERVAL_MS, this.config.idempotency.ttlMs),
    );
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /**
   * Claims `key` of `username` for a request with `fingerprint`, or says why not: the kept
   * response of the same request, another request's key (mismatch), or a request still in flight.
   */
  async claim(username: string, key: string, fingerprint: string): Promise<Claim> {
    // Three rounds: a row can vanish (released, expired and removed) between a failed INSERT and
    // the SELECT; a key that keeps changing hands that fast is answered as in flight.
    for (let round = 0; round < 3; round++) {
      const now = Date.now();
      const claim = randomBytes(16).toString('hex');
      if (await this.insertClaim([username, key, fingerprint, claim, now + this.config.idempotency.inFlightMs])) {
        return { outcome: 'claimed', claim };
      }
      const [row] = (await this.dataSource.query(
        'SELECT fingerprint, claim, status, headers, body, expires_at FROM idempotency_keys WHERE username = ? AND idempotency_key = ?',
        [username, key],
      )) as Row[];
      if (row === undefined) continue;
      if (Number(row.expires_at) <= now) {
        await this.write(DELETE_CLAIM, [username, key, row.claim]);
        continue;
      }
      if (row.fingerprint !== fingerprint) return { outcome: 'mismatch' };
      if (row.status === null) return { outcome: 'in-flight' };
      return {
        outcome: 'replay',
        response: {
          status: Number(row.status),
          headers: JSON.parse(row.headers ?? '{}') as Record<string, string>,
          body: row.body ?? '',
        },
      };
    }
    return { outcome: 'in-flight' };
  }

  /** Keeps the response of the claimed request for IDEMPOTENCY_TTL_SECONDS. */
  async complete(username: string, key: string, claim: string, response: StoredResponse): Promise<void> {
    await this.write(COMPLETE_CLAIM, [
      response.status,
      JSON.stringify(response.headers),
      response.body,
      Date.now() + this.config.idempotency.ttlMs,
      username,
      key,
      claim,
    ]);
  }

  /** Frees the key of a request that changed nothing, so that the client may retry with it. */
  async release(username: string, key: string, claim: string): Promise<void> {
    await this.write(DELETE_CLAIM, [username, key, claim]);
  }

  /** INSERTs a claim row; false when the key already has one (the primary key decides). */
  private async insertClaim(parameters: readonly unknown[]): Promise<boolean> {
    const db = sqliteConnectionOf(this.dataSource);
    if (db !== undefined)
      return (await this.sqliteWrite(db, `${INSERT_CLAIM} ON CONFLICT DO NOTHING`, parameters)) === 1;
    try {
      await this.dataSource.query(INSERT_CLAIM, [...parameters]);
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** One write statement of the request path, durable once it resolves. */
  private async write(sql: string, parameters: readonly unknown[]): Promise<void> {
    const db = sqliteConnectionOf(this.dataSource);
    if (db === undefined) await this.dataSource.query(sql, [...parameters]);
    else await this.sqliteWrite(db, sql, parameters);
  }

  /**
   * A unit of the SQLite connection's group commit: it shares the commit's fsync with the writes
   * around it (autocommit paid one per statement). Resolves with the rows it changed.
   */
  private sqliteWrite(db: Database.Database, sql: string, parameters: readonly unknown[]): Promise<number> {
    if (this.prepared?.db !== db) this.prepared = { db, statements: new Map() };
    let statement = this.prepared.statements.get(sql);
    if (statement === undefined) {
      statement = db.prepare(sql);
      this.prepared.statements.set(sql, statement);
    }
    const prepared = statement;
    this.dataSource.logger.logQuery(sql);
    return SqliteGroupCommit.of(db).writeStatement(() => prepared.run(...parameters).changes);
  }

  /** Removes every expired key, oldest first, SWEEP_BATCH at a time; returns how many. */
  async sweep(now = Date.now()): Promise<number> {
    let removed = 0;
    for (;;) {
      const batch = await this.sweepBatch(now);
      removed += batch;
      if (batch < SWEEP_BATCH) return removed;
    }
  }

  private async sweepBatch(now: number): Promise<number> {
    // MySQL has DELETE … ORDER BY … LIMIT; SQLite (as built by better-sqlite3) has no LIMIT on
    // DELETE, so the oldest keys are chosen by a subquery on the same index.
    const sql = this.mysql
      ? 'DELETE FROM idempotency_keys WHERE expires_at <= ? ORDER BY expires_at LIMIT ?'
      : 'DELETE FROM idempotency_keys WHERE (username, idempotency_key) IN ' +
        '(SELECT username, idempotency_key FROM idempotency_keys WHERE expires_at <= ? ORDER BY expires_at LIMIT ?)';
    const runner = this.dataSource.createQueryRunner();
    try {
      const { affected } = await runner.query(sql, [now, SWEEP_BATCH], true);
      return affected ?? 0;
    } finally {
      await runner.release();
    }
  }

  private async sweepQuietly(): Promise<void> {
    try {
      const removed = await this.sweep();
      if (removed > 0) this.logger.debug(`Removed ${removed} expired idempotency keys`);
    } catch (error) {
      // The next sweep tries again; requests are not affected (they remove what they meet).
      this.logger.warn({ msg: 'Removing expired idempotency keys failed', code: errorCode(error) });
    }
  }
}

function errorCode(error: unknown): unknown {
  const { code, driverError } = (error ?? {}) as { code?: unknown; driverError?: { code?: unknown } };
  return driverError?.code ?? code;
}
