/**
 * The servers of a run and how each is started: the two references, neither with authentication,
 * validation, storage or logging (bare Express, the baseline every ratio is against, baseline.ts;
 * bare NestJS on Express, the floor: what Nest itself costs, nest-floor.ts); on each database the
 * mandated stack's floor (Nest, the Passport Basic guard, class-validator DTOs and the service's
 * TypeORM store, nothing else, mandated-floor.ts: it runs the service's workloads, auth-fail
 * included); and the compiled service itself.
 */
import { join } from 'node:path';
import { ROOT } from '../../test/helpers/service-process.js';
import { ADMIN_PASSWORD, ADMIN_USERNAME, serviceEnv, type BenchDatabase, type DatabaseKind } from './databases.js';
import { errorText } from './http.js';
import { ServerProcess, waitReady, type Pinning } from './process.js';

export type ReferenceLabel = 'baseline' | 'nest-floor';
export type StackLabel = `stack-${DatabaseKind}`;
/** A server in the report: a reference, a mandated stack's floor, or the service on a database. */
export type ServerLabel = ReferenceLabel | StackLabel | DatabaseKind;
/** What a workload says it runs on (workloads/workload.ts, servers). */
export type Role = ReferenceLabel | 'stack' | 'service';

export function isReference(label: ServerLabel): label is ReferenceLabel {
  return label === 'baseline' || label === 'nest-floor';
}

export function stackOf(database: DatabaseKind): StackLabel {
  return `stack-${database}`;
}

export function roleOf(label: ServerLabel): Role {
  return isReference(label) ? label : label.startsWith('stack-') ? 'stack' : 'service';
}

/** How the progress output names a server it starts. */
export function titleOf(label: ServerLabel): string {
  if (label === 'baseline') return 'bare Express 5 (baseline)';
  if (label === 'nest-floor') return 'bare NestJS 12 on platform-express (floor)';
  return roleOf(label) === 'stack'
    ? `the mandated stack's floor on ${label.replace('stack-', '')}`
    : `the service on ${label}`;
}

const SCRIPTS: Readonly<Record<Exclude<Role, 'service'>, string>> = {
  baseline: 'baseline.ts',
  'nest-floor': 'nest-floor.ts',
  stack: 'mandated-floor.ts',
};

export interface StartContext {
  /** The run's temp dir, where the server's log goes. */
  readonly dir: string;
  readonly pinning: Pinning;
  /** The compiled service's main.js. */
  readonly entry: string;
}

/**
 * Starts a server as its own pinned process: a reference under `node --import tsx`, the service
 * as `node main.js`, on `database` (the stack's floor and the service: a database of their own).
 * Those two are waited for until GET /health/ready answers 200 (and stopped if they never do).
 */
export async function startServer(
  context: StartContext,
  label: ServerLabel,
  database?: BenchDatabase,
  name: string = roleOf(label) === 'service' ? `service-${label}` : label,
): Promise<ServerProcess> {
  const role = roleOf(label);
  if (role !== 'baseline' && role !== 'nest-floor' && database === undefined)
    throw new Error(`${name}: needs a database`);
  const url = database?.url ?? '';
  const server = await ServerProcess.start({
    name,
    nodeArgs:
      role === 'service'
        ? [
            ...(process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean),
            process.env.BENCH_SERVICE_ENTRY || context.entry,
          ]
        : ['--import', 'tsx', join(ROOT, 'bench', 'servers', SCRIPTS[role])],
    env:
      role === 'service'
        ? serviceEnv(url, database?.env)
        : role === 'stack'
          ? { DATABASE_URL: url, ADMIN_USERNAME, ADMIN_PASSWORD }
          : {},
    logFile: join(context.dir, `${name.replace(/\W+/g, '-')}.log`),
    pinning: context.pinning,
  });
  if (isReference(label)) return server;
  try {
    await waitReady(server.port, 30_000, 20, () => server.running);
  } catch (error) {
    await server.stop();
    throw new Error(`${name}: ${errorText(error)}\n${server.logTail()}`, { cause: error });
  }
  return server;
}
