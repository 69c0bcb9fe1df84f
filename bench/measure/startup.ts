/**
 * Start-to-ready: spawn to the first 200 of GET /health/ready of the service, with and without the
 * admin variables, and its floor (`node` alone, and `node` importing the mandated packages alone).
 */
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ROOT } from '../../test/helpers/service-process.js';
import { serviceEnv, sqliteDatabase, withoutAdmin } from '../servers/databases.js';
import { errorText } from '../servers/http.js';
import { onServerCore, ServerProcess, waitReady, type Pinning, type ServerSpec } from '../servers/process.js';
import { median } from './load.js';

export interface StartupResult {
  /** A brand new, empty SQLite file: migrations and the admin user are created. */
  readonly firstStartMs: number;
  /** Restarts on that migrated file with ADMIN_USERNAME/ADMIN_PASSWORD set (a scrypt check at start). */
  readonly restartMs: readonly number[];
  readonly restartMedianMs: number;
  /** The same restarts without ADMIN_USERNAME/ADMIN_PASSWORD: the users exist, nothing is hashed. */
  readonly restartWithoutAdminMs: readonly number[];
  readonly restartWithoutAdminMedianMs: number;
  /** What start-to-ready cannot go below: node itself, and loading the mandated packages. */
  readonly loadFloor: LoadFloor;
}

/** Spawn to exit of `node` with nothing to do, and importing the mandated packages alone. */
export interface LoadFloor {
  readonly packages: readonly string[];
  readonly nodeMs: readonly number[];
  readonly nodeMedianMs: number;
  readonly mandatedMs: readonly number[];
  readonly mandatedMedianMs: number;
}

const RESTARTS = 5;

/** A port free right now on 127.0.0.1 (start-to-ready polls before any log line). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Milliseconds from spawning the server to its first 200 from GET /health/ready (5 ms polls). */
async function measureStartToReady(spec: ServerSpec): Promise<number> {
  const port = await freePort();
  const server = ServerProcess.spawn({ ...spec, env: { ...spec.env, PORT: String(port) } });
  try {
    const readyAt = await waitReady(port, 60_000, 5, () => server.running);
    return readyAt - server.spawnedAt;
  } catch (error) {
    throw new Error(`${spec.name}: ${errorText(error)}\n${server.logTail()}`, { cause: error });
  } finally {
    await server.stop();
  }
}

/**
 * Once on a brand new SQLite file, then RESTARTS times on that (now migrated) file with
 * ADMIN_USERNAME/ADMIN_PASSWORD set (the service checks the admin's password with scrypt at every
 * start) and RESTARTS times without them (the users exist: nothing is hashed at start). The two
 * kinds alternate so that a change in the machine's load affects both alike; neither writes to the
 * file (the password is unchanged), so one does not change what the other finds.
 */
export async function measureStartup(entry: string, dir: string, pinning: Pinning): Promise<StartupResult> {
  const database = sqliteDatabase(dir, 'startup.sqlite');
  const spec = (run: string, env: Readonly<Record<string, string>>) => ({
    name: `service (start-to-ready, ${run})`,
    nodeArgs: [entry],
    env,
    logFile: join(dir, 'startup.log'),
    pinning,
  });
  const withAdminEnv = serviceEnv(database.url);
  const noAdminEnv = withoutAdmin(withAdminEnv);
  const firstStartMs = await measureStartToReady(spec('first start', withAdminEnv));
  process.stderr.write(`  start-to-ready, first start on an empty file: ${firstStartMs.toFixed(0)} ms\n`);
  const restartMs: number[] = [];
  const restartWithoutAdminMs: number[] = [];
  for (let run = 1; run <= RESTARTS; run++) {
    const withAdmin = await measureStartToReady(spec(`restart ${run} with ADMIN_*`, withAdminEnv));
    const noAdmin = await measureStartToReady(spec(`restart ${run} without ADMIN_*`, noAdminEnv));
    restartMs.push(withAdmin);
    restartWithoutAdminMs.push(noAdmin);
    process.stderr.write(
      `  start-to-ready, restart ${run}/${RESTARTS}: ${withAdmin.toFixed(0)} ms with ADMIN_*, ${noAdmin.toFixed(0)} ms without\n`,
    );
  }
  const loadFloor = measureLoadFloor(pinning);
  process.stderr.write(
    `  node alone: ${loadFloor.nodeMedianMs.toFixed(0)} ms; loading the mandated packages alone: ${loadFloor.mandatedMedianMs.toFixed(0)} ms\n`,
  );
  return {
    firstStartMs,
    restartMs,
    restartMedianMs: median(restartMs),
    restartWithoutAdminMs,
    restartWithoutAdminMedianMs: median(restartWithoutAdminMs),
    loadFloor,
  };
}

/** The packages the design card mandates, in the order the service's imports reach them. */
const MANDATED_PACKAGES = [
  'reflect-metadata',
  '@nestjs/common',
  '@nestjs/core',
  '@nestjs/platform-express',
  '@nestjs/passport',
  'passport-http',
  'class-validator',
  'class-transformer',
  'typeorm',
  '@nestjs/typeorm',
  'better-sqlite3',
] as const;

/**
 * The floor of start-to-ready that no code of the service can lower: spawn to exit of `node`
 * doing nothing, and of `node` importing the mandated packages and nothing else (no app, no
 * database), each RESTARTS times, alternating, on the servers' core.
 */
function measureLoadFloor(pinning: Pinning): LoadFloor {
  const run = (script: string): number => {
    const [command, ...args] = onServerCore(pinning, ['--input-type=module', '-e', script]);
    const started = performance.now();
    const result = spawnSync(command, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    const ms = performance.now() - started;
    if (result.status !== 0)
      throw new Error(`node -e failed (${result.status}): ${result.stderr || String(result.error)}`);
    return ms;
  };
  const imports = MANDATED_PACKAGES.map((name) => `await import(${JSON.stringify(name)});`).join(' ');
  const nodeMs: number[] = [];
  const mandatedMs: number[] = [];
  for (let attempt = 0; attempt < RESTARTS; attempt++) {
    nodeMs.push(run(''));
    mandatedMs.push(run(imports));
  }
  return {
    packages: MANDATED_PACKAGES,
    nodeMs,
    nodeMedianMs: median(nodeMs),
    mandatedMs,
    mandatedMedianMs: median(mandatedMs),
  };
}
