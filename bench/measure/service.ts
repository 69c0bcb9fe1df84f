/**
 * Service measurements other than throughput: start-to-ready (with and without the admin
 * variables), and how many password hashes (auth_password_checks_total) concurrent and repeated
 * credentials cost.
 */
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ROOT } from '../../test/helpers/service-process.js';
import { EVENT_BODY } from '../servers/bodies.js';
import { serviceEnv, sqliteDatabase, withoutAdmin } from '../servers/databases.js';
import { httpCall, sleep } from '../servers/http.js';
import type { BenchDatabase } from '../servers/databases.js';
import type { Plan } from './interleave.js';
import {
  median,
  type CreateCostResult,
  type LoadFloor,
  type SingleFlightResult,
  type StartupResult,
} from '../report/report.js';
import { measureStartToReady, SERVER_CORE, type Pinning, type StartedServer } from '../servers/process.js';
import { runLoad, type WorkloadName } from './load.js';

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
/** One side of an alternation of create runs: what is set up before each run of it. */
interface CreateVariant {
  readonly name: string;
  readonly idempotencyKeys?: boolean;
  /** Another workload than create on the same service (a purchase), with each request's body. */
  readonly load?: { readonly workload: WorkloadName; readonly path: string; readonly nextBody: () => string };
  readonly before?: () => Promise<void>;
  /** Called after each of its runs; what it returns is kept with the run (a backlog, say). */
  readonly after?: () => Promise<string | undefined>;
}

/**
 * Creates run in alternation, `plain` then `variant`, plan.repetitions times each, after a warm-up
 * of both: the ratio variant ÷ plain of each pair, whose median is the cost of the variant.
 */
async function alternateCreates(
  server: StartedServer,
  database: BenchDatabase,
  authorization: string,
  plan: Plan,
  plain: CreateVariant,
  variant: CreateVariant,
): Promise<{ result: CreateCostResult; problems: string[] }> {
  const run = async (side: CreateVariant, warmup = false) => {
    await side.before?.();
    const outcome = await runLoad({
      baseUrl: `http://127.0.0.1:${server.port}`,
      workload: side.load?.workload ?? 'create',
      ...(side.load === undefined ? {} : { path: side.load.path, nextBody: side.load.nextBody }),
      connections: plan.connections,
      durationSec: warmup ? plan.warmupSec : plan.durationSec,
      authorization,
      expectedStatus: 201,
      warmup,
      idempotencyKeys: side.idempotencyKeys,
    });
    return { ...outcome, note: await side.after?.() };
  };
  await run(plain, true);
  await run(variant, true);
  const runs: Record<'plain' | 'variant', { reqPerSec: number; p99Ms: number; note?: string }[]> = {
    plain: [],
    variant: [],
  };
  const problems: string[] = [];
  for (let repetition = 0; repetition < plan.repetitions; repetition++) {
    for (const [key, side] of [
      ['plain', plain],
      ['variant', variant],
    ] as const) {
      const outcome = await run(side);
      problems.push(...outcome.problems.map((problem) => `${database.kind} ${side.name}: ${problem}`));
      runs[key].push({ reqPerSec: outcome.reqPerSec, p99Ms: outcome.p99Ms, note: outcome.note });
    }
  }
  return {
    result: {
      database: database.kind,
      plain: plain.name,
      variant: variant.name,
      plainReqPerSec: runs.plain.map((r) => r.reqPerSec),
      variantReqPerSec: runs.variant.map((r) => r.reqPerSec),
      plainP99Ms: runs.plain.map((r) => r.p99Ms),
      variantP99Ms: runs.variant.map((r) => r.p99Ms),
      variantNotes: runs.variant.flatMap((r) => (r.note === undefined ? [] : [r.note])),
      ratio: median(runs.variant.map((r, index) => r.reqPerSec / runs.plain[index].reqPerSec)),
    },
    problems,
  };
}

