import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { AppConfig } from '../config/app-config.js';
import { InjectConfig } from '../config/config.module.js';
import { IdempotencyRepository } from './idempotency.repository.js';

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

/** Expired keys removed per statement, so that a sweep never holds locks for long. */
export const SWEEP_BATCH = 1000;
const SWEEP_INTERVAL_MS = 60_000;

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
 * - On SQLite the writes join the connection's group commit (Sql), as the events' writes do: each
 *   on its own in autocommit paid an fsync, and a keyed create, which makes three writes, did a
 *   quarter of the creates per second of one without a key.
 */
@Injectable()
export class IdempotencyStore implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Idempotency');
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly keys: IdempotencyRepository,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

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
      if (await this.keys.insertClaim(username, key, fingerprint, claim, now + this.config.idempotency.inFlightMs)) {
        return { outcome: 'claimed', claim };
      }
      const row = await this.keys.find(username, key);
      if (row === null) continue;
      if (row.expiresAt <= now) {
        await this.keys.deleteClaim(username, key, row.claim);
        continue;
      }
      if (row.fingerprint !== fingerprint) return { outcome: 'mismatch' };
      if (row.status === null) return { outcome: 'in-flight' };
      return {
        outcome: 'replay',
        response: {
          status: row.status,
          headers: JSON.parse(row.headers ?? '{}') as Record<string, string>,
          body: row.body ?? '',
        },
      };
    }
    return { outcome: 'in-flight' };
  }

  /** Keeps the response of the claimed request for IDEMPOTENCY_TTL_SECONDS. */
  async complete(username: string, key: string, claim: string, response: StoredResponse): Promise<void> {
    await this.keys.complete(username, key, claim, {
      status: response.status,
      headers: JSON.stringify(response.headers),
      body: response.body,
      expiresAt: Date.now() + this.config.idempotency.ttlMs,
    });
  }

  /** Frees the key of a request that changed nothing, so that the client may retry with it. */
  async release(username: string, key: string, claim: string): Promise<void> {
    await this.keys.deleteClaim(username, key, claim);
  }

  /** Removes every expired key, oldest first, SWEEP_BATCH at a time; returns how many. */
  async sweep(now = Date.now()): Promise<number> {
    let removed = 0;
    for (;;) {
      const batch = await this.keys.deleteExpired(now, SWEEP_BATCH);
      removed += batch;
      if (batch < SWEEP_BATCH) return removed;
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
