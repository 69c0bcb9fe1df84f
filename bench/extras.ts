/**
 * Service measurements other than throughput: start-to-ready (with and without the admin
 * variables), and how many password hashes (auth_password_checks_total) concurrent and repeated
 * credentials cost.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { serviceEnv, sqliteDatabase, withoutAdmin } from './databases.js';
import { httpCall } from './http.js';
import { median, type SingleFlightResult, type StartupResult } from './report.js';
import { measureStartToReady, type Pinning, type StartedServer } from './servers.js';

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
  return {
    firstStartMs,
    restartMs,
    restartMedianMs: median(restartMs),
    restartWithoutAdminMs,
    restartWithoutAdminMedianMs: median(restartWithoutAdminMs),
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
