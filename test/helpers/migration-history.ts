import type { DataSourceOptions } from 'typeorm';
import { DataSource } from 'typeorm';
import { expect } from 'vitest';
import { loadConfig } from '../../src/config/app-config.js';
import { buildDataSourceOptions, DEFAULT_POOL } from '../../src/database/database-options.js';
import { MIGRATIONS } from '../../src/features.js';
import { createTestDatabase, TEST_DATABASE, type TestDatabase } from './test-database.js';

/** A fresh test database at the release before migration `name`, for a test of that migration. */
export interface ReleaseBefore {
  database: TestDatabase;
  /** The data source as the app builds it: every migration, the new one included. */
  options: DataSourceOptions;
  /** Initialised with the migrations before `name` run, nothing else. */
  old: DataSource;
  /** How many migrations come after `name`: reverting `name` undoes these first. */
  later: number;
}

export async function releaseBefore(name: string): Promise<ReleaseBefore> {
  const database = await createTestDatabase(TEST_DATABASE);
  const options = buildDataSourceOptions(
    loadConfig({ DATABASE_URL: database.url }).database,
    false,
    DEFAULT_POOL,
    MIGRATIONS,
  );
  const all = MIGRATIONS[TEST_DATABASE === 'mysql' ? 'mysql' : 'sqlite'];
  const at = all.findIndex((migration) => migration.name === name);
  expect(at, `${name} is in the migration history`).toBeGreaterThan(0);
  const old = new DataSource({ ...options, migrations: all.slice(0, at), migrationsRun: true });
  try {
    await old.initialize();
  } catch (error) {
    await database.drop();
    throw error;
  }
  return { database, options, old, later: all.length - at - 1 };
}

/** An event as the release before stored it: one date, no capacity, no ticket. */
export function insertOldEvent(old: DataSource, version = 1): Promise<unknown> {
  return old.query(
    'INSERT INTO special_events (event_id, name, location, event_description, dates, price, version, sort_date) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ['a0000000-0000-4000-8000-000000000000', 'A', 'L', 'D', '["2026-12-01"]', 1, version, '2026-12-01'],
  );
}
