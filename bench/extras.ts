/**
 * Service measurements other than throughput: start-to-ready (with and without the admin
 * variables), and how many password hashes (auth_password_checks_total) concurrent and repeated
 * credentials cost.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ROOT } from '../test/helpers/service-process.js';
import { serviceEnv, sqliteDatabase, withoutAdmin } from './databases.js';
import { httpCall } from './http.js';
import type { BenchDatabase } from './databases.js';
import type { Plan } from './measure.js';
import {
  median,
  type IdempotencyCostResult,
  type LoadFloor,
  type SingleFlightResult,
  type StartupResult,
} from './report.js';
import { measureStartToReady, SERVER_CORE, type Pinning, type StartedServer } from './servers.js';
import { runLoad } from './workloads.js';

const RESTARTS = 5;

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
    const node = [process.execPath, '--input-type=module', '-e', script];
    const [command, ...args] = pinning.enabled ? ['taskset', '-c', String(SERVER_CORE), ...node] : node;
    const started = performance.now();
    const result = spawnSync(command as string, args, {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
      encoding: 'utf8',
    });
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

async function passwordChecks(port: number): Promise<number> {
  const answer = await httpCall({ port, method: 'GET', path: '/metrics' });
  if (answer.status !== 200) throw new Error(`GET /metrics answered ${answer.status}`);
  const match = /^auth_password_checks_total(?:\{[^}]*\})?\s+(\S+)$/m.exec(answer.body);
  if (!match) throw new Error('GET /metrics has no auth_password_checks_total');
  return Number(match[1]);
}

function count(statuses: readonly number[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

/**
 * On a service nothing has authenticated to yet: `concurrent` DELETEs of random ids (404) at once,
 * each on its own connection, with the admin's credentials; then `wrong` sequential requests
 * with the same wrong password. The counter's deltas should both be 1.
 */
export async function measureSingleFlight(
  server: StartedServer,
  validAuthorization: string,
  wrongAuthorization: string,
  concurrent = 50,
  wrong = 10,
): Promise<SingleFlightResult> {
  const deleteRandom = (authorization: string) =>
    httpCall({
      port: server.port,
      method: 'DELETE',
      path: `/special-events/${randomUUID()}`,
      headers: { authorization },
      timeoutMs: 30_000,
    }).then((answer) => answer.status);

  const before = await passwordChecks(server.port);
  const concurrentStatuses = await Promise.all(
    Array.from({ length: concurrent }, () => deleteRandom(validAuthorization)),
  );
  const middle = await passwordChecks(server.port);
  const wrongStatuses: number[] = [];
  for (let request = 0; request < wrong; request++) wrongStatuses.push(await deleteRandom(wrongAuthorization));
  const after = await passwordChecks(server.port);
  return {
    concurrentRequests: concurrent,
    concurrentStatuses: count(concurrentStatuses),
    concurrentDelta: middle - before,
    wrongRequests: wrong,
    wrongStatuses: count(wrongStatuses),
    wrongDelta: after - middle,
  };
}

/**
 * What an Idempotency-Key costs a create: runs of creates each with a new key (a claim, then the
 * kept response: two more writes) alternate with runs of the same creates without one, on the
 * same service, so that the ratio compares runs made seconds apart. A warm-up of each first.
 */
export async function measureIdempotencyCost(
  server: StartedServer,
  database: BenchDatabase,
  authorization: string,
  plan: Plan,
): Promise<{ result: IdempotencyCostResult; problems: string[] }> {
  const run = (idempotencyKeys: boolean, warmup = false) =>
    runLoad({
      baseUrl: `http://127.0.0.1:${server.port}`,
      workload: 'create',
      connections: plan.connections,
      durationSec: warmup ? plan.warmupSec : plan.durationSec,
      authorization,
      expectedStatus: 201,
      warmup,
      idempotencyKeys,
    });
  await run(false, true);
  await run(true, true);
  const without: { reqPerSec: number; p99Ms: number }[] = [];
  const withKey: { reqPerSec: number; p99Ms: number }[] = [];
  const problems: string[] = [];
  for (let repetition = 0; repetition < plan.repetitions; repetition++) {
    for (const keyed of [false, true]) {
      const outcome = await run(keyed);
      problems.push(
        ...outcome.problems.map(
          (problem) => `idempotency ${database.kind} ${keyed ? 'with' : 'without'} key: ${problem}`,
        ),
      );
      (keyed ? withKey : without).push({ reqPerSec: outcome.reqPerSec, p99Ms: outcome.p99Ms });
    }
  }
  return {
    result: {
      database: database.kind,
      withoutKeyReqPerSec: without.map((r) => r.reqPerSec),
      withKeyReqPerSec: withKey.map((r) => r.reqPerSec),
      withoutKeyP99Ms: without.map((r) => r.p99Ms),
      withKeyP99Ms: withKey.map((r) => r.p99Ms),
      ratio: median(withKey.map((r, index) => r.reqPerSec / without[index].reqPerSec)),
    },
    problems,
  };
}
