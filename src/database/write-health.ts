import { Injectable } from '@nestjs/common';
import { isDatabaseUnavailable } from './database-errors.js';

/**
 * How long a write that failed for want of a database keeps the service unready, unless a write
 * succeeds first: as long as the Retry-After its callers were given. Afterwards readiness rests on
 * its own probe again, so that an instance taken out of rotation (and sent no more writes) comes
 * back by itself; should writes still fail, the next failure takes it out again.
 */
export const WRITE_FAILURE_UNREADY_MS = 5_000;

/**
 * Whether the database took the service's recent writes. A database can answer `SELECT 1` while
 * every write fails (SQLite: a full disk; MySQL: a table locked, statements that hang), so
 * readiness asks this too. A write refused for its content (a duplicate id, a missing event) is a
 * database that works.
 */
@Injectable()
export class WriteHealth {
  private failedAt: number | undefined;

  /** Resolves or rejects as `write` does, noting whether the database was available for it. */
  async track<T>(write: Promise<T>): Promise<T> {
    try {
      const result = await write;
      this.failedAt = undefined;
      return result;
    } catch (error) {
      if (isDatabaseUnavailable(error)) this.failedAt = Date.now();
      throw error;
    }
  }

  /** True when the latest write failed for want of a database, less than WRITE_FAILURE_UNREADY_MS ago. */
  failingRecently(): boolean {
    return this.failedAt !== undefined && Date.now() - this.failedAt < WRITE_FAILURE_UNREADY_MS;
  }
}