/** Creates with a new Idempotency-Key each against creates without one. */
export function measureIdempotencyCost(
  server: StartedServer,
  database: BenchDatabase,
  authorization: string,
  plan: Plan,
): Promise<{ result: CreateCostResult; problems: string[] }> {
  return alternateCreates(
    server,
    database,
    authorization,
    plan,
    { name: 'create without a key' },
    { name: 'create with a new Idempotency-Key each', idempotencyKeys: true },
  );
}

const SUBSCRIBERS = 3;

/**
 * Creates with three webhook subscribers (a receiver in this process answering 202 at once)
 * against creates with none. Before a run without subscribers, the deliveries of the previous run
 * are awaited (at most a minute), so that they do not run into it; after a run with subscribers,
 * the deliveries still pending are noted: creates that outrun their deliveries would look cheap.
 */
export async function measureWebhookCost(
  server: StartedServer,
  database: BenchDatabase,
  authorization: string,
  plan: Plan,
): Promise<{ result: CreateCostResult; problems: string[] }> {
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(202).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const call = (method: string, path: string, body?: string) =>
    httpCall({
      port: server.port,
      method,
      path,
      headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body,
    });
  const subscriptions = async () =>
    JSON.parse((await call('GET', '/webhooks')).body) as { webhookId: string; pendingDeliveries: number }[];
  try {
    return await alternateCreates(
      server,
      database,
      authorization,
      plan,
      {
        name: 'create, no webhook subscriber',
        before: async () => {
          const deadline = Date.now() + 60_000;
          while ((await subscriptions()).some((s) => s.pendingDeliveries > 0) && Date.now() < deadline) {
            await sleep(200);
          }
          for (const { webhookId } of await subscriptions()) {
            await call('DELETE', `/webhooks/${webhookId}`);
          }
        },
      },
      {
        name: `create, ${SUBSCRIBERS} webhook subscribers`,
        before: async () => {
          for (let i = 0; i < SUBSCRIBERS; i++) {
            const created = await call('POST', '/webhooks', JSON.stringify({ url: `${receiverUrl}/subscriber-${i}` }));
            if (created.status !== 201) throw new Error(`POST /webhooks: ${created.status} ${created.body}`);
          }
        },
        after: async () => {
          const pending = (await subscriptions()).reduce((sum, s) => sum + s.pendingDeliveries, 0);
          return `${pending} deliveries pending at the end of the run`;
        },
      },
    );
  } finally {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  }
}

/** Events on sale during a purchase run: a real box office sells for many, not one hot row. */
const EVENTS_ON_SALE = 100;
/** A date no run reaches: every purchase is for the future, and no event has a capacity. */
const SALE_DATE = '2099-12-31';

/**
 * Ticket purchases (POST /tickets, an event ticket: the seat taken and the ticket written in one
 * transaction) against creates, in alternation on the same service: the purchase's cost as a
 * share of a create's req/s (issue 28 asks for at least 0.6). The purchases go round
 * EVENTS_ON_SALE events made through the API before the first run, without a capacity.
 */
export async function measureTicketCost(
  server: StartedServer,
  database: BenchDatabase,
  authorization: string,
  plan: Plan,
): Promise<{ result: CreateCostResult; problems: string[] }> {
  const eventIds: string[] = [];
  for (let i = 0; i < EVENTS_ON_SALE; i++) {
    const created = await httpCall({
      port: server.port,
      method: 'POST',
      path: '/special-events',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ ...(JSON.parse(EVENT_BODY) as object), dates: [SALE_DATE] }),
    });
    if (created.status !== 201) throw new Error(`POST /special-events: ${created.status} ${created.body}`);
    eventIds.push((JSON.parse(created.body) as { eventId: string }).eventId);
  }
  const bodies = eventIds.map((eventId) =>
    JSON.stringify({ ticketType: 'event', eventId, ticketDate: SALE_DATE, email: 'visitor@example.org' }),
  );
  let next = 0;
  return alternateCreates(
    server,
    database,
    authorization,
    plan,
    { name: 'create' },
    {
      name: 'buy-ticket (an event ticket)',
      load: { workload: 'buy-ticket', path: '/tickets', nextBody: () => bodies[next++ % bodies.length] as string },
    },
  );
}
