import type { RowDataPacket } from 'mysql2/promise';
import type { DataSourceOptions } from 'typeorm';

const LOCK_NAME = 'museum_special_events_migrations';
const LOCK_WAIT_SECONDS = 120;

/**
 * Runs `initialize` (which applies pending migrations when `migrationsRun` is set) while holding
 * a MySQL named lock, so that several instances started at once with DB_MIGRATIONS_RUN=true
 * apply each migration once: the others wait, then find nothing pending. SQLite needs nothing:
 * its file lock serialises writers. Named locks are per server: on a multi-primary cluster
 * (Galera) or a distributed engine, run migrations once per deploy instead (docs/deployment.md).
 */
export async function withMigrationLock<T>(options: DataSourceOptions, initialize: () => Promise<T>): Promise<T> {
  if (options.type !== 'mysql' || !options.migrationsRun) return initialize();
  // Loaded here, not at the top: a service on SQLite never pays for loading mysql2 at start.
  const { createConnection } = await import('mysql2/promise');
  const connection = await createConnection({
    host: options.host,
    port: options.port,
    user: options.username,
    password: options.password,
    database: options.database,
    connectTimeout: options.connectTimeout,
  });
  try {
    const [rows] = await connection.query<RowDataPacket[]>('SELECT GET_LOCK(?, ?) AS acquired', [
      LOCK_NAME,
      LOCK_WAIT_SECONDS,
    ]);
    if (rows[0]?.acquired !== 1) {
      throw new Error(
        `Could not take the migration lock within ${LOCK_WAIT_SECONDS} s; is another instance stuck migrating?`,
      );
    }
    return await initialize();
  } finally {
    // Ending the session releases the lock, whatever happened.
    await connection.end().catch(() => undefined);
  }
}
