import { DataSource } from 'typeorm';
import type { DatabaseConfig } from '../config/app-config.js';
import { buildDataSourceOptions, DEFAULT_POOL } from './database-options.js';
import type { DriverMigrations } from './migration-history.js';
import { Sql } from './sql.js';
import { WriteHealth } from './write-health.js';

/** The facade on a connection of its own, for a command-line tool, and how to close it. */
export interface StandaloneSql {
  readonly sql: Sql;
  close(): Promise<void>;
}

/**
 * Opens `database` for a tool outside the service (the users command) with the service's own
 * options, running `migrations` first when `runMigrations` says so: the tool reaches the database
 * through Sql as the service's modules do.
 */
export async function openStandaloneSql(
  database: DatabaseConfig,
  runMigrations: boolean,
  migrations: DriverMigrations,
): Promise<StandaloneSql> {
  const dataSource = new DataSource(buildDataSourceOptions(database, runMigrations, DEFAULT_POOL, migrations));
  await dataSource.initialize();
  return {
    sql: new Sql(dataSource, new WriteHealth()),
    close: async () => {
      if (dataSource.isInitialized) await dataSource.destroy();
    },
  };
}
