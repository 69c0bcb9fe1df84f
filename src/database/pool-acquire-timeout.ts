import type { Pool, PoolConnection } from 'mysql2';

export const POOL_ACQUIRE_TIMEOUT = 'POOL_ACQUIRE_TIMEOUT';

/**
 * mysql2's pool has no acquire timeout: with every connection busy, a request waits in the
 * pool's queue for as long as the queries ahead of it take. This bounds that wait: past
 * `timeoutMs` the caller gets an error coded POOL_ACQUIRE_TIMEOUT (answered 503), and a
 * connection that arrives later goes straight back to the pool.
 */
export function boundPoolAcquire(pool: Pool, timeoutMs: number): void {
  const getConnection = pool.getConnection.bind(pool);
  pool.getConnection = (callback: (error: NodeJS.ErrnoException | null, connection: PoolConnection) => void) => {
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      const error: NodeJS.ErrnoException = new Error(`No database connection became free within ${timeoutMs} ms`);
      error.code = POOL_ACQUIRE_TIMEOUT;
      callback(error, undefined as unknown as PoolConnection);
    }, timeoutMs);
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
