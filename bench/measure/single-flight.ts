/**
 * How many password hashes (auth_password_checks_total) concurrent and repeated credentials cost
 * the service: measured first on the SQLite service, while nothing has authenticated to it.
 */
import { randomUUID } from 'node:crypto';
import { VALID_AUTHORIZATION, WRONG_AUTHORIZATION } from '../servers/databases.js';
import { httpCall, httpExpect } from '../servers/http.js';
import type { ServerProcess } from '../servers/process.js';

export interface SingleFlightResult {
  readonly concurrentRequests: number;
  readonly concurrentStatuses: Readonly<Record<string, number>>;
  /** auth_password_checks_total after minus before: target 1. */
  readonly concurrentDelta: number;
  readonly wrongRequests: number;
  readonly wrongStatuses: Readonly<Record<string, number>>;
  readonly wrongDelta: number;
}

async function passwordChecks(port: number): Promise<number> {
  const answer = await httpExpect({ port, method: 'GET', path: '/metrics' }, 200);
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
 * with the same wrong password. The counter's deltas should both be 1; other statuses than 404
 * and 401 are problems.
 */
export async function measureSingleFlight(
  server: ServerProcess,
  concurrent = 50,
  wrong = 10,
): Promise<{ result: SingleFlightResult; problems: string[] }> {
  const deleteRandom = (authorization: string) =>
    httpCall({
      port: server.port,
      method: 'DELETE',
      path: `/special-events/${randomUUID()}`,
      headers: { authorization },
      timeoutMs: 30_000,
    }).then((answer) => answer.status);

  const before = await passwordChecks(server.port);
  const concurrentStatuses = count(
    await Promise.all(Array.from({ length: concurrent }, () => deleteRandom(VALID_AUTHORIZATION))),
  );
  const middle = await passwordChecks(server.port);
  const wrongStatuses: number[] = [];
  for (let request = 0; request < wrong; request++) wrongStatuses.push(await deleteRandom(WRONG_AUTHORIZATION));
  const after = await passwordChecks(server.port);
  const result: SingleFlightResult = {
    concurrentRequests: concurrent,
    concurrentStatuses,
    concurrentDelta: middle - before,
    wrongRequests: wrong,
    wrongStatuses: count(wrongStatuses),
    wrongDelta: after - middle,
  };
  const unexpected = [
    ...Object.keys(result.concurrentStatuses)
      .filter((status) => status !== '404')
      .map((status) => `${status} (expected 404)`),
    ...Object.keys(result.wrongStatuses)
      .filter((status) => status !== '401')
      .map((status) => `${status} (expected 401)`),
  ];
  return {
    result,
    problems: unexpected.length > 0 ? [`single-flight: unexpected statuses ${unexpected.join(', ')}`] : [],
  };
}
