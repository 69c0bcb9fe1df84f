import './refuse-unsupported-node.js';
import 'reflect-metadata';
import { configOrExit, serve } from './serve.js';

/**
 * `npm run start:test`: the service for an end-to-end suite (docs/testing.md): test mode on a
 * fresh in-memory SQLite database, so that each start is a clean slate and no real data can be
 * reset. It listens on 127.0.0.1 unless HOST says otherwise; the admin is ADMIN_USERNAME and
 * ADMIN_PASSWORD, by default `admin` / `test-mode-admin-password`. Its users live only in memory,
 * so passwords are hashed at a test cost (scrypt N=2^12): the start does not wait for the
 * production cost's 0.3 s and more of CPU.
 */
const config = configOrExit({
  HOST: '127.0.0.1',
  ADMIN_USERNAME: 'admin',
  ADMIN_PASSWORD: 'test-mode-admin-password',
  ...process.env,
  DATABASE_URL: 'sqlite::memory:',
  TEST_MODE: 'true',
});
await serve({ ...config, auth: { ...config.auth, passwordHashing: { logN: 12, r: 8, p: 1 } } });
