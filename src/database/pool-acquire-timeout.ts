import type { Pool, PoolConnection } from 'mysql2';
import { withinRequestDeadline } from './request-deadline.js';

export const POOL_ACQUIRE_TIMEOUT = 'POOL_ACQUIRE_TIMEOUT';

/**
 * mysql2's pool has no acquire timeout: with every connection busy, a request waits in the
 * pool's queue for as long as the queries ahead of it take. This bounds that wait: past
 * `timeoutMs` the caller gets an error coded POOL_ACQUIRE_TIMEOUT (answered 503), and a
 * connection that arrives later goes straight back to the pool. Within a request the wait is cut
 * to what is left of its deadline (request-deadline.ts).
 */
export function boundPoolAcquire(pool: Pool, timeoutMs: number): void {
  const getConnection = pool.getConnection.bind(pool);
  pool.getConnection = (callback: (error: NodeJS.ErrnoException | null, connection: PoolConnection) => void) => {
    let settled = false;
    const waitMs = withinRequestDeadline(timeoutMs);
    const timer = setTimeout(() => {
      settled = true;
      const error: NodeJS.ErrnoException = new Error(`No database connection became free within ${waitMs} ms`);
      error.code = POOL_ACQUIRE_TIMEOUT;
      callback(error, undefined as unknown as PoolConnection);
    }, waitMs);
    getConnection((error, connection) => {
      if (settled) {
        if (!error) connection.release();
        return;
      }
      settled = true;
      clearTimeout(timer);
      callback(error, connection);
    });
  };
}
